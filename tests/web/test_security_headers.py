"""A strict Content-Security-Policy and a Permissions-Policy on every page, and templates
that need no exception to them: no inline script, style or on*= handler anywhere."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import start_game

pytestmark = pytest.mark.django_db

# Directives as the browser must receive them: only this site's files run or style a page.
STRICT_DIRECTIVES = {
    "default-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
}
DENIED_FEATURES = ("camera", "microphone", "geolocation", "payment", "usb")


def directives(header: str) -> dict[str, str]:
    """``Content-Security-Policy`` as {directive: its sources}."""
    parts = (part.strip().split(" ", 1) for part in header.split(";") if part.strip())
    return {part[0]: part[1] if len(part) > 1 else "" for part in parts}


def assert_strict_headers(response, path: str) -> None:
    assert response.status_code == 200, (path, response.status_code)
    policy = directives(response.headers.get("Content-Security-Policy", ""))
    for name, sources in STRICT_DIRECTIVES.items():
        assert policy.get(name) == sources, (path, name, policy)
    # Only this site's files: no 'unsafe-inline', no nonce, no hash, no other host.
    assert policy.get("script-src") == policy.get("style-src") == "'self'", (path, policy)
    permissions = response.headers.get("Permissions-Policy", "")
    for feature in DENIED_FEATURES:
        assert f"{feature}=()" in permissions, (path, feature, permissions)


@pytest.fixture
def signed_in(anna):
    client = Client()
    client.force_login(anna)
    return client


def test_the_players_pages_send_csp_and_permissions_policy(anna, bert, signed_in):
    game = start_game([anna, bert])
    pages = [
        "/",
        "/games/",  # my games, the lobby
        f"/games/{game.id}/",  # the table
        f"/games/{game.id}/replay/",
        "/settings/",
    ]
    for path in pages:
        assert_strict_headers(signed_in.get(path), path)


def test_the_public_pages_send_csp_and_permissions_policy(client):
    for path in ["/accounts/login/", "/admin/login/", "/api/docs/"]:
        assert_strict_headers(client.get(path), path)


def test_the_admin_sends_the_same_policy(moderator_client):
    for path in ["/admin/", "/admin/accounts/user/", "/admin/games/game/"]:
        assert_strict_headers(moderator_client.get(path), path)


def test_every_admin_change_list_has_actions_so_needs_no_inline_style():
    """Django's change list adds an inline <style> (allowed only by a nonce, which the
    policy does not give) when a ModelAdmin shows no actions bar: none may do that."""
    from django.apps import apps
    from django.contrib import admin

    registered = [
        admin.site.get_model_admin(m) for m in apps.get_models() if admin.site.is_registered(m)
    ]
    assert len(registered) > 5
    bare = [
        type(model_admin).__name__
        for model_admin in registered
        if not model_admin.actions_on_top and not model_admin.actions_on_bottom
    ]
    assert not bare, bare


def test_the_api_docs_start_up_script_is_a_file_not_inline(client):
    page = client.get("/api/docs/").content.decode()
    sources = re.findall(r'<script src="([^"]+)"', page)
    assert any("script" in source.split("?", 1)[-1] for source in sources), sources
    assert not re.search(r"<script>", page)
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script.headers["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle(" in script.content


# --- The templates: nothing a strict CSP would refuse ----------------------------------------

ROOT = Path(settings.BASE_DIR)
# Emails are read in mail clients, where no CSP applies and inline style is the norm.
EXEMPT = ("templates/emails/",)
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>")
INLINE_STYLE = re.compile(r"<style\b|\sstyle\s*=", re.IGNORECASE)
HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)
JAVASCRIPT_URL = re.compile(r"(href|src|action)\s*=\s*[\"']?\s*javascript:", re.IGNORECASE)


def served_templates() -> list[Path]:
    found = sorted(ROOT.glob("templates/**/*.html")) + sorted(ROOT.glob("*/templates/**/*.html"))
    # Each game's app: its pages (its email parts, like templates/emails/, are exempt).
    found += sorted(ROOT.glob("games/kinds/*/templates/games/**/*.html"))
    return [
        path
        for path in found
        if not str(path.relative_to(ROOT)).startswith(EXEMPT) and ".venv" not in path.parts
    ]


def test_the_template_scan_finds_the_templates():
    names = {str(path.relative_to(ROOT)) for path in served_templates()}
    assert "templates/base.html" in names and "templates/games/game.html" in names
    assert "audit/templates/admin/audit/confirm.html" in names


@pytest.mark.parametrize(
    ("pattern", "what"),
    [
        (INLINE_SCRIPT, "an inline <script> (json_script's application/json is data)"),
        (INLINE_STYLE, "an inline <style> or style attribute (use a class in static/css)"),
        (HANDLER, "an on*= handler attribute (add a listener in static/js)"),
        (JAVASCRIPT_URL, "a javascript: URL"),
    ],
)
def test_no_template_has_what_the_csp_refuses(pattern, what):
    offenders = [
        f"{path.relative_to(ROOT)}:{text[: found.start()].count(chr(10)) + 1}"
        for path in served_templates()
        for text in [path.read_text()]
        for found in pattern.finditer(text)
    ]
    assert not offenders, f"{what}: {offenders}"
