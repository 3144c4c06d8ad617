"""The site's strict Content-Security-Policy in a real browser: the moderators' admin and
the API docs work under it with nothing refused, and a refusal fails a test.

The players' pages are covered by every other browser test: each page a Visitor opens is
checked for CSP violations (conftest.Visitor.check_page).
"""

import pytest
from django.conf import settings
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser

PASSWORD = "a long moderator passphrase"


def sign_in_to_the_admin(visitor, email: str) -> None:
    """The moderators' sign-in form, filled in and sent: password and a TOTP code."""
    moderator = make_user(email, is_staff=True, is_superuser=True, password=PASSWORD)
    device = TOTPDevice.objects.create(user=moderator, name="phone", confirmed=True)
    code = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift).token()
    visitor.open("/admin/login/")
    visitor.page.fill("#id_username", email)
    visitor.page.fill("#id_password", PASSWORD)
    visitor.page.fill("#id_otp_token", f"{code:06d}")
    visitor.click(visitor.page.locator("#login-form [type=submit]"))


def test_the_admin_works_under_the_csp(site, visitors):
    """Signing in, the dashboard, a change list, a change form with its scripts and a
    search: nothing refused (the policy has no nonce; Django's admin needs none here)."""
    anna = make_user("anna@example.com", display_name="Anna")
    game = start_game([anna, make_user("bert@example.com")])
    mod = visitors("Moderator")
    sign_in_to_the_admin(mod, "mod@example.com")
    assert mod.page.url == f"{site.url}/admin/"
    assert mod.page.locator("#dashboard").count()
    # The dashboard's numbers stand right-aligned from the static stylesheet.
    align = mod.page.locator("td.dashboard-count").first.evaluate(
        "cell => getComputedStyle(cell).textAlign"
    )
    assert align == "right"
    for path in ["/admin/accounts/user/", f"/admin/games/game/{game.id}/change/"]:
        mod.open(path)
    mod.open("/admin/accounts/user/")
    mod.page.fill("#searchbar", "anna")
    mod.press("Enter")
    assert mod.page.get_by_text("anna@example.com").count()


def test_the_api_docs_render_under_the_csp(site, visitors):
    """Swagger UI draws the schema with its script served as a file and no inline style."""
    reader = visitors("API reader")
    reader.page.goto("/api/docs/")
    reader.page.locator(".swagger-ui .information-container").wait_for()
    reader.page.locator(".opblock").first.wait_for()
    errors = reader.console_errors
    assert not errors, errors
    reader.assert_no_csp_violation()


def test_a_page_breaking_the_csp_fails_the_test(site, visitors):
    """The check itself: an inline script and a style attribute under the site's policy
    (served by the browser's route, as a template that broke the rule would be) are
    reported, so the tests above prove something."""
    from django.utils.csp import build_policy

    policy = build_policy(settings.SECURE_CSP)
    probe = visitors("Probe")
    probe.page.route(
        f"{site.url}/csp-probe/",
        lambda route: route.fulfill(
            status=200,
            headers={"Content-Type": "text/html", "Content-Security-Policy": policy},
            body='<!doctype html><html lang="en"><title>probe</title>'
            '<p style="color: red">x</p><script>document.title = "ran"</script></html>',
        ),
    )
    probe.page.goto("/csp-probe/")
    probe.page.wait_for_load_state("load")
    assert probe.page.title() == "probe"  # the inline script did not run
    with pytest.raises(AssertionError, match="CSP violations") as refused:
        probe.assert_no_csp_violation()
    assert "script-src" in str(refused.value) and "style-src" in str(refused.value)
    probe.console_errors.clear()
