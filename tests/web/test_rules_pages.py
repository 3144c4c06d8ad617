"""The rules pages (/rules/<game>/, issue 25): public, in English and German, every rule id
of docs/rules/ an anchor, worked examples that say what the engine does, and the links to
them from the table, the create form and the turn email."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games.catalogue import GameSpec, spec_for
from games.kinds.piratz.rules_page import example_result
from games.kinds.rattenscharf.rules_page import example_views
from games.views.rules import rules_path
from notifications.models import OutboundEmail
from tests.factories import sign_in_verified, start_game

pytestmark = pytest.mark.django_db

RULES_DOCS = Path(settings.BASE_DIR) / "docs" / "rules"
GAMES = {"piratz": "P", "rattenscharf": "R"}


def rule_ids(kind: str) -> list[str]:
    """The ids the game's rules document anchors (``<a id="P12">``): the ids code cites."""
    prefix = GAMES[kind]
    ids = re.findall(rf'<a id="({prefix}\d+)"></a>', (RULES_DOCS / f"{kind}.md").read_text())
    assert ids, f"no rule ids in docs/rules/{kind}.md"
    return ids


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.ids += [value for name, value in attrs if name == "id" and value]


def element_ids(html: str) -> list[str]:
    parser = _Ids()
    parser.feed(html)
    return parser.ids


def read(kind: str, language: str) -> str:
    """The rules page as an anonymous visitor whose browser asks for ``language``."""
    page = Client().get(f"/rules/{kind}/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    assert page["Content-Language"] == language
    return page.content.decode()


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("kind", list(GAMES))
def test_every_rule_id_is_an_anchor_on_the_page(kind, language):
    ids = element_ids(read(kind, language))
    wanted = rule_ids(kind)
    assert [i for i in wanted if i not in ids] == []
    assert len(ids) == len(set(ids)), "an id twice on one page"
    # Each rule links to itself, so a reader can copy the link to one rule.
    body = read(kind, language)
    assert all(f'href="#{i}"' in body for i in wanted)


@pytest.mark.parametrize(
    ("kind", "english", "german"),
    [
        ("piratz", "Piratz: the rules", "Bei Rattenalarm musst du eine der beiden Ratten"),
        ("rattenscharf", "Rattenscharf: the rules", "Die Rattenprüfung: Am Ende deines Zugs"),
    ],
)
def test_the_german_page_is_german(kind, english, german):
    assert english in read(kind, "en") and german not in read(kind, "en")
    page = read(kind, "de")
    assert german in page and english not in page
    assert '<html lang="de">' in page


def test_the_site_switch_chooses_the_language(client):
    """The site's language switch (its cookie) beats the browser's Accept-Language."""
    client.post("/i18n/setlang/", {"language": "de", "next": "/rules/piratz/"})
    page = client.get("/rules/piratz/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Piratz: die Regeln" in page


def test_the_pages_are_drawn_with_the_tables_own_cards_and_strips():
    piratz = read("piratz", "en")
    assert 'id="piratz-rings"' in piratz  # the table's symbols, once
    assert piratz.count('class="piratz-card') >= 3 + 3 + 11  # two rows, three collections
    assert 'data-card="32"' in piratz and 'data-treasure-row="pearls"' in piratz
    rattenscharf = read("rattenscharf", "en")
    assert 'class="rs-strip"' in rattenscharf and 'data-strip="41"' in rattenscharf
    assert rattenscharf.count("data-board ") == 2 and "data-last-scoring" in rattenscharf


def test_the_piratz_example_says_what_the_engine_scores():
    """The page's prose states the outcome; the engine must agree (P20-P22)."""
    result = example_result()
    assert [p["score"] for p in result["players"]] == [8, 5, 6]
    assert result["winners"] == [0]
    assert result["awards"]["shells"] == [{"seat": 0, "value": 3}]  # the full tie stops the 2
    assert result["awards"]["pearls"][0] == {"seat": 0, "value": 4}  # won on rats
    assert "Anna ends with 8 points (4 + 1 + 3), Cleo with 6 (2 + 4) and Ben with 5" in read(
        "piratz", "en"
    )


def test_the_rattenscharf_example_is_the_box_example():
    before, after = example_views()
    assert before["scores"] == [1, 1] and after["scores"] == [3, 2]
    assert sorted((e["spice"], e["points"]) for e in after["last_scoring"]) == [
        ("green:jalapeno", 1),
        ("red:paprika", 2),
    ]
    assert "Red now leads 3 to 2." in read("rattenscharf", "en")


def test_a_game_without_a_rules_page_has_none_and_no_links(settings):
    assert rules_path("piratz") == "/rules/piratz/"
    assert rules_path("chess") == ""
    assert Client().get("/rules/chess/").status_code == 404
    bare = GameSpec(kind="piratz", rules=spec_for("piratz").rules)
    settings.GAME_PACKAGES = ["tests.web.test_rules_pages"]
    globals()["SPEC"] = bare  # this module stands in for a game package without a page
    try:
        assert Client().get("/rules/piratz/").status_code == 404
        assert rules_path("piratz") == ""
    finally:
        del globals()["SPEC"]


def test_the_table_links_to_the_rules(anna, bert):
    game = start_game([anna, bert])
    client = Client()
    sign_in_verified(client, anna)
    page = client.get(f"/games/{game.id}/").content.decode()
    assert '<a href="/rules/piratz/" data-rules-link>Rules of Piratz</a>' in page


def test_the_create_form_links_to_each_games_rules(anna):
    client = Client()
    sign_in_verified(client, anna)
    page = client.get("/games/").content.decode()
    for kind in GAMES:
        assert f'<a href="/rules/{kind}/" data-rules-link>' in page


def test_the_turn_email_links_to_the_rules(anna, bert):
    start_game([anna, bert])
    mail = OutboundEmail.objects.filter(template="your_turn", to=anna.email).get().rendered()
    url = f"{settings.SITE_URL}/rules/piratz/"
    assert f"The rules of Piratz: {url}" in mail.body_text
    assert f'href="{url}"' in mail.body_html
