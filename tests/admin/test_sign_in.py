"""Staff sign in to /admin/ with a password and a TOTP code; failures lock out (django-axes)."""

import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core.management import CommandError, call_command
from django.utils import timezone
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.login_links import request_login_link
from accounts.models import User
from piratz_site.admin_site import NO_DEVICE_MESSAGE, WRONG_CODE_MESSAGE
from tests.factories import client_for

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/?next=/admin/"
PASSWORD = "correct horse battery staple"


@pytest.fixture
def staff() -> User:
    """A moderator who signs in with a password and an authenticator app."""
    return User.objects.create_superuser("mod@example.com", password=PASSWORD)


@pytest.fixture
def device(staff) -> TOTPDevice:
    return TOTPDevice.objects.create(user=staff, name="authenticator", confirmed=True)


def current_code(device: TOTPDevice) -> str:
    return f"{totp(device.bin_key, step=device.step, t0=device.t0, digits=device.digits):06d}"


def wrong_code(device: TOTPDevice) -> str:
    return f"{(int(current_code(device)) + 500_000) % 1_000_000:06d}"


def sign_in(client, *, password=PASSWORD, code="", username="mod@example.com", **extra):
    fields = {"username": username, "password": password, "otp_token": code}
    return client.post(LOGIN, fields, **extra)


def in_admin(client) -> bool:
    return client.get("/admin/").status_code == 200


def test_the_sign_in_form_asks_for_the_apps_code(client):
    page = client.get(LOGIN).content.decode()

    assert 'name="password"' in page and 'name="otp_token"' in page
    assert "Code from your authenticator app" in page
    assert "otp_challenge" not in page  # for devices that send codes; TOTP apps do not


def test_password_alone_is_refused(client, device):
    response = sign_in(client)

    assert response.status_code == 200  # the form again
    assert "Enter the 6-digit code" in response.content.decode()
    assert not in_admin(client)


def test_password_and_current_code_sign_in(client, device):
    response = sign_in(client, code=current_code(device))

    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert in_admin(client)


def test_wrong_code_is_refused(client, device):
    response = sign_in(client, code=wrong_code(device))

    assert WRONG_CODE_MESSAGE in response.content.decode()
    assert not in_admin(client)


def test_force_login_without_a_device_is_not_enough(client, staff):
    client.force_login(staff)  # a password session, no second factor

    assert client.get("/admin/").status_code == 302


def test_staff_without_a_device_are_told_to_enrol(client, staff):
    response = sign_in(client, code="123456")

    assert NO_DEVICE_MESSAGE in response.content.decode()
    assert not in_admin(client)


def test_another_users_device_cannot_be_chosen(client, device):
    other = User.objects.create_superuser("other@example.com", password=PASSWORD)
    TOTPDevice.objects.create(user=other, name="authenticator", confirmed=True)

    response = client.post(
        LOGIN,
        {
            "username": "other@example.com",
            "password": PASSWORD,
            "otp_device": device.persistent_id,  # mod's device, mod's code
            "otp_token": current_code(device),
        },
    )

    assert response.status_code == 200
    assert not in_admin(client)


def failures_until_locked(client, device, attempt) -> int:
    for number in range(1, settings.AXES_FAILURE_LIMIT + 1):
        response = attempt(client, device)
        if response.status_code == 429:
            return number
    return 0


@pytest.mark.parametrize(
    "attempt",
    [
        pytest.param(lambda client, device: sign_in(client, password="guess"), id="password"),
        pytest.param(lambda client, device: sign_in(client, code=wrong_code(device)), id="code"),
    ],
)
def test_failed_sign_ins_lock_the_username_out_from_that_address(
    client, device, attempt, time_machine
):
    assert failures_until_locked(client, device, attempt) == settings.AXES_FAILURE_LIMIT
    # A minute later: past django-otp's own growing pause after wrong codes (16 s after
    # five), well within the lockout's cool-off.
    time_machine.move_to(timezone.now() + timedelta(minutes=1))

    # Now even the right password and code are refused from here, whatever the spelling...
    response = sign_in(client, code=current_code(device), username="MOD@example.com ")
    assert response.status_code == 429
    assert not in_admin(client)
    # ...but not from another address (lockout is per username and address).
    response = sign_in(client, code=current_code(device), REMOTE_ADDR="192.0.2.7")
    assert response.status_code == 302
    assert in_admin(client)


def test_failed_sign_ins_are_stored_without_the_password_or_the_code(client, device):
    code = current_code(device)
    sign_in(client, password="Sup3r-secret-guess", code=code)
    sign_in(client, code=code.translate(str.maketrans("0123456789", "1234567890")))

    attempts = AccessAttempt.objects.all()
    assert attempts.count() == 1 and attempts[0].failures_since_start == 2
    stored = " ".join(f"{a.get_data} {a.post_data} {a.username}" for a in attempts)
    assert "Sup3r-secret-guess" not in stored and PASSWORD not in stored
    assert code not in stored


def test_a_locked_out_moderator_still_uses_the_api_and_login_links(
    client, device, mailoutbox, django_capture_on_commit_callbacks
):
    failures_until_locked(client, device, lambda client, device: sign_in(client, password="x"))
    assert sign_in(client, code=current_code(device)).status_code == 429

    # Neither is a password sign-in: the API key and the emailed link still work.
    assert client_for(device.user).get("/api/me/settings/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        request_login_link("mod@example.com")
    path = re.search(r"https?://[^/\s]+(/accounts/login/[^/\s]+/)", mailoutbox[-1].body)[1]
    response = client.post(path)
    assert response.status_code == 302
    assert client.get("/api/me/settings/").status_code == 200


# --- Enrolment: manage.py add_totp_device -------------------------------------------------


def test_add_totp_device_prints_the_uri_once_and_the_code_signs_in(client, staff, capsys, caplog):
    call_command("add_totp_device", "MOD@example.com")

    out, err = capsys.readouterr()
    uri = out.strip().splitlines()[-1]
    assert "█" in err or "▀" in err  # the QR code, drawn with block characters
    device = TOTPDevice.objects.get(user=staff)
    assert uri == device.config_url and uri.startswith("otpauth://totp/")
    assert "Piratz" in uri  # the issuer shown in the app
    assert device.key not in caplog.text and "otpauth" not in caplog.text  # never logged
    assert sign_in(client, code=current_code(device)).status_code == 302


def test_add_totp_device_refuses_a_second_device_without_replace(staff):
    call_command("add_totp_device", staff.email, "--no-qr")
    old = TOTPDevice.objects.get(user=staff)

    with pytest.raises(CommandError, match="--replace"):
        call_command("add_totp_device", staff.email, "--no-qr")
    call_command("add_totp_device", staff.email, "--no-qr", "--replace")

    assert list(TOTPDevice.objects.filter(user=staff).values_list("id", flat=True)) != [old.id]
    assert TOTPDevice.objects.filter(user=staff).count() == 1


def test_add_totp_device_is_for_staff_only(anna):
    with pytest.raises(CommandError, match="not staff"):
        call_command("add_totp_device", anna.email)
    with pytest.raises(CommandError, match="createsuperuser"):
        call_command("add_totp_device", "nobody@example.com")


def test_the_admin_never_shows_a_devices_key(moderator_client, moderator):
    device = TOTPDevice.objects.get(user=moderator)  # the one the fixture signed in with
    base = f"/admin/otp_totp/totpdevice/{device.pk}"

    pages = [
        moderator_client.get(url) for url in ("/admin/otp_totp/totpdevice/", f"{base}/change/")
    ]
    secret_pages = [moderator_client.get(f"{base}/{view}/") for view in ("config", "qrcode")]

    assert all(page.status_code == 200 for page in pages)
    assert all(device.key not in page.content.decode() for page in pages)
    assert [page.status_code for page in secret_pages] == [403, 403]
