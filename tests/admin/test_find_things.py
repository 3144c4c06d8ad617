"""Finding games and players in the admin: by email, status, a quiet player, automatic moves.

The admin's lists are the platform's: their games are the toy game's (the ``toy_games``
fixture for every test); only the draw-order scan needs a game with a draw pile (Piratz).
"""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import actions
from games.models import Game
from moderation.models import Report
from tests.api.secrets_scan import assert_no_secrets
from tests.factories import TOY_KIND, make_user, start_toy_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_games")]

GAMES = "/admin/games/game/"
USERS = "/admin/accounts/user/"


def listed(client, url, **params) -> list:
    response = client.get(url, params)
    assert response.status_code == 200, response
    return list(response.context["cl"].result_list)


def force_automatic_moves(game: Game, moderator, times: int) -> Game:
    """Play ``times`` automatic moves (P24) through the service, as the admin action does."""
    for _ in range(times):
        game.refresh_from_db()
        actions.do_force_automatic_move(
            game.id, moderator, version=game.version, reason="Test: the player is away."
        )
    game.refresh_from_db()
    return game


def waiting_since(game: Game, days: float) -> None:
    Game.objects.filter(id=game.id).update(turn_started_at=timezone.now() - timedelta(days=days))


def test_games_waiting_on_the_player_longer_than_n_days(moderator_client, anna, bert, carla):
    two_days = start_toy_game([anna, bert])
    waiting_since(two_days, 2)
    five_days = start_toy_game([bert, carla])
    waiting_since(five_days, 5)
    fresh = start_toy_game([carla, anna])
    waiting_since(fresh, 0.5)

    assert set(listed(moderator_client, GAMES, waiting_days=1)) == {two_days, five_days}
    assert listed(moderator_client, GAMES, waiting_days=3) == [five_days]
    assert listed(moderator_client, GAMES, waiting_days=7) == []
    assert len(listed(moderator_client, GAMES)) == 3  # no filter


def test_the_game_list_names_the_player_it_waits_on(moderator_client, toy_game, bert, moderator):
    game = force_automatic_moves(toy_game, moderator, 1)  # Anna's turn ends: Bert's now
    assert game.current_seat == 1

    [shown] = listed(moderator_client, GAMES)

    assert shown.to_move_email == bert.email
    assert bert.email in moderator_client.get(GAMES).content.decode()


def test_games_sort_by_their_number_of_automatic_moves(moderator_client, players, moderator):
    anna, bert, carla, dirk = players
    none = start_toy_game([anna, bert])
    two = force_automatic_moves(start_toy_game([bert, carla]), moderator, 2)
    one = force_automatic_moves(start_toy_game([carla, dirk]), moderator, 1)

    games = listed(moderator_client, GAMES, o="-10")  # the automatic moves column, descending
    counts = [(game.id, game.automatic_move_count) for game in games]

    assert counts == [(two.id, 2), (one.id, 1), (none.id, 0)]


def test_games_by_a_players_email_and_by_status(moderator_client, anna, bert, carla):
    with_carla = start_toy_game([bert, carla])
    start_toy_game([anna, bert])
    invited = actions.do_create_game(anna, [anna.email, carla.email], game=TOY_KIND)

    assert set(listed(moderator_client, GAMES, q="carla@example.com")) == {with_carla, invited}
    assert listed(moderator_client, GAMES, q="carla@", status__exact="invited") == [invited]


def test_a_search_by_email_does_not_multiply_the_counts(moderator_client, anna, bert, moderator):
    game = force_automatic_moves(start_toy_game([anna, bert]), moderator, 2)

    [shown] = listed(moderator_client, GAMES, q="example.com")  # matches both seats

    assert shown == game and shown.automatic_move_count == 2


def test_players_list_their_games_automatic_moves_and_reports_against_them(
    moderator_client, players, moderator
):
    anna, bert, carla, dirk = players
    game = start_toy_game([anna, bert, carla])
    force_automatic_moves(game, moderator, 2)  # Anna's turn, then Bert's
    start_toy_game([anna, dirk])
    Report.objects.create(reporter=carla, game=game, reported_user=anna, category="abuse")
    Report.objects.create(reporter=bert, game=game, reported_user=anna, category="spam")

    rows = {user.email: user for user in listed(moderator_client, USERS, q="example.com")}

    assert (rows[anna.email].game_count, rows[anna.email].automatic_move_count) == (2, 1)
    assert rows[anna.email].report_count == 2
    assert (rows[bert.email].game_count, rows[bert.email].automatic_move_count) == (1, 1)
    assert (rows[carla.email].automatic_move_count, rows[carla.email].report_count) == (0, 0)
    by_moves = listed(moderator_client, USERS, q="example.com", o="-4")  # automatic moves
    assert [user.email for user in by_moves[:2]] == sorted([anna.email, bert.email])


def test_a_players_page_shows_their_games_and_reports_against_them(
    moderator_client, anna, bert, carla
):
    game = start_toy_game([anna, bert])
    other = start_toy_game([carla, anna])
    Report.objects.create(
        reporter=bert, game=game, reported_user=anna, category="abuse", text="Rude in chat."
    )

    page = moderator_client.get(f"{USERS}{anna.id}/change/").content.decode()

    assert str(game.id) in page and str(other.id) in page
    assert "Reports against this player" in page and "Rude in chat." in page


def test_the_players_search_finds_by_email(moderator_client, anna, bert):
    assert listed(moderator_client, USERS, q="anna@") == [anna]


def test_the_lists_query_counts_do_not_grow_with_the_rows(moderator_client, moderator):
    def queries(url) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert moderator_client.get(url).status_code == 200
        return len(captured)

    players = [make_user(f"p{n}@example.com") for n in range(2)]
    force_automatic_moves(start_toy_game(players), moderator, 1)
    few = queries(GAMES), queries(USERS)
    more = [make_user(f"q{n}@example.com") for n in range(6)]
    for n in range(0, 6, 2):
        force_automatic_moves(start_toy_game(more[n : n + 2]), moderator, 1)

    assert (queries(GAMES), queries(USERS)) == few


def test_admin_pages_never_show_a_running_games_draw_order(
    moderator_client, game, anna, bert, moderator
):
    force_automatic_moves(game, moderator, 1)
    Report.objects.create(reporter=bert, game=game, reported_user=anna, category="cheating")
    game.refresh_from_db()
    # A Piratz game (its engine through the catalogue): the toy game has no draw pile.
    state = game.load_state()
    draw = game.rules.dump(state)["draw"]
    assert len(draw) >= 4

    for url in [
        "/admin/",
        GAMES,
        f"{GAMES}?waiting_days=1",
        f"{GAMES}{game.id}/change/",
        USERS,
        f"{USERS}{anna.id}/change/",
        "/admin/moderation/report/",
        "/admin/audit/auditentry/",
        "/admin/games/move/",
        "/admin/notifications/outboundemail/",
    ]:
        page = moderator_client.get(url).content.decode()
        assert_no_secrets(page, state)
        for separator in (", ", ","):  # the draw pile as a list, however printed
            assert separator.join(map(str, draw[:4])) not in page, url
