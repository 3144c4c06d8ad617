"""The browser harness's own promises (conftest.Visitor): axe-core fails a page with a
serious violation, checks each kind of page once in a run, and tells kinds apart by
screen and colour scheme as well as by path."""

import pytest

from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

# A button with no accessible name: axe-core's "button-name", a critical violation.
NAMELESS_BUTTON = '<!doctype html><html lang="en"><title>t</title><main><button></button></main>'


def open_unchecked(visitor, path: str, html: str) -> None:
    """Show ``html`` at ``path`` on the site, without the checks of ``Visitor.open``."""
    visitor.page.route(f"{visitor.site.url}{path}", lambda route: route.fulfill(body=html))
    visitor.page.goto(path)


def test_a_kind_of_page_is_checked_once_unless_forced(site, visitors):
    anna = visitors("Anna")
    open_unchecked(anna, "/harness/once/", NAMELESS_BUTTON)
    with pytest.raises(AssertionError, match="button-name"):
        anna.check_accessibility()
    anna.check_accessibility()  # this kind was checked (and failed the test that saw it)
    with pytest.raises(AssertionError, match="button-name"):
        anna.check_accessibility(force=True)


def test_the_screen_and_the_colour_scheme_make_another_kind(site, visitors):
    kinds = set()
    for viewport in (DESKTOP, PHONE):
        for scheme in ("light", "dark"):
            visitor = visitors("Anna", viewport=viewport)
            visitor.page.emulate_media(color_scheme=scheme)
            open_unchecked(visitor, "/harness/kinds/", NAMELESS_BUTTON)
            kinds.add(visitor.page_kind())
            with pytest.raises(AssertionError, match="button-name"):
                visitor.check_accessibility()
    assert len(kinds) == 4, kinds
