"""My games (/games/): the player's games, those waiting for them first, and the create form."""

from datetime import UTC, datetime

import pytest
import time_machine
from django.test import Client

from accounts import preferences
from games import actions
from games.models import Game
from notifications.models import OutboundEmail
from tests.factories import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_of():
    def signed_in(user) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return signed_in


def game_order(body: str) -> list[str]:
    """The game ids in the order the list shows them."""
    import re

    return re.findall(r'data-game="([0-9a-f-]+)"', body)


def test_games_waiting_for_the_player_come_first(anna, bert, carla, client_of):
    finished_or_other = start_game([anna, bert], seed=3)  # anna (seat 0) to move
    waiting_on_bert = start_game([anna, bert, carla], seed=4)
    actions.do_play_move(waiting_on_bert.id, anna, 0, {"action": "reveal"})
    actions.do_play_move(waiting_on_bert.id, anna, 1, {"action": "end_turn"})
    invited_bert = actions.do_create_game(carla, [carla.email, bert.email])
    body = client_of(bert).get("/games/").content.decode()
    order = game_order(body)
    # Bert's turn and Bert's unanswered invitation first, then Anna's turn.
    assert set(order[:2]) == {str(waiting_on_bert.id), str(invited_bert.id)}
    assert order[2] == str(finished_or_other.id)
    assert body.count('data-waiting="true"') == 2
    assert "Your turn" in body and "Anna&#x27;s turn" in body
    assert "You are invited: accept or decline" in body
    # For Anna, only the game on her turn waits.
    body = client_of(anna).get("/games/").content.decode()
    assert game_order(body)[0] == str(finished_or_other.id)
    assert body.count('data-waiting="true"') == 1
    assert f'href="/games/{waiting_on_bert.id}/replay/"' in body  # it has moves to replay


def test_deadlines_show_in_the_players_time_zone(anna, bert, client_of):
    game = start_game([anna, bert], seed=3)
    deadline = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)
    preferences.do_update_settings(anna, {"time_zone": "Asia/Tokyo"}, now=deadline)
    Game.objects.filter(id=game.id).update(deadline=deadline)  # after: the update moves it
    body = client_of(anna).get("/games/").content.decode()
    # As the table and the emails say it, the zone named (it was Django's date format,
    # with no zone: "Nov. 24, 2026, 7 p.m.").
    assert "Deadline Tuesday 24 November, 19:00 JST" in body


def test_a_rows_sentences_are_said_in_the_readers_language(anna, bert, client_of):
    game = start_game([anna, bert], seed=3)
    deadline = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)
    Game.objects.filter(id=game.id).update(deadline=deadline)
    client = client_of(anna)
    with time_machine.travel(datetime(2026, 11, 23, 7, 0, tzinfo=UTC), tick=False):
        english = client.get("/games/").content.decode()
        client.cookies["django_language"] = "de"
        german = client.get("/games/").content.decode()
    assert "<strong>Piratz with Anna, Bert</strong>" in english
    assert "Deadline Tuesday 24 November, 10:00 UTC (in 1\xa0day, 3\xa0hours)." in english
    assert "<strong>Piratz mit Anna, Bert</strong>" in german
    assert "Frist Dienstag, 24. November, 10:00 UTC (noch 1\xa0Tag, 3\xa0Stunden)." in german


def test_a_finished_game_says_who_won(anna, bert, client_of, moderator):
    game = start_game([anna, bert], seed=3)
    Game.objects.filter(id=game.id).update(status="finished", result={"winners": [1]})
    assert "Finished: won by Bert" in client_of(anna).get("/games/").content.decode()
    assert "Finished: you won" in client_of(bert).get("/games/").content.decode()


def test_strangers_are_asked_to_sign_in():
    response = Client().get("/games/")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/games/"


def test_the_create_form_is_prefilled_with_the_players_own_address(anna, client_of):
    body = client_of(anna).get("/games/").content.decode()
    assert 'name="player_1"' in body and 'value="anna@example.com"' in body
    for field in ("player_2", "player_3", "player_4", "turn_hours", "blind"):
        assert f'<label for="id_{field}"' in body  # every field has its label


def test_creating_a_game_invites_the_others(anna, client_of):
    response = client_of(anna).post(
        "/games/",
        {
            "form": "create",
            "player_1": "anna@example.com",
            "player_2": "Zoe@Example.com",
            "player_3": "",
            "turn_hours": "48",
            "blind": "on",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.id}/"
    assert (game.turn_hours, game.blind, game.host) == (48, True, anna)
    assert [s.user.email for s in game.seats.order_by("seat")] == [
        "anna@example.com",
        "zoe@example.com",
    ]
    assert OutboundEmail.objects.filter(to="zoe@example.com", template="invitation").exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"player_2": ""}, "A game of Piratz needs 2 to 4 players."),
        ({"player_1": "bert@example.com"}, "Your own address must be among the players."),
        ({"player_2": "anna@example.com"}, "Each player may hold only one seat."),
        ({"turn_hours": "0"}, "turn_hours must be between 1 and 720."),
        ({"player_2": "not an address"}, "Enter a valid email address."),
        ({"turn_hours": "soon"}, "Enter a whole number."),
    ],
)
def test_a_refused_game_shows_why_and_creates_nothing(anna, client_of, fields, message):
    data = {"form": "create", "player_1": anna.email, "player_2": "zoe@example.com"}
    data.update({"turn_hours": "72", **fields})
    response = client_of(anna).post("/games/", data)
    assert response.status_code == 400
    body = response.content.decode()
    assert message in body
    assert 'role="alert"' in body
    assert 'value="zoe@example.com"' in body or fields.get("player_2") is not None
    assert not Game.objects.exists()
    assert not OutboundEmail.objects.exists()


def test_an_invitation_is_answered_from_the_list(anna, bert, client_of):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    client = client_of(bert)
    body = client.get("/games/").content.decode()
    assert 'name="decision" value="accept"' in body
    response = client.post(
        "/games/", {"form": "answer", "game": str(game.id), "decision": "accept"}
    )
    assert response.status_code == 302 and response["Location"] == "/games/"
    game.refresh_from_db()
    assert game.status == "active"
    body = client.get("/games/").content.decode()
    assert "You accepted the invitation." in body and 'role="status"' in body


def test_declining_cancels_and_a_stranger_cannot_answer(anna, bert, outsider, client_of):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    response = client_of(outsider).post(
        "/games/", {"form": "answer", "game": str(game.id), "decision": "accept"}, follow=True
    )
    assert "No such game, or you are not a player of it." in response.content.decode()
    game.refresh_from_db()
    assert game.status == "invited"
    client_of(bert).post("/games/", {"form": "answer", "game": str(game.id), "decision": "decline"})
    game.refresh_from_db()
    assert game.status == "cancelled"
    body = client_of(bert).post(
        "/games/", {"form": "answer", "game": "not-a-uuid", "decision": "accept"}, follow=True
    )
    assert "No such game" in body.content.decode()


def test_the_home_page_links_signed_in_players_to_their_games(anna, client_of):
    invitation = "My games: whose turn it is, and start a new game"
    body = client_of(anna).get("/").content.decode()
    assert f'<a href="/games/">{invitation}</a>' in body
    assert invitation not in Client().get("/").content.decode()


def test_the_list_costs_the_same_queries_for_one_game_or_many(
    anna, bert, carla, client_of, django_assert_max_num_queries
):
    client = client_of(anna)
    start_game([anna, bert], seed=3)
    with django_assert_max_num_queries(5) as one:
        client.get("/games/")
    for seed in range(4, 10):
        start_game([anna, bert, carla], seed=seed)
    with django_assert_max_num_queries(len(one.captured_queries)):
        body = client.get("/games/").content.decode()
    assert len(game_order(body)) == 7


def test_a_seat_can_be_given_to_a_bot_on_the_create_form(anna, client_of):
    body = client_of(anna).get("/games/").content.decode()
    assert '<label for="id_bot_2"' in body and '<option value="careful">' in body
    response = client_of(anna).post(
        "/games/",
        {
            "form": "create",
            "player_1": anna.email,
            "player_2": "zoe@example.com",
            "bot_3": "careful",
            "turn_hours": "72",
            "stand_in_bots": "false",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.id}/"
    seats = list(game.seats.order_by("seat"))
    assert [(s.user.email if s.user else None, s.bot) for s in seats] == [
        ("anna@example.com", ""),
        ("zoe@example.com", ""),
        (None, "careful"),
    ]
    assert seats[2].accepted and game.stand_in_bots is False


def test_a_host_and_a_bot_start_playing_at_once(anna, client_of):
    client_of(anna).post(
        "/games/",
        {"form": "create", "player_1": anna.email, "bot_2": "strong", "turn_hours": "72"},
    )
    game = Game.objects.get()
    assert game.status == "active" and game.stand_in_bots is False  # 2 players: off
    assert [s.bot for s in game.seats.order_by("seat")] == ["", "strong"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"player_2": "zoe@example.com", "bot_2": "careful"}, "not both"),
        ({"bot_2": "genius"}, "Select a valid choice."),
    ],
)
def test_a_seat_is_a_person_or_a_bot(anna, client_of, fields, message):
    data = {"form": "create", "player_1": anna.email, "turn_hours": "72", **fields}
    response = client_of(anna).post("/games/", data)
    assert response.status_code == 400 and message in response.content.decode()
    assert not Game.objects.exists()


def test_a_suspended_player_is_told_why_their_turn_cannot_be_played(anna, bert, moderator):
    from moderation import actions as moderation

    game = start_game([anna, bert], seed=3)  # Anna to move
    client = Client()
    client.force_login(anna)
    moderation.do_suspend_user(moderator, anna, "Spam.")
    notice = "A moderator has suspended your account, so you cannot play for now."
    assert notice in client.get("/games/").content.decode()
    assert notice in client.get(f"/games/{game.id}/").content.decode()
    client.force_login(bert)
    assert notice not in client.get(f"/games/{game.id}/").content.decode()


def test_games_with_the_same_players_are_told_apart_by_the_day_they_were_created(
    anna, bert, client_of
):
    older, newer = start_game([anna, bert], seed=3), start_game([anna, bert], seed=4)
    Game.objects.filter(id=older.id).update(created_at=datetime(2026, 11, 2, 23, 30, tzinfo=UTC))
    preferences.do_update_settings(anna, {"time_zone": "Europe/Berlin"}, now=newer.created_at)
    body = client_of(anna).get("/games/").content.decode()
    assert "created Tuesday 3 November, 00:30 CET" in body  # in Anna's zone, as deadlines
    german = client_of(anna)
    german.cookies["django_language"] = "de"
    assert "angelegt am Dienstag, 3. November, 00:30 CET" in german.get("/games/").content.decode()


def test_a_bots_turn_is_said_to_be_about_to_move_not_to_end_in_minutes(anna, client_of):
    # The bot begins: its turn's deadline is minutes away (games.bots.bot_deadline).
    game = actions.do_create_game(anna, ["bot:careful", anna.email])
    game.refresh_from_db()
    assert game.is_active and game.current_seat == 0
    client = client_of(anna)
    for body in (client.get("/games/").content.decode(), client.get("/").content.decode()):
        assert "the bot is about to move" in body
        assert "minutes" not in body and "Deadline" not in body and "next deadline" not in body
    client.cookies["django_language"] = "de"
    assert "der Bot zieht gleich" in client.get("/games/").content.decode()


def test_the_forms_suggestions_found_in_the_list_are_the_queries(anna, bert, carla, outsider):
    """My games finds the people and groups it suggests in the games it lists (when the
    list holds them all) instead of reading them again: the same people, in the same order."""
    from accounts import erasure
    from accounts.models import User
    from games import players, queries

    dora, emil = (User.objects.create_user(f"{name}@example.com") for name in ("dora", "emil"))
    with time_machine.travel(datetime(2026, 3, 1, 12, tzinfo=UTC)) as clock:
        start_game([anna, dora])
        clock.shift(60)
        start_game([anna, bert, carla])
        clock.shift(60)
        actions.do_create_game(anna, [anna.email, outsider.email])  # invited: not started
        clock.shift(60)
        start_game([anna, bert])
        clock.shift(60)
        start_game([emil, anna])
        clock.shift(60)
        actions.do_create_game(anna, ["bot:careful", anna.email])  # a bot: nobody to suggest
    erasure.erase_user(emil.pk)
    listed = list(queries.games_of(anna, seats=queries.SEATS_WITH_PEOPLE))
    partners = players.partners_of(anna, games=listed)
    assert [p.email for p in partners] == [
        "bert@example.com",
        "carla@example.com",
        "dora@example.com",
    ]
    assert partners == players.partners_of(anna)
    groups = players.recent_groups(anna, games=listed)
    assert [g.emails for g in groups] == [
        ("anna@example.com", "bert@example.com"),
        ("anna@example.com", "bert@example.com", "carla@example.com"),
        ("anna@example.com", "dora@example.com"),
    ]
    assert [(g.game.id, g.names) for g in groups] == [
        (g.game.id, g.names) for g in players.recent_groups(anna)
    ]


def test_older_ended_games_wait_behind_a_link(anna, bert, client_of):
    from datetime import timedelta

    from games.views.lobby import ENDED_GAMES_SHOWN

    running = start_game([anna, bert], seed=3)
    ended = [start_game([anna, bert], seed=4 + n) for n in range(ENDED_GAMES_SHOWN + 2)]
    start = datetime(2026, 11, 1, tzinfo=UTC)
    for day, game in enumerate(ended):  # the first ones are the oldest
        Game.objects.filter(id=game.id).update(
            status="finished",
            result={"winners": [0]},
            deadline=None,  # as the game's end leaves it
            created_at=start + timedelta(days=day),
        )
    client = client_of(anna)
    body = client.get("/games/").content.decode()
    shown = game_order(body)
    assert shown == [str(running.id)] + [str(g.id) for g in reversed(ended[2:])]
    assert '<a href="?ended=all" data-more-ended>Show 2 older ended games</a>' in body
    every = client.get("/games/?ended=all").content.decode()
    assert game_order(every) == [str(running.id)] + [str(g.id) for g in reversed(ended)]
    assert "data-more-ended" not in every
    client.cookies["django_language"] = "de"
    assert "2 ältere beendete Spiele zeigen" in client.get("/games/").content.decode()


def test_no_link_while_every_ended_game_is_shown(anna, bert, client_of):
    game = start_game([anna, bert], seed=3)
    Game.objects.filter(id=game.id).update(status="finished", result={"winners": [0]})
    body = client_of(anna).get("/games/").content.decode()
    assert game_order(body) == [str(game.id)]
    assert "data-more-ended" not in body
