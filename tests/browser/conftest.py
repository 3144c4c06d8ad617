"""Browser tests: Debian's Chromium, driven by Playwright, against Django's live test server.

Every page a ``Visitor`` opens or reaches by a click is checked the same way: no console
errors, no Content-Security-Policy violation, no serious or critical axe-core violations
(once per kind of page in a worker's run), and no hidden information in any document or
fragment the browser received (``HiddenInformationScan``). A CSP violation seen after a
visitor's last check fails the test when its visitors are closed.
"""

import os
import re
import shutil
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail

from core.redaction import redact_text

# Debian's Chromium (installed by .ci/run): Playwright cannot download its own build here.
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(settings.BASE_DIR) / "var" / "screenshots"
# axe-core impacts that fail a page; "minor" and "moderate" findings are left to review.
FAILING_IMPACTS = {"serious", "critical"}
# How long a click may take to load the next page, in ms (the server is local).
NAVIGATION_TIMEOUT = 15_000


@contextmanager
def _async_unsafe_allowed() -> Iterator[None]:
    """Let the test thread use the ORM while Playwright's sync API is running.

    Playwright's sync API runs an asyncio event loop on this thread (its greenlets switch
    into it for every call) and leaves it registered as the thread's running loop, so
    Django's guard against the ORM in async code would raise SynchronousOnlyOperation at
    the test's (and pytest-django's flush's) queries. Those queries are synchronous and
    alone on this thread's connection, so the guard is switched off, for the browser
    package only: the variable is restored when its last test is done.
    """
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield
    finally:
        if before is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


def _missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import axe_playwright_python  # noqa: F401
        import playwright  # noqa: F401
    except ImportError as error:
        return f"{error.name} is not installed (pip install -r requirements-test.txt)"
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set CHROMIUM=/path)"
    return None


@pytest.fixture(scope="package")
def browser():
    """One headless Chromium for the package; skipped locally without it, failed in CI."""
    missing = _missing_browser()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"The browser tests must run in CI, but {missing}.")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with _async_unsafe_allowed(), sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="package")
def axe_checked() -> set[str]:
    """The kinds of page axe-core has checked in this worker's run of the package
    (``Visitor.page_kind``): a login page or an empty My games checked in one test is not
    checked again in the next twenty (150 of 256 runs were such repeats). A test that
    makes a page its own way (long names, a theme) and wants that page checked says
    ``check_accessibility(force=True)``."""
    return set()


class Site:
    """The live test server as the players reach it: its address and the emails it sent."""

    def __init__(self, url: str, axe_checked: set[str]):
        self.url = url
        self.axe_checked = axe_checked

    def emails_to(self, address: str) -> list:
        """The emails sent to ``address`` so far, oldest first (the locmem outbox)."""
        return [message for message in mail.outbox if address in message.to]

    def link_in_last_email(self, address: str, path_pattern: str) -> str:
        """The link to this site in the newest email to ``address`` whose path matches
        ``path_pattern`` (a regex), e.g. ``r"/invitations/[^/]+/"``."""
        pattern = re.compile(re.escape(self.url) + path_pattern)
        for message in reversed(self.emails_to(address)):
            found = pattern.search(message.body)
            if found:
                return found.group(0)
        subjects = [message.subject for message in self.emails_to(address)]
        raise AssertionError(f"No email to {address} links to {path_pattern}; got {subjects}")


@pytest.fixture
def site(browser, live_server, transactional_db, settings, axe_checked) -> Site:
    """The live server, with emailed links pointing at it.

    The live server answers in its own thread on the same test database, so the test's
    data must be committed: hence ``transactional_db``. Emails go out on commit (the test
    settings' eager outbox) into ``django.core.mail.outbox``.
    """
    settings.SITE_URL = live_server.url
    settings.CSRF_TRUSTED_ORIGINS = [live_server.url]
    # The live server has no news bus: its table streams poll the game's version.
    # A tenth of a second (production's fallback polls every second) keeps a whole game
    # of moves arriving on the other page from waiting a second each.
    settings.TABLE_STREAM_POLL_SECONDS = 0.1
    return Site(live_server.url, axe_checked)


# A scanner gets (url, body, content type) of every response the browser received.
Scanner = Callable[[str, str, str], None]

# Pages' periodic timers (setInterval of a second or more: the table's version poll) are
# held until the test fires them with ``Visitor.live_refresh``. A poll firing on its own
# would reload a page while the test reads or clicks it, at a moment nobody chose.
# (Playwright's fake clock would do the same, but axe-core never finishes under a paused
# clock.) Shorter intervals and every setTimeout run as usual.
HOLD_PERIODIC_TIMERS = """
(() => {
  const held = new Map();
  let next = -1;
  const setInterval = window.setInterval.bind(window);
  const clearInterval = window.clearInterval.bind(window);
  window.setInterval = (callback, delay, ...args) => {
    if (!(delay >= 1000)) return setInterval(callback, delay, ...args);
    held.set(next, () => callback(...args));
    return next--;
  };
  window.clearInterval = (id) => (held.has(id) ? held.delete(id) : clearInterval(id));
  window.__fireHeldTimers = () => { held.forEach((fire) => fire()); return held.size; };
})();
"""

# Every refusal by the Content-Security-Policy, as a console line the Visitor collects:
# Chrome logs some refusals only as warnings, and a refused style or image raises no error.
# An init script runs before the page's own scripts and whatever the page's CSP says.
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`Content Security Policy violation: ${event.effectiveDirective} refused `
    + `${event.blockedURI || "inline code"} at ${event.sourceFile}:${event.lineNumber}`);
});
"""
CSP_MARK = "Content Security Policy"

# No live refresh under way: the table's fetch and the board scripts run again after a
# swap have ended (static/js/table.js), so what the page shows stays put while it is read.
SETTLED = "() => !document.documentElement.hasAttribute('data-table-refreshing')"
# The short animations after a live swap (static/js/table_motion.js), played to their end
# at once: a card on its way in from the draw pile covers what lies between for a third of
# a second, and a person clicks where things have landed. (Waiting for them instead would
# add up to half a second to every click after a live swap.)
LANDED = "() => document.getAnimations().forEach((animation) => animation.finish())"
# The table shows the game at this version and status, and is settled.
SHOWS_VERSION = """
([version, status]) => document.querySelector(
  `.game-table[data-version="${version}"][data-status="${status}"]`) !== null
  && !document.documentElement.hasAttribute("data-table-refreshing")
"""


# The kind of page (Visitor.page_kind), from the generalised path given: everything read in
# one call, as each of Playwright's calls is a round trip to the browser.
PAGE_KIND = """
(path) => {
  const actions = [...new Set([...document.querySelectorAll("[data-action]")]
    .map((node) => node.dataset.action))].sort();
  const game = document.querySelector("[data-rules-link]")?.getAttribute("href") || "";
  const status = document.querySelector(".game-table")?.dataset.status || "";
  const dark = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  const alerts = document.querySelector("[role=alert]") ? 1 : 0;
  return `${document.documentElement.lang} ${window.innerWidth}px ${dark} ${path} `
    + `${game} ${status} ${actions.join(",")} alerts=${alerts}`;
}
"""

# Why a person could not click the element (empty when they could), after scrolling it
# to the middle of the window: not shown, disabled, or covered where a click lands by another
# element (its own label, for a styled radio button, counts as itself).
CLICKABLE = """
(element) => {
  element.scrollIntoView({ block: "center", inline: "center" });
  // Where a click lands: the middle of the element's first box (a link that wraps over
  // two lines has two), as Playwright picks it.
  const box = [...element.getClientRects()].find((rect) => rect.width && rect.height);
  const style = window.getComputedStyle(element);
  if (!box || style.visibility === "hidden") return "it is not shown";
  if (element.disabled || element.closest("fieldset:disabled")) return "it is disabled";
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const mine = (node) => node && (element === node || element.contains(node)
    || [...(element.labels || [])].some((label) => label.contains(node)));
  return mine(hit) ? "" : `it is covered by ${hit ? hit.outerHTML.slice(0, 120) : "nothing"}`;
}
"""


class Visitor:
    """One person at their own browser: cookies, language and screen size of their own.

    ``open`` and ``click`` wait for the next page and check it (see the module docstring);
    a test never reads a page that was not checked.
    """

    def __init__(
        self, browser, site: Site, name: str, *, viewport=DESKTOP, locale="en-GB", context=None
    ):
        self.name = name
        self.site = site
        self.context = context or browser.new_context(
            viewport=viewport,
            locale=locale,
            base_url=site.url,
            extra_http_headers={"Accept-Language": locale},
        )
        if context is None:
            self.context.add_init_script(HOLD_PERIODIC_TIMERS)
            self.context.add_init_script(REPORT_CSP_VIOLATIONS)
        self.context.set_default_timeout(NAVIGATION_TIMEOUT)
        self.page = self.context.new_page()
        self.console_errors: list[str] = []
        self.csp_violations: list[str] = []
        self.scanners: list[Scanner] = []
        self._responses: list = []
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda error: self.console_errors.append(f"uncaught: {error}"))
        self.page.on("response", self._on_response)

    def _on_console(self, message) -> None:
        if CSP_MARK in message.text:  # whatever its level (see REPORT_CSP_VIOLATIONS)
            self.csp_violations.append(f"{message.text} at {message.location.get('url')}")
        elif message.type == "error":
            self.console_errors.append(f"{message.text} at {message.location.get('url')}")

    def _on_response(self, response) -> None:
        if response.url.startswith(self.site.url):
            self._responses.append(response)

    @property
    def where(self) -> str:
        """The page's address for messages: tokens of signed links redacted, as in logs."""
        return redact_text(self.page.url)

    # --- moving around ------------------------------------------------------------------

    def open(self, url: str) -> None:
        """Go to ``url`` (absolute, or a path on the site), as from a link in an email."""
        response = self.page.goto(url)
        status = response and response.status
        assert status and status < 400, f"{self.name}: {status} from {redact_text(url)}"
        self.check_page()

    def click(self, target) -> None:
        """Click ``target`` (a Locator, or a button's accessible name) and check the next page."""
        if isinstance(target, str):
            target = self.page.get_by_role("button", name=target, exact=True)
        self.assert_clickable(target)
        with self.page.expect_navigation():
            target.click(force=True)  # checked just above (see assert_clickable)
        self.check_page()

    def choose(self, target) -> None:
        """Tick the radio button or check box ``target``, as a person clicking it would."""
        self.assert_clickable(target)
        target.check(force=True)

    def assert_clickable(self, target) -> None:
        """``target`` can take a person's click: the page is not halfway through a live
        swap, its cards have landed (``LANDED``), and the element is in the page, shown,
        enabled and on top where it would be clicked (scrolled there first).

        Playwright's own checks before a click also wait until the element has kept its
        place for two animation frames; on CI's two busy cores a frame of the table took
        hundreds of milliseconds, which made that wait most of every click's second, while
        nothing on these pages moves when they load (static/js/table_motion.js). So the
        clicks are forced, after this check of everything else Playwright would check."""
        self.page.wait_for_function(SETTLED)
        self.page.evaluate(LANDED)
        why = target.evaluate(CLICKABLE)
        assert not why, f"{self.name}: cannot click on {self.where}: {why}"

    def press(self, key: str) -> None:
        """Press ``key`` on the page (e.g. "ArrowRight") and check the page it leads to."""
        with self.page.expect_navigation():
            self.page.keyboard.press(key)
        self.check_page()

    def live_refresh(self) -> None:
        """Wait until the table page shows its game as it is now: the live table's stream
        brings the news by itself (static/js/table.js swaps the table in place); the held
        periodic timers (the version poll standing in for a broken stream) fire once too."""
        self.page.evaluate("window.__fireHeldTimers()")
        url = self.page.locator(".game-table[data-version-url]").get_attribute("data-version-url")
        now = self.page.request.get(url).json()  # the game as it is (this visitor's cookies)
        self.page.wait_for_function(SHOWS_VERSION, arg=[str(now["version"]), now["status"]])
        self.check_page()

    def reload(self) -> None:
        self.page.reload()
        self.check_page()

    def second_tab(self) -> "Visitor":
        """Another tab of the same browser (same cookies, so the same signed-in person)."""
        tab = Visitor(None, self.site, f"{self.name} (second tab)", context=self.context)
        tab.scanners = self.scanners
        return tab

    # --- what every page must pass ------------------------------------------------------

    def check_page(self) -> None:
        """The page just loaded: console clean, accessible, nothing secret received."""
        self.page.wait_for_load_state("load")
        # A live refresh under way (static/js/table.js) is waited for: the page is read
        # as it settles, not halfway through a swap.
        self.page.wait_for_function(SETTLED)
        errors, self.console_errors = self.console_errors, []
        assert not errors, redact_text(f"{self.name}: console errors on {self.where}: {errors}")
        self.assert_no_csp_violation()
        self.scan_responses()
        # The page as the browser shows it now, whatever its scripts have added to it.
        for scan in self.scanners:
            scan(self.page.url, self.page.content(), "text/html")
        self.check_accessibility()

    def assert_no_csp_violation(self) -> None:
        """Nothing the Content-Security-Policy refused since the last check."""
        violations, self.csp_violations = self.csp_violations, []
        assert not violations, redact_text(f"{self.name}: CSP violations: {violations}")

    def scan_responses(self) -> None:
        """Hand every document and fragment received since the last check to the scanners."""
        from playwright.sync_api import Error as PlaywrightError

        responses, self._responses = self._responses, []
        for response in responses:
            kind = response.headers.get("content-type", "")
            if not kind.startswith(("text/html", "application/json", "text/plain")):
                continue
            assert response.status < 500, redact_text(
                f"{self.name}: {response.status} from {response.url}"
            )
            if 300 <= response.status < 400:
                continue  # a redirect's body is empty; the page it leads to is scanned
            try:
                body = response.text()
            except PlaywrightError:  # the body of a page already replaced is gone: not received
                continue
            for scan in self.scanners:
                scan(response.url, body, kind)

    def page_kind(self) -> str:
        """What kind of page this is, for checking each kind with axe once (``axe_checked``):
        its language, screen width and colour scheme, the path with ids and tokens
        generalised, the game and the table's status where it shows one, the move forms it
        offers and whether it shows an alert."""
        path = self.page.url.removeprefix(self.site.url).split("?")[0]
        path = re.sub(r"[0-9a-f]{8}-[0-9a-f-]{27}", "<id>", path)
        path = re.sub(r"/(enter|invitations|login)/[^/]+/", r"/\1/<token>/", path)
        return self.page.evaluate(PAGE_KIND, path)

    def check_accessibility(self, *, force: bool = False) -> None:
        """axe-core on this page: no serious or critical violation (once per page kind,
        ``axe_checked``: a run takes a second, and a whole game shows the same few kinds a
        hundred times); ``force`` checks it whatever was checked before."""
        kind = self.page_kind()
        if kind in self.site.axe_checked and not force:
            return
        self.site.axe_checked.add(kind)
        from axe_playwright_python.sync_playwright import Axe

        results = Axe().run(self.page)
        failing = [
            f"{v['id']} ({v['impact']}): {v['help']} at "
            + ", ".join(str(node["target"]) for node in v["nodes"][:3])
            for v in results.response["violations"]
            if v["impact"] in FAILING_IMPACTS
        ]
        assert not failing, f"{self.name}: axe on {self.where} ({kind}): {failing}"

    def assert_no_horizontal_scroll(self) -> None:
        width, inner = self.page.evaluate(
            "[document.documentElement.scrollWidth, window.innerWidth]"
        )
        assert width <= inner, f"{self.name}: {self.where} scrolls sideways ({width} > {inner})"

    def screenshot(self, name: str) -> Path:
        """The whole page as ``var/screenshots/<name>.png`` (not committed; see docs/testing.md)."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def visitors(browser, site) -> Iterator[Callable[..., Visitor]]:
    """Make ``Visitor``s: ``visitors("Anna")``, ``visitors("Bert", viewport=PHONE, locale="de")``.

    Each gets a fresh browser context; all are closed after the test.
    """
    made: list[Visitor] = []

    def make(name: str, **options) -> Visitor:
        visitor = Visitor(browser, site, name, **options)
        made.append(visitor)
        return visitor

    yield make
    for visitor in made:
        visitor.close()
    # Refusals after a visitor's last checked page (a script run by a click, a late image).
    for visitor in made:
        visitor.assert_no_csp_violation()


def a_game_id(url: str) -> uuid.UUID:
    """The game id in a page's URL (``/games/<id>/...``)."""
    found = re.search(r"/games/([0-9a-f-]{36})/", url)
    assert found, redact_text(url)
    return uuid.UUID(found.group(1))
