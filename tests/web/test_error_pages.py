"""With DEBUG off, 404, 403 and 500 are the site's own pages (its header, a way back), in the
reader's language; under /api/ errors stay JSON."""

import pytest
from django.core.exceptions import PermissionDenied
from django.template.loader import get_template
from django.test import Client
from django.urls import path, reverse
from django.utils import translation

from piratz_site import urls as site_urls
from tests.factories import start_game
from tests.po_catalog import GERMAN_PO, english_left_in, read_po


def _forbidden(request):
    raise PermissionDenied("a reason that is not for players")


def _broken(request):
    raise RuntimeError("a bug")


# The site's URLs plus two views that fail on purpose (ROOT_URLCONF is overridden below).
urlpatterns = [
    path("test-errors/forbidden/", _forbidden),
    path("test-errors/broken/", _broken),
    *site_urls.urlpatterns,
]


@pytest.fixture(autouse=True)
def _production(settings):
    settings.DEBUG = False


def site_page(response) -> str:
    """The page, checked to be drawn in the site's layout with the way home and to my games."""
    page = response.content.decode()
    assert response["Content-Type"].startswith("text/html")
    assert 'class="site-header"' in page
    main = page[page.index("<main>") : page.index("</main>")]
    assert 'href="/games/"' in main and 'href="/"' in main
    return page


def german(msgid: str) -> str:
    with translation.override("de"):
        return translation.gettext(msgid)


# --- 404 ------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True])
def test_an_unknown_page_is_the_sites_404(client, anna, signed_in):
    if signed_in:
        client.force_login(anna)
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = site_page(response)
    assert "Page not found" in page
    assert "<h1>Not Found</h1>" not in page  # Django's bare default


@pytest.mark.django_db
def test_a_game_you_are_not_in_is_the_sites_404_without_the_reason(client, anna, bert, outsider):
    game = start_game([anna, bert])
    client.force_login(outsider)
    for url in (reverse("games:game", args=[game.id]), reverse("games:replay", args=[game.id])):
        response = client.get(url)
        assert response.status_code == 404, url
        page = site_page(response)
        assert "Page not found" in page
        assert "not a player of it" not in page  # the Http404's English message stays out


@pytest.mark.django_db
def test_the_404_is_german_for_a_german_browser(client):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    assert response["Content-Language"] == "de"
    page = site_page(response)
    assert '<html lang="de">' in page and "Meine Spiele" in page
    assert german("Page not found") in page
    assert english_left_in(page, read_po(GERMAN_PO)) == []


@pytest.mark.django_db
def test_the_404_follows_a_signed_in_players_language(client, anna, bert, outsider):
    game = start_game([anna, bert])
    outsider.language = "de"
    outsider.save(update_fields=["language"])
    client.force_login(outsider)
    response = client.get(reverse("games:game", args=[game.id]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert response["Content-Language"] == "de"
    assert german("Page not found") in site_page(response)


# --- The API keeps its JSON -----------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/nothing-here/", "/api/games/not-a-uuid/", "/api/"])
def test_api_paths_still_answer_json_errors(client, url):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code in (401, 404)
    assert response["Content-Type"].startswith("application/json")
    assert "code" in response.json()


@pytest.mark.django_db
def test_an_unknown_api_path_is_json_404(client):
    response = client.get("/api/no/such/thing/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found"


# --- 403 and 500 ----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_a_refusal_is_the_sites_403_without_the_reason(client):
    response = client.get("/test-errors/forbidden/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 403
    page = site_page(response)
    assert german("Not allowed") in page
    assert "a reason that is not for players" not in page


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_a_bug_is_the_sites_500(anna):
    client = Client(raise_request_exception=False)
    client.force_login(anna)
    response = client.get("/test-errors/broken/")
    assert response.status_code == 500
    page = site_page(response)
    assert "Something went wrong" in page
    assert "a bug" not in page and "Traceback" not in page


def test_the_500_page_renders_with_an_empty_context():
    """Django renders 500.html with no request and no context processors: no user, no
    session, no database. (No django_db mark: a query here would fail the test.)"""
    page = get_template("500.html").render({})
    assert "Something went wrong" in page
    assert 'class="site-header"' in page
    assert 'href="/static/css/site.css"' in page or "css/site.css" in page
    assert 'href="/games/"' in page and 'href="/"' in page
    # The language switch's form needs a CSRF token and the request's path: left out.
    assert "csrfmiddlewaretoken" not in page and "language-switch" not in page


def test_the_500_page_speaks_the_active_language():
    with translation.override("de"):
        page = get_template("500.html").render({})
    assert '<html lang="de">' in page and "Meine Spiele" in page
    assert german("Something went wrong") in page


@pytest.mark.django_db
def test_a_refused_form_under_api_stays_json(anna):
    """DRF checks the CSRF token of session-signed API calls itself: its JSON error, not
    the site's page for a refused form."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(anna)
    response = client.post("/api/reports/", {"reason": "spam"})
    assert response.status_code == 403
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "permission_denied"
