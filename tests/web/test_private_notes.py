"""The table's "My notes" panel (issue 34): a player's private notes, shown to them alone
and saved by a plain form (the API's own tests: tests/api/test_game_notes_api.py)."""

import pytest
from django.test import Client
from django.urls import reverse

from games.actions.notes import do_save_game_note
from games.models import GameNote
from tests.web.game_links import entry_path, site_url  # noqa: F401  (site_url: autouse)

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def table(game) -> str:
    return reverse("games:game", args=[game.id])


def notes_form(game) -> str:
    return reverse("games:notes", args=[game.id])


def test_the_panel_shows_the_readers_own_notes_only(game, anna, bert, moderator):
    do_save_game_note(game.id, anna, "Bert <b>hoards</b> pearls.")
    annas = signed_in(anna).get(table(game)).content.decode()
    assert 'id="my-notes"' in annas and f'action="{notes_form(game)}"' in annas
    assert "Bert &lt;b&gt;hoards&lt;/b&gt; pearls.</textarea>" in annas  # escaped
    assert "Saved " in annas
    berts = signed_in(bert).get(table(game)).content.decode()
    assert 'id="my-notes"' in berts and "hoards" not in berts
    # Staff may see the table, not anyone's notes, and have no panel of their own.
    staff = signed_in(moderator).get(table(game)).content.decode()
    assert 'id="my-notes"' not in staff and "hoards" not in staff


def test_the_form_saves_without_javascript(game, anna):
    response = signed_in(anna).post(notes_form(game), {"notes": "Watch Carla.\r\n"}, follow=True)
    assert response.redirect_chain == [(table(game) + "#my-notes", 302)]
    assert "Your notes are saved." in response.content.decode()
    assert "Watch Carla.</textarea>" in response.content.decode()
    assert GameNote.objects.get(user=anna).text == "Watch Carla."


def test_the_script_gets_the_outcome_as_json(game, anna):
    client = signed_in(anna)
    saved = client.post(notes_form(game), {"notes": " Mine. "}, HTTP_ACCEPT="application/json")
    assert saved.json() == {"text": "Mine.", "detail": "Your notes are saved."}
    emptied = client.post(notes_form(game), {"notes": ""}, HTTP_ACCEPT="application/json")
    assert emptied.json() == {"text": "", "detail": "Your notes are deleted."}
    assert not GameNote.objects.exists()
    refused = client.post(notes_form(game), {"notes": "\x07"}, HTTP_ACCEPT="application/json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"


def test_too_long_notes_are_refused_with_the_limit(game, anna):
    do_save_game_note(game.id, anna, "Kept.")
    long = "z" * (GameNote.MAX_LENGTH + 1)
    response = signed_in(anna).post(notes_form(game), {"notes": long}, follow=True)
    assert "A note can be at most 10000 characters; this one has 10001." in (
        response.content.decode()
    )
    assert GameNote.objects.get().text == "Kept."


def test_nobody_else_may_save_notes_on_the_game(game, outsider, moderator):
    for user in (outsider, moderator):
        assert signed_in(user).post(notes_form(game), {"notes": "x"}).status_code == 404
    anonymous = Client().post(notes_form(game), {"notes": "x"})
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert not GameNote.objects.exists()


def test_a_game_links_session_sees_and_saves_no_notes(game, bert):
    # A game email's link may have been forwarded: it plays the game, it is not Bert.
    do_save_game_note(game.id, bert, "Bert plans a rat alert.")
    client = Client()
    client.post(entry_path(game, bert))
    page = client.get(table(game)).content.decode()
    assert "rat alert" not in page and "sign in with a login link" in page
    response = client.post(notes_form(game), {"notes": "overwritten"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert GameNote.objects.get().text == "Bert plans a rat alert."
