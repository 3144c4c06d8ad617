"""Moderators in the admin: find games, read the log, act through the service layer."""

import pytest

from games.models import Actor, GameStatus, Move
from games.rules import piratz
from tests.factories import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator_client(client, moderator):
    moderator.is_superuser = True
    moderator.save()
    client.force_login(moderator)
    return client


def test_changelist_finds_games_by_player_email(moderator_client, game, anna, bert):
    other = start_game([bert, anna])
    response = moderator_client.get("/admin/games/game/", {"q": "carla@example.com"})
    assert response.status_code == 200
    page = response.content.decode()
    assert str(game.id) in page and str(other.id) not in page


def test_game_page_shows_the_log_but_never_the_secret_state(moderator_client, game, anna):
    from games import actions

    actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    game.refresh_from_db()
    response = moderator_client.get(f"/admin/games/game/{game.id}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "reveal" in page
    assert piratz.dump(piratz.load(game.state))["key"] not in page


@pytest.mark.parametrize(
    ("action", "check"),
    [
        ("force_automatic_move", lambda game: Move.objects.get(game=game).actor == Actor.MODERATOR),
        ("abort_games", lambda game: game.status == GameStatus.ABORTED),
        ("extend_deadline_24h", lambda game: game.deadline is not None),
    ],
)
def test_actions_go_through_the_services(moderator_client, game, action, check):
    before = game.deadline
    response = moderator_client.post(
        "/admin/games/game/", {"action": action, "_selected_action": [str(game.id)]}, follow=True
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert check(game)
    if action == "extend_deadline_24h":
        assert (game.deadline - before).total_seconds() == 24 * 3600


def test_refused_action_is_reported_not_crashed(moderator_client, game, moderator):
    from games import actions

    actions.do_abort_game(game.id, moderator)
    response = moderator_client.post(
        "/admin/games/game/",
        {"action": "abort_games", "_selected_action": [str(game.id)]},
        follow=True,
    )
    assert "already aborted" in response.content.decode()


def test_players_cannot_use_the_admin(client, anna):
    client.force_login(anna)
    assert client.get("/admin/games/game/").status_code == 302
