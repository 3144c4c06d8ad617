"""Moderators in the admin: find games, read the log, act through the service layer."""

import logging

import pytest

from games.models import Actor, GameStatus, Move
from tests.factories import start_game, start_toy_game, toy_move

pytestmark = pytest.mark.django_db


def test_changelist_finds_games_by_player_email(moderator_client, toy_game, bert, carla):
    other = start_toy_game([bert, carla])
    response = moderator_client.get("/admin/games/game/", {"q": "anna@example.com"})
    assert response.status_code == 200
    page = response.content.decode()
    assert str(toy_game.id) in page and str(other.id) not in page


def test_game_page_shows_the_log_but_never_the_secret_state(moderator_client, game, anna):
    # A Piratz game (through the catalogue, game.rules): its state holds a secret key (every
    # shuffle derives from it); the toy game has no secret to leak.
    from games import actions

    actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    game.refresh_from_db()
    response = moderator_client.get(f"/admin/games/game/{game.id}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "reveal" in page
    assert game.rules.dump(game.load_state())["key"] not in page


def moderate(client, action: str, games, *, reason="Player asked for a pause.", versions=None):
    """Run an admin action as a moderator does: ask, read the confirmation page, confirm.

    ``versions`` overrides the versions the page carried (by game), to play a game that
    moved on while the moderator was reading. Returns the response after confirming.
    """
    selected = [str(game.id) for game in games]
    page = client.post("/admin/games/game/", {"action": action, "_selected_action": selected})
    assert page.status_code == 200
    assert b'name="reason"' in page.content
    form = {"action": action, "_selected_action": selected, "confirm": "yes", "reason": reason}
    for game in games:
        shown = f'name="version_{game.id}" value="{game.version}"'
        assert shown.encode() in page.content
        form[f"version_{game.id}"] = str((versions or {}).get(game.id, game.version))
    return client.post("/admin/games/game/", form, follow=True)


@pytest.mark.parametrize(
    ("action", "check"),
    [
        ("force_automatic_move", lambda game: Move.objects.get(game=game).actor == Actor.MODERATOR),
        ("abort_games", lambda game: game.status == GameStatus.ABORTED),
        ("extend_deadline_24h", lambda game: game.deadline is not None),
    ],
)
def test_actions_go_through_the_services_and_log_the_reason(
    moderator_client, toy_game, action, check, caplog
):
    before = toy_game.deadline
    with caplog.at_level(logging.INFO, logger="games.actions.moderation"):
        response = moderate(moderator_client, action, [toy_game], reason="Bert asked\nfor it.")
    assert response.status_code == 200
    assert "Reason: Bert asked for it." in response.content.decode()
    assert "'Bert asked for it.'" in caplog.text
    toy_game.refresh_from_db()
    assert check(toy_game)
    if action == "extend_deadline_24h":
        assert (toy_game.deadline - before).total_seconds() == 24 * 3600


@pytest.mark.parametrize("action", ["force_automatic_move", "abort_games", "extend_deadline_24h"])
def test_an_action_without_a_reason_does_nothing_and_asks_again(moderator_client, toy_game, action):
    deadline = toy_game.deadline
    response = moderate(moderator_client, action, [toy_game], reason="  ")
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    toy_game.refresh_from_db()
    assert (toy_game.version, toy_game.status, toy_game.deadline) == (
        0,
        GameStatus.ACTIVE,
        deadline,
    )


@pytest.mark.parametrize("action", ["force_automatic_move", "abort_games", "extend_deadline_24h"])
def test_a_game_that_moved_since_the_moderator_looked_is_left_alone(
    moderator_client, toy_game, anna, action
):
    from games import actions

    # The page showed version 0; Anna moves before the moderator confirms.
    page_versions = {toy_game.id: 0}
    actions.do_play_move(toy_game.id, anna, 0, toy_move(toy_game))
    toy_game.refresh_from_db()
    deadline = toy_game.deadline

    response = moderate(moderator_client, action, [toy_game], versions=page_versions)

    page = response.content.decode()
    assert "moved on from version 0 to 1" in page and "nothing was done" in page
    toy_game.refresh_from_db()
    assert (toy_game.version, toy_game.status, toy_game.deadline) == (
        1,
        GameStatus.ACTIVE,
        deadline,
    )
    assert not Move.objects.filter(game=toy_game, actor=Actor.MODERATOR).exists()


def test_refused_action_is_reported_not_crashed(moderator_client, toy_game, moderator):
    from games import actions

    actions.do_abort_game(toy_game.id, moderator, reason="test")
    toy_game.refresh_from_db()
    response = moderate(moderator_client, "abort_games", [toy_game])
    assert "already aborted" in response.content.decode()


def test_game_rows_cannot_be_saved_added_or_deleted(moderator_client, toy_game):
    change = moderator_client.get(f"/admin/games/game/{toy_game.id}/change/")
    assert change.status_code == 200
    page = change.content.decode()
    assert 'name="_save"' not in page and 'name="_continue"' not in page

    saved = moderator_client.post(
        f"/admin/games/game/{toy_game.id}/change/", {"status": "finished", "version": "9"}
    )
    assert saved.status_code == 403
    toy_game.refresh_from_db()
    assert (toy_game.status, toy_game.version) == (GameStatus.ACTIVE, 0)
    assert moderator_client.get("/admin/games/game/add/").status_code == 403
    assert moderator_client.get(f"/admin/games/game/{toy_game.id}/delete/").status_code == 403


def test_players_cannot_use_the_admin(client, anna):
    client.force_login(anna)
    assert client.get("/admin/games/game/").status_code == 302


def test_a_rattenscharf_game_in_the_admin(moderator_client, moderator, anna, bert):
    """Its list row and page render (the log's placements and revealed hands, never the pile),
    and forcing the automatic move plays the whole turn (R34: one strip at turn 1)."""
    from games import actions
    from games.kinds.rattenscharf import rules as rattenscharf

    game = start_game([anna, bert], game="rattenscharf", seed=3)
    listed = moderator_client.get("/admin/games/game/", {"q": "anna@example.com"})
    assert listed.status_code == 200 and str(game.id) in listed.content.decode()
    response = moderate(moderator_client, "force_automatic_move", [game], reason="Away.")
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version == 1 and game.current_seat == 1
    assert Move.objects.get(game=game).actor == Actor.MODERATOR
    actions.do_abort_game(game.id, moderator, reason="test")
    page = moderator_client.get(f"/admin/games/game/{game.id}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "place" in text
    pile = rattenscharf.dump(rattenscharf.load(game.state))["pile"]
    assert str(pile) not in text and str(pile)[1:-1] not in text
