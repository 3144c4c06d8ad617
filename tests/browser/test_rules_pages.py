"""The rules pages in a real browser (issue 25): each game's page, English on a desktop and
German on a phone, checked as conftest.Visitor checks every page (console, CSP, axe), with
no sideways scrolling and a rule's link landing on its rule."""

import pytest

from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("kind", ["piratz", "rattenscharf"])
def test_the_rules_pages_on_a_desktop_and_a_phone(site, visitors, kind):
    reader = visitors("Reader", viewport=DESKTOP)
    reader.open(f"/rules/{kind}/")
    reader.assert_no_horizontal_scroll()
    reader.screenshot(f"rules-{kind}-en-desktop")
    rule = "P20" if kind == "piratz" else "R20"
    reader.page.locator(f'a[href="#{rule}"]').first.click()
    assert reader.page.evaluate("location.hash") == f"#{rule}"
    assert reader.page.locator(f"#{rule}").is_visible()

    phone = visitors("Leser", viewport=PHONE, locale="de-DE")
    phone.open(f"/rules/{kind}/")
    assert phone.page.locator("html").get_attribute("lang") == "de"
    phone.assert_no_horizontal_scroll()
    phone.screenshot(f"rules-{kind}-de-phone")
