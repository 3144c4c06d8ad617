"""``/api/games/{id}/notes/``: a player's private notes on a game (issue 34). Only their
writer reads them: not the other players, not staff, not outsiders."""

import uuid

import pytest

from accounts import erasure
from accounts.personal_data import export_files
from core.errors import ServiceError
from games.actions.notes import do_save_game_note
from games.models import GameNote
from tests.concurrency import at_once
from tests.factories import client_for, start_toy_game


def notes_url(game_id) -> str:
    return f"/api/games/{game_id}/notes/"


def test_a_player_saves_reads_and_deletes_their_notes(toy_game, anna):
    api = client_for(anna)
    assert api.get(notes_url(toy_game.id)).json() == {"text": "", "updated_at": None}

    saved = api.put(
        notes_url(toy_game.id), {"text": "  Bert hoards pearls.\r\nWatch him.  "}, format="json"
    )
    assert saved.status_code == 200, saved.content
    assert saved.json()["text"] == "Bert hoards pearls.\nWatch him."  # cleaned: core.text
    assert saved.json()["updated_at"]
    assert api.get(notes_url(toy_game.id)).json() == saved.json()

    replaced = api.put(notes_url(toy_game.id), {"text": "Only this."}, format="json").json()
    assert replaced["text"] == "Only this." and GameNote.objects.count() == 1

    assert api.delete(notes_url(toy_game.id)).status_code == 204
    assert api.get(notes_url(toy_game.id)).json() == {"text": "", "updated_at": None}
    assert api.delete(notes_url(toy_game.id)).status_code == 204  # none: nothing to do


def test_saving_empty_text_deletes_the_notes(toy_game, anna):
    do_save_game_note(toy_game.id, anna, "Something.")
    answer = client_for(anna).put(notes_url(toy_game.id), {"text": "   "}, format="json")
    assert answer.json() == {"text": "", "updated_at": None}
    assert not GameNote.objects.exists()


def test_nobody_else_reads_or_writes_a_players_notes(toy_game, anna, bert, outsider, moderator):
    do_save_game_note(toy_game.id, anna, "My secret plan.")
    # Another player of the game reads their own (none), never Anna's.
    assert client_for(bert).get(notes_url(toy_game.id)).json()["text"] == ""
    # An outsider: as for a missing game. Staff may see the game, but notes are private.
    for user, status, code in [(outsider, 404, "not_found"), (moderator, 403, "not_a_player")]:
        api = client_for(user)
        for answer in (
            api.get(notes_url(toy_game.id)),
            api.put(notes_url(toy_game.id), {"text": "mine now"}, format="json"),
            api.delete(notes_url(toy_game.id)),
        ):
            assert answer.status_code == status, answer.content
            assert answer.json()["code"] == code
            assert "secret" not in answer.content.decode()
    assert client_for(None).get(notes_url(toy_game.id)).status_code == 401
    assert client_for(anna).get(notes_url(uuid.uuid4())).status_code == 404
    assert GameNote.objects.get().text == "My secret plan."


@pytest.mark.parametrize(
    "body",
    [{"text": "x" * (GameNote.MAX_LENGTH + 1)}, {"text": "bell\x07"}, {"text": 5}, {"note": "a"}],
)
def test_a_refused_note_changes_nothing(toy_game, anna, body):
    do_save_game_note(toy_game.id, anna, "Kept.")
    answer = client_for(anna).put(notes_url(toy_game.id), body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "invalid"
    assert GameNote.objects.get().text == "Kept."


def test_the_length_limit_says_what_it_is(toy_game, anna):
    with pytest.raises(ServiceError) as refused:
        do_save_game_note(toy_game.id, anna, "y" * (GameNote.MAX_LENGTH + 1))
    assert refused.value.code == "invalid"
    assert refused.value.detail == "A note can be at most 10000 characters; this one has 10001."


def test_notes_are_in_the_export_and_go_with_the_account(toy_game, anna, bert):
    do_save_game_note(toy_game.id, anna, "Anna's notes.")
    do_save_game_note(toy_game.id, bert, "Bert's notes.")
    [entry] = export_files(anna)["games.json"]
    assert entry["notes"]["text"] == "Anna's notes."
    assert "Bert's notes." not in str(export_files(anna))
    erasure.erase_user(anna.pk)
    assert list(GameNote.objects.values_list("text", flat=True)) == ["Bert's notes."]


@pytest.mark.postgres("two saves at once: the upsert on the unique writer keeps one row")
@pytest.mark.django_db(transaction=True)
def test_two_saves_at_once_leave_one_note(toy_games, anna, bert):
    game = start_toy_game([anna, bert])
    at_once([lambda text=text: do_save_game_note(game.id, anna, text) for text in ("a", "b")])
    assert GameNote.objects.get(user=anna).text in ("a", "b")
