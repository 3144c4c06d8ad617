"""English and German: the language switch, who reads which language, and a German catalog
that covers every user-visible string of every template (and that the .mo is its build)."""

import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType
from django.urls import reverse

from accounts.models import User
from games import actions
from games.invitation_links import invitation_token
from tests.factories import sign_in_verified, start_game
from tests.po_catalog import GERMAN_PO, english_left_in, read_po

BASE = Path(settings.BASE_DIR)
# Every template a person reads: the site's and each app's. The Django admin's own
# templates are Django's (translated by Django); ours under templates/admin/ are checked.
TEMPLATE_DIRS = [
    BASE / "templates",
    *sorted(BASE.glob("*/templates")),
    *sorted(BASE.glob("games/kinds/*/templates")),  # each game is an app of its own
]
# Words that read the same in every language of the site.
SAME_IN_EVERY_LANGUAGE = {"Piratz", "UTC", "API", "OK"}
# Attributes whose value a person reads or hears (a screen reader speaks aria-label).
VISIBLE_ATTRIBUTES = ("alt", "title", "placeholder", "aria-label", "aria-description", "label")


@pytest.fixture(scope="module")
def catalog():
    return read_po(GERMAN_PO)


# --- The catalog and its build ------------------------------------------------------------------


def test_every_german_msgstr_is_there_and_not_fuzzy(catalog):
    header, *entries = catalog
    assert header.msgid == "" and "Language: de" in header.msgstr[0]
    assert not header.fuzzy, "the header is still makemessages' fuzzy template"
    untranslated = [e.msgid for e in entries if e.untranslated]
    fuzzy = [e.msgid for e in entries if e.fuzzy]
    assert untranslated == [], "German missing (run makemessages, translate)"
    assert fuzzy == [], "fuzzy entries are guesses by msgmerge: check and unflag them"


def test_every_translation_keeps_the_placeholders_of_its_msgid(catalog):
    placeholder = re.compile(r"%\(\w+\)[sdr]|\{\w+\}")
    wrong = []
    for entry in catalog[1:]:
        wanted = sorted(placeholder.findall(entry.msgid_plural or entry.msgid))
        for text in entry.msgstr:
            if sorted(set(placeholder.findall(text))) != sorted(set(wanted)):
                wrong.append((entry.msgid, text))
    assert wrong == []


def test_the_committed_mo_is_the_build_of_the_po(catalog):
    """The .mo is committed so that a fresh machine needs no gettext tools (docs/players.md
    "Languages: English and German"); this fails when the .po was changed without
    `compilemessages`."""
    mo_path = GERMAN_PO.with_suffix(".mo")
    assert mo_path.exists(), "run: manage.py compilemessages -l de --ignore=.venv"
    with mo_path.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)._catalog
    expected = {}
    for entry in catalog:
        if entry.msgid == "":  # msgfmt leaves this header line out of the .mo
            entry.msgstr = [re.sub(r"POT-Creation-Date: [^\n]*\n", "", entry.msgstr[0])]
        if entry.msgid_plural is None:
            expected[entry.key] = entry.msgstr[0]
        else:
            for form, text in enumerate(entry.msgstr):
                expected[(entry.key, form)] = text
    assert compiled == expected, "the .mo is stale: run manage.py compilemessages -l de"


# --- Every string marked for translation has its German ---------------------------------------

_LITERAL = r"""u?(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
_TEMPLATE_CALL = re.compile(
    rf"\b(npgettext|pgettext|ngettext|gettext|_)\((\s*{_LITERAL}(?:\s*,\s*{_LITERAL})*)"
)
_PYTHON_GETTEXT = {
    "_": 0, "gettext": 0, "gettext_lazy": 0, "gettext_noop": 0, "ngettext": 0,
    "ngettext_lazy": 0, "pgettext": 1, "pgettext_lazy": 1, "npgettext": 1, "npgettext_lazy": 1,
}  # fmt: skip


def marked_strings() -> set[tuple[str | None, str]]:
    """(context, msgid) of every string the templates and the Python code mark for
    translation, found as ``makemessages`` finds them but without GNU gettext."""
    import ast

    from django.utils.translation.template import templatize

    found = set()
    for folder in TEMPLATE_DIRS:
        for path in folder.rglob("*"):
            if path.suffix not in (".html", ".txt"):
                continue
            for name, args in _TEMPLATE_CALL.findall(templatize(path.read_text(), origin=path)):
                texts = [ast.literal_eval(t.lstrip("u")) for t in re.findall(_LITERAL, args)]
                context = texts.pop(0) if name.startswith(("pgettext", "npgettext")) else None
                found.add((context, texts[0]))
    sources = [
        p
        for p in BASE.rglob("*.py")
        if p.relative_to(BASE).parts[0] not in (".venv", "var", "tests", "bench")
        and "migrations" not in p.parts
    ]
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            has_context = _PYTHON_GETTEXT.get(node.func.id)
            if has_context is None or len(node.args) <= has_context:
                continue
            texts = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
            if not isinstance(texts[has_context], str):
                continue  # a variable: its literal is marked where it is defined
            found.add((texts[0] if has_context else None, texts[has_context]))
    return found


def _django_translates(context: str | None, msgid: str) -> bool:
    # A template overriding one of Django's own (the admin's login page) reuses its
    # msgids, which Django's German catalog translates.
    from django.utils import translation

    with translation.override("de"):
        text = translation.pgettext(context, msgid) if context else translation.gettext(msgid)
    return text != msgid


def test_every_string_marked_for_translation_has_german(catalog):
    translated = {(e.msgctxt, e.msgid) for e in catalog if not e.untranslated and not e.fuzzy}
    missing = sorted(
        (marked for marked in marked_strings() - translated if not _django_translates(*marked)),
        key=str,
    )
    assert missing == [], (
        "new strings without German: run makemessages -l de, translate, compilemessages "
        '(docs/players.md "Languages: English and German")'
    )


# --- Every template's visible text is wrapped for translation -----------------------------------


def template_files() -> list[Path]:
    files = []
    for folder in TEMPLATE_DIRS:
        files += [
            p
            for p in folder.rglob("*")
            if p.suffix in (".html", ".txt")
            and not _staff_only(p.relative_to(folder))
            and not in_one_language(p)
        ]
    return sorted(files)


def in_one_language(path: Path) -> bool:
    """A body written whole in one language, ``name.<language>.html`` (the rules pages:
    games.views.rules says why), read only by readers of that language: nothing to wrap."""
    return len(path.suffixes) > 1 and path.suffixes[-2][1:] in dict(settings.LANGUAGES)


def _staff_only(path: Path) -> bool:
    # Moderators' admin screens (English, like the rest of the admin's texts we write) and
    # the DEBUG-only local mailbox are tools for staff and developers, not player pages.
    return path.parts[0] == "admin" or str(path) == "notifications/mailbox.html"


def untranslated_text(source: str, *, html: bool) -> list[str]:
    """The pieces of a template's own text a reader sees that no translate tag wraps.

    Template tags and variables count as wrapped (they are replaced by a marker);
    ``blocktranslate`` and ``comment`` blocks are dropped whole. In HTML, ``<script>``,
    ``<style>`` and comments are dropped, readable attributes are kept as text, and tags
    go. What is left may hold only punctuation, numbers, entities and markers.
    """
    kept, skipping = [], None
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents else ""
            if skipping is None and name in ("blocktranslate", "blocktrans", "comment"):
                skipping = "end" + name
            elif name == skipping:
                skipping = None
            kept.append("\x00")
        elif skipping is not None:
            continue
        elif token.token_type == TokenType.TEXT:
            kept.append(token.contents)
        else:  # variables and {# comments #}
            kept.append("\x00")
    text = "".join(kept)
    if html:
        text = re.sub(r"(?is)<(script|style)\b.*?</\1>|<!--.*?-->", " ", text)
        attributes = "|".join(VISIBLE_ATTRIBUTES)
        readable = re.findall(rf'(?i)\s(?:{attributes})="([^"]*)"', text)
        text = re.sub(r"<[^>]*>", "\x00", text) + "\x00" + "\x00".join(readable)
        text = re.sub(r"&[#\w]+;", " ", text)
    pieces = []
    for piece in re.split(r"\x00|\n", text):
        words = [w for w in re.findall(r"[^\W\d_]+", piece) if w not in SAME_IN_EVERY_LANGUAGE]
        if words:
            pieces.append(piece.strip())
    return pieces


@pytest.mark.parametrize(
    "path", template_files(), ids=lambda p: str(p.relative_to(BASE)).replace("/", ":")
)
def test_template_text_is_all_wrapped_for_translation(path):
    source = path.read_text(encoding="utf-8")
    assert untranslated_text(source, html=path.suffix == ".html") == []


def test_the_scan_finds_text_outside_translate_tags():
    page = (
        '{% load i18n %}<h1>{% translate "Hello" %}</h1><p>Forgotten text</p>'
        '<img alt="A card"><button aria-label="{% translate "Close" %}">&times;</button>'
        "{% blocktranslate %}Wrapped {{ name }}{% endblocktranslate %} 3 · {{ count }}"
        "<style>body { color: red; }</style>"
    )
    assert untranslated_text(page, html=True) == ["Forgotten text", "A card"]
    assert untranslated_text("{% translate 'Hi' %}: {{ x }}\nPlain line", html=False) == [
        "Plain line"
    ]


# --- Which language a person reads ---------------------------------------------------------------


@pytest.mark.django_db
def test_accept_language_picks_german_and_the_page_says_so(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="de-AT,de;q=0.9,en;q=0.5")
    assert page["Content-Language"] == "de"
    assert '<html lang="de">' in page.content.decode()
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="fr,en;q=0.5")
    assert english["Content-Language"] == "en"


@pytest.mark.django_db
def test_the_switch_stores_the_choice_and_returns_to_the_page(client):
    response = client.post(reverse("set_language"), {"language": "de", "next": "/accounts/login/"})
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en")
    assert page["Content-Language"] == "de"
    # The switch itself is on the page, with the current language selected.
    assert 'action="/i18n/setlang/"' in page.content.decode()
    assert '<option value="de" lang="de" selected>Deutsch</option>' in page.content.decode()


@pytest.mark.django_db
def test_the_switch_refuses_to_send_the_reader_off_site(client):
    response = client.post(
        reverse("set_language"), {"language": "de", "next": "https://evil.example/"}
    )
    assert response.status_code == 302 and "evil.example" not in response["Location"]


@pytest.mark.django_db
def test_a_signed_in_players_switch_becomes_their_setting(client, anna):
    sign_in_verified(client, anna)
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    anna.refresh_from_db()
    assert anna.language == "de"
    # In another browser with English preferred, once signed in, her setting wins.
    other = type(client)()
    sign_in_verified(other, anna)
    assert other.get("/", HTTP_ACCEPT_LANGUAGE="en")["Content-Language"] == "de"


@pytest.mark.django_db
def test_an_unknown_language_changes_nothing(client, anna):
    sign_in_verified(client, anna)
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    anna.refresh_from_db()
    assert anna.language == ""


# --- Every page in German shows no English from the catalog -------------------------------------


@pytest.mark.django_db
def test_pages_rendered_in_german_have_no_english_left(client, anna, bert, catalog):
    User.objects.filter(pk__in=[anna.pk, bert.pk]).update(language="de")
    game = start_game([anna, bert])
    actions.do_play_move(game.id, anna, 0, {"action": "reveal"})  # the log has a move
    invited = actions.do_create_game(anna, [anna.email, "nina@example.com"])
    token = invitation_token(invited, invited.seats.get(seat=1))
    anonymous = ["/", "/accounts/login/", reverse("games:invitation", args=[token])]
    sign_in_verified(client, anna)
    signed_in = ["/", f"/games/{game.id}/", "/games/", "/settings/", f"/games/{game.id}/replay/"]
    checked = 0
    for path in anonymous:
        page = type(client)().get(path, HTTP_ACCEPT_LANGUAGE="de")
        assert page.status_code == 200, path
        assert english_left_in(page.content.decode(), catalog) == [], path
        checked += 1
    for path in signed_in:
        page = client.get(path)
        assert page.status_code == 200, path
        assert page["Content-Language"] == "de", path
        assert english_left_in(page.content.decode(), catalog) == [], path
        checked += 1
    assert checked == len(anonymous) + len(signed_in)
