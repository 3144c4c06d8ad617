"""Playing together (docs/api.md "Playing together"): resigning (P26, R37), the host's pause,
resume and extension, and rematches, through the API and the service."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.utils import translation

from accounts import erasure
from games import actions
from games.actions.common import result_with_resignations
from games.describe import Names, words_for
from games.models import EndReason, Game, GameStatus, Move, Seat
from games.queries import game_with_seats
from games.sweeps import play_due_timeouts, resume_due_pauses, send_due_reminders
from notifications.models import OutboundEmail
from tests.factories import client_for, reveal_or_timeout, start_game, start_toy_game, toy_move

pytestmark = pytest.mark.django_db

H = timedelta(hours=1)
START = datetime(2026, 12, 7, 10, 0, tzinfo=UTC)


def url(game: Game, what: str) -> str:
    return f"/api/games/{game.id}/{what}/"


def post(user, game: Game, what: str, body: dict | None = None):
    return client_for(user).post(url(game, what), body or {}, format="json")


def fresh(game: Game) -> Game:
    return Game.objects.get(id=game.id)


def play_out(game: Game, users) -> Game:
    """Play ``game`` to its end: people by ``reveal_or_timeout``, bots by their own moves."""
    while game.status == GameStatus.ACTIVE:
        row = Seat.objects.get(game=game, seat=game.current_seat)
        if row.bot:
            actions.do_play_bot_move(game.id, expected_version=game.version)
        else:
            actions.do_play_move(game.id, row.user, game.version, reveal_or_timeout(game))
        game = fresh(game)
    return game


@pytest.fixture
def clocked(anna, bert):
    """A 2-player Piratz game with 72-hour turns, started at START: Anna (host, seat 0)."""
    with time_machine.travel(START, tick=False):
        return start_game([anna, bert])


@pytest.fixture
def clocked_toy(toy_games, anna, bert):
    """The same with the toy game (tic-tac-toe): the host's clock is any game's."""
    with time_machine.travel(START, tick=False):
        return start_toy_game([anna, bert])


# --- Resigning ------------------------------------------------------------------------------


def test_resigning_a_two_player_game_ends_it_and_the_other_player_wins(anna, bert, clocked):
    answer = post(bert, clocked, "resign", {"version": 0})
    assert answer.status_code == 200, answer.json()
    data = answer.json()
    assert data["status"] == "finished" and data["version"] == 1
    assert data["end_reason"] == EndReason.RESIGNED
    assert [seat["resigned"] for seat in data["seats"]] == [False, True]
    state = data["state"]
    assert state["status"] == "finished" and state["current_seat"] is None
    assert state["phase"] is None and state["legal_actions"] == []
    assert state["result"]["winners"] == [0] and state["result"]["resigned"] == [1]
    assert [p["seat"] for p in state["result"]["players"]] == [0, 1]  # scored as it stands
    log = client_for(anna).get(url(clocked, "moves")).json()
    assert log == [
        {"number": 1, "seat": 1, "action": {"action": "resign"}, "revealed": None,
         "automatic": False, "at": log[0]["at"]}
    ]  # fmt: skip
    # Everyone is told the game is over, with who resigned.
    over = OutboundEmail.objects.get(template="game_over", to=anna.email).rendered()
    assert "Bert resigned and could not win." in over.body_text


def test_resigning_with_a_stale_version_is_refused_and_changes_nothing(anna, bert, clocked):
    actions.do_play_move(clocked.id, anna, 0, {"action": "reveal"})
    answer = post(bert, clocked, "resign", {"version": 0})
    assert answer.status_code == 409 and answer.json()["code"] == "stale_version"
    game = fresh(clocked)
    assert game.status == GameStatus.ACTIVE and game.version == 1
    assert not Seat.objects.filter(game=game, resigned=True).exists()
    assert Move.objects.filter(game=game).count() == 1


def test_a_resignation_repeated_after_it_was_applied_answers_the_game(bert, clocked):
    assert post(bert, clocked, "resign", {"version": 0}).status_code == 200
    again = post(bert, clocked, "resign", {"version": 0})
    assert again.status_code == 200 and again.json()["version"] == 1
    assert Move.objects.filter(game=clocked).count() == 1


def test_a_resigned_seat_in_a_three_player_game_is_played_by_a_bot_and_cannot_win(
    anna, bert, carla, game
):
    answer = post(anna, game, "resign", {"version": 0})
    assert answer.status_code == 200, answer.json()
    data = answer.json()
    assert data["status"] == "active" and data["version"] == 1
    seat = data["seats"][0]
    assert seat["resigned"] and seat["bot"] == {"level": "careful", "standing_in": True}
    assert (seat["label"], seat["role"]) == ("Anna · resigned", "resigned")
    taken = post(anna, game, "take-back")  # final: the state refuses, not the request
    assert (taken.status_code, taken.json()["code"]) == (409, "conflict")
    again = post(anna, game, "resign", {"version": 1})  # a new resignation, not a retry
    assert (again.status_code, again.json()["code"]) == (409, "conflict")
    assert "resigned from this game already" in again.json()["detail"]
    ended = play_out(fresh(game), [anna, bert, carla])
    assert ended.status == GameStatus.FINISHED
    by_the_bot = Move.objects.filter(game=game, seat=0, number__gt=1)
    assert by_the_bot and all(m.automatic and m.actor == "bot" for m in by_the_bot)  # P26
    result = ended.result
    assert result["resigned"] == [0]
    others = [p for p in result["players"] if p["seat"] != 0]
    best = max(p["score"] for p in others)
    assert result["winners"] == [p["seat"] for p in others if p["score"] == best]
    assert client_for(bert).get(f"/api/games/{game.id}/").json()["state"]["result"] == result


def test_a_resigned_seat_never_wins_even_with_the_best_score(game):
    """P26: the winners are the best scores among the seats that did not resign."""
    Seat.objects.filter(game=game, seat=0).update(resigned=True)
    scored = {"players": [{"seat": 0, "score": 9}, {"seat": 1, "score": 4},
                          {"seat": 2, "score": 4}], "winners": [0]}  # fmt: skip
    with_seats = game_with_seats(game.id)
    assert result_with_resignations(with_seats, scored) == {
        **scored,
        "winners": [1, 2],
        "resigned": [0],
    }


def test_when_every_human_player_has_resigned_the_game_ends_as_abandoned(anna, bert):
    game = actions.do_create_game(anna, [anna.email, bert.email, "bot:careful"])
    actions.do_accept_invitation(game.id, bert)
    actions.do_resign(game.id, anna, 0)
    assert fresh(game).status == GameStatus.ACTIVE
    ended = actions.do_resign(game.id, bert, 1)
    assert ended.status == GameStatus.ABORTED and ended.end_reason == EndReason.ABANDONED
    assert fresh(game).version == 2


def test_resigning_rattenscharf_ends_it_and_the_other_player_wins(anna, bert):
    game = start_game([anna, bert], game="rattenscharf")
    data = post(anna, game, "resign", {"version": 0}).json()
    assert data["status"] == "finished"
    result = data["state"]["result"]
    assert result["reason"] == "resigned" and result["winners"] == [1]
    assert result["resigned"] == [0] and result["final_scoring"] == []


def test_a_resignation_reads_as_a_sentence_in_english_and_german(anna, bert, clocked):
    actions.do_resign(clocked.id, bert, 0)
    entry = client_for(anna).get(url(clocked, "moves")).json()[0]
    names = Names(["Anna", "Bert"], reader_seat=0)
    words = words_for("piratz")
    assert words.describe_entry(entry, names, clocked.rules) == "Bert resigned."
    with translation.override("de"):
        assert words.describe_entry(entry, names, clocked.rules) == "Bert hat aufgegeben."
    rattenscharf = words_for("rattenscharf")
    assert rattenscharf.describe_moves([entry], Names(["Anna", "Bert"], 1)) == ["You resigned."]


def test_a_game_a_resignation_ended_still_replays_in_its_verification(anna, bert):
    dealt = start_game([anna, bert], seed=None)  # the service's own deal, from its key
    actions.do_play_move(dealt.id, anna, 0, {"action": "reveal"})
    actions.do_resign(dealt.id, anna, 1)
    checks = client_for(bert).get(url(dealt, "verification")).json()["checks"]
    assert all(check["passed"] for check in checks), checks


# --- Pause, resume, extend ------------------------------------------------------------------


def test_only_the_host_may_pause(bert, clocked_toy):
    answer = post(bert, clocked_toy, "pause", {"reason": "holidays"})
    assert answer.status_code == 403 and answer.json()["code"] == "not_host"
    assert fresh(clocked_toy).paused_at is None


def test_a_pause_stops_the_clock_and_resuming_gives_back_the_time_left(anna, bert, clocked_toy):
    with time_machine.travel(START + 10 * H, tick=False):
        data = post(anna, clocked_toy, "pause", {"reason": "a wedding"}).json()
    assert data["paused"] is True and data["deadline"] is None
    until = START + 10 * H + timedelta(days=settings.PAUSE_MAX_DAYS)
    assert data["paused_until"] == until.isoformat().replace("+00:00", "Z")
    assert data["host"] == 0
    # No timeouts, no reminders while paused, long past the old deadline.
    with time_machine.travel(START + 100 * H, tick=False):
        assert play_due_timeouts() == 0 and send_due_reminders() == 0
        again = post(anna, clocked_toy, "pause")
        assert again.status_code == 409 and again.json()["code"] == "paused"
        refused = post(anna, clocked_toy, "extend", {"hours": 5})
        assert refused.status_code == 409 and refused.json()["code"] == "paused"
    # Everyone else is told, with the host's reason; the host who paused it knows.
    told = OutboundEmail.objects.filter(template="clock_changed").order_by("to")
    assert [row.to for row in told] == [bert.email]
    assert "Anna says: a wedding" in told[0].rendered().body_text
    with time_machine.travel(START + 110 * H, tick=False):
        data = post(anna, clocked_toy, "resume").json()
    told = OutboundEmail.objects.filter(template="clock_changed")
    assert sorted(row.to for row in told) == [bert.email, bert.email]  # the resume: Bert only
    # The turn had 62 hours left when paused: it has them again from the resume.
    assert data["paused"] is False and data["paused_until"] is None
    assert fresh(clocked_toy).deadline == START + 110 * H + 62 * H
    assert fresh(clocked_toy).next_reminder_at == START + 110 * H + 38 * H
    # Nothing to undo now: the state refuses, with the one status and code for that.
    again = post(anna, clocked_toy, "resume")
    assert (again.status_code, again.json()["code"]) == (409, "conflict")


def test_a_turn_that_starts_while_paused_is_unclocked_and_then_gets_a_whole_turn(
    anna, bert, clocked_toy
):
    with time_machine.travel(START + 1 * H, tick=False):
        actions.do_pause_game(clocked_toy.id, anna)
    with time_machine.travel(START + 2 * H, tick=False):
        game = actions.do_play_move(clocked_toy.id, anna, 0, toy_move(clocked_toy))  # Bert's turn
    assert game.current_seat == 1 and game.deadline is None and game.next_reminder_at is None
    with time_machine.travel(START + 50 * H, tick=False):
        actions.do_resume_game(clocked_toy.id, anna)
    assert fresh(clocked_toy).deadline == START + 50 * H + 72 * H


def test_a_pause_ends_by_itself_after_its_longest_time_once(anna, clocked_toy):
    with time_machine.travel(START, tick=False):
        actions.do_pause_game(clocked_toy.id, anna, "away")
    limit = START + timedelta(days=settings.PAUSE_MAX_DAYS)
    assert resume_due_pauses(limit - H) == 0
    with time_machine.travel(limit, tick=False):
        assert resume_due_pauses(limit) == 1
        assert resume_due_pauses(limit) == 0  # idempotent
    game = fresh(clocked_toy)
    assert game.paused_at is None and game.deadline == limit + 72 * H
    resumed = OutboundEmail.objects.filter(template="clock_changed", to=anna.email).last()
    assert "runs again by itself" in resumed.rendered().body_text


def test_the_host_extends_a_turn_once(anna, bert, clocked_toy):
    with time_machine.travel(START + 1 * H, tick=False):
        data = post(anna, clocked_toy, "extend", {"hours": 24, "reason": "Bert travels"}).json()
        assert data["deadline"] == "2026-12-11T10:00:00Z"  # 72 + 24 hours after START
        second = post(anna, clocked_toy, "extend", {"hours": 1})
        assert (second.status_code, second.json()["code"]) == (409, "conflict")
        assert post(bert, clocked_toy, "extend", {"hours": 1}).json()["code"] == "not_host"
        too_long = post(anna, clocked_toy, "extend", {"hours": 169})
        assert too_long.status_code == 400 and too_long.json()["code"] == "invalid"
    assert fresh(clocked_toy).deadline == START + 96 * H
    told = OutboundEmail.objects.get(template="clock_changed", to=bert.email).rendered()
    assert "24 hours more" in told.body_text and "Bert travels" in told.body_text
    assert not OutboundEmail.objects.filter(template="clock_changed", to=anna.email).exists()
    # The next turn may be extended again.
    with time_machine.travel(START + 2 * H, tick=False):
        actions.do_play_move(clocked_toy.id, anna, 0, toy_move(clocked_toy))  # Bert's turn
        assert post(anna, clocked_toy, "extend", {"hours": 2}).status_code == 200


# --- Rematch --------------------------------------------------------------------------------


def test_a_rematch_is_made_once_with_the_seats_turned(anna, bert, carla, game, outsider):
    refused = post(bert, game, "rematch")
    assert refused.status_code == 409 and refused.json()["code"] == "game_not_active"
    actions.do_resign(game.id, anna, 0)
    actions.do_resign(game.id, bert, 1)
    actions.do_resign(game.id, carla, 2)  # nobody left: aborted (P25)
    first = post(bert, game, "rematch")
    assert first.status_code == 201, first.json()
    new = first.json()
    assert [seat["name"] for seat in new["seats"]] == ["Bert", "carla", "Anna"]
    assert new["host"] == 0 and new["status"] == "invited" and new["you"] == 0
    again = post(anna, game, "rematch")
    assert again.status_code == 200 and again.json()["id"] == new["id"]
    assert client_for(carla).get(f"/api/games/{game.id}/").json()["rematch"] == new["id"]
    assert post(outsider, game, "rematch").status_code == 404
    assert Game.objects.count() == 2


def test_a_reason_must_be_text(anna, clocked_toy):
    answer = post(anna, clocked_toy, "pause", {"reason": 0})
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert fresh(clocked_toy).paused_at is None


@pytest.mark.parametrize(
    "reason",
    [
        "holidays\u001b[2J",  # ESC: clears a terminal that shows the email
        "holidays\u0007",  # BEL
        "\u202eskcolc",  # a right-to-left override
        "holidays\nNow it is Bert's turn.",  # a second line that passes for the service's
    ],
)
def test_a_reason_is_cleaned_by_the_one_rule_for_typed_text(anna, clocked_toy, reason):
    # The host's reason reaches every player's email and the game page: the same rule as
    # table talk's and a display name's (core.text), one line.
    for what, body in (("pause", {}), ("extend", {"hours": 24})):
        answer = post(anna, clocked_toy, what, {**body, "reason": reason})
        assert answer.status_code == 400 and answer.json()["code"] == "invalid"
        assert answer.json()["detail"].startswith("The reason ")
    game = fresh(clocked_toy)
    assert game.paused_at is None and game.pause_reason == ""
    assert game.deadline == START + 72 * H
    assert not OutboundEmail.objects.filter(template="clock_changed").exists()


# --- The chair after the host leaves (decision 0005) ------------------------------------------


@pytest.fixture
def trio(anna, bert, carla):
    """A 3-player Piratz game with 72-hour turns, started at START: Anna hosts (seat 0)."""
    with time_machine.travel(START, tick=False):
        return start_game([anna, bert, carla])


def hand_the_turn_on(game: Game, user) -> int:
    """``user``, to move, reveals and passes: the next seat's turn begins. The version."""
    actions.do_play_move(game.id, user, fresh(game).version, {"action": "reveal"})
    game = fresh(game)
    pass_move = next(
        a
        for a in game.rules.legal_actions(game.load_state(), game.current_seat)
        if a["action"] == "pass"
    )
    return actions.do_play_move(game.id, user, game.version, pass_move).version


def test_a_host_who_resigned_keeps_no_chair_and_the_next_player_holds_it(anna, bert, carla, trio):
    answer = post(anna, trio, "resign", {"version": 0})
    assert answer.status_code == 200 and answer.json()["host"] == 1  # Bert's seat now
    for what, body in (("pause", {}), ("extend", {"hours": 2})):
        refused = post(anna, trio, what, body)
        assert refused.status_code == 409 and refused.json() == {
            "code": "conflict",
            "detail": "You have resigned from this game, so the host's chair is not yours: "
            "Bert holds it.",
        }
    assert post(carla, trio, "pause").json()["code"] == "not_host"
    assert fresh(trio).paused_at is None and fresh(trio).host_extended_turn is None
    assert post(bert, trio, "pause", {"reason": "my call now"}).status_code == 200
    refused = post(anna, trio, "resume")
    assert refused.status_code == 409 and refused.json()["code"] == "conflict"
    assert fresh(trio).paused_at is not None
    # The others were told who holds the chair now.
    to_bert = OutboundEmail.objects.get(template="resigned", to=bert.email).rendered()
    assert "Anna held the host's chair: it is yours now." in to_bert.body_text
    to_carla = OutboundEmail.objects.get(template="resigned", to=carla.email).rendered()
    assert "Anna held the host's chair: Bert holds it now." in to_carla.body_text


def test_a_host_who_resigns_ends_their_pause_as_a_resume_would(anna, bert, carla, trio):
    with time_machine.travel(START + 2 * H, tick=False):
        version = hand_the_turn_on(trio, anna)  # Bert's turn, from START + 2 h
    with time_machine.travel(START + 10 * H, tick=False):
        actions.do_pause_game(trio.id, anna, "a wedding")
    with time_machine.travel(START + 30 * H, tick=False):
        data = post(anna, trio, "resign", {"version": version}).json()
    assert data["status"] == "active" and data["host"] == 1
    assert data["paused"] is False and data["paused_until"] is None
    # Bert's turn had 64 of its 72 hours left when paused: it has them again from now.
    assert fresh(trio).deadline == START + 30 * H + 64 * H
    resumed = (
        OutboundEmail.objects.filter(template="clock_changed", to=carla.email)
        .latest("id")
        .rendered()
    )
    assert "has left it, so the pause is over: the clock runs again." in resumed.body_text
    assert "Bert holds the host's chair now." in resumed.body_text
    assert "runs again by itself" not in resumed.body_text


# --- Rematch after a deletion -----------------------------------------------------------------


def test_a_rematch_after_a_deletion_leaves_the_deleted_seat_out(anna, bert, carla):
    game = actions.do_create_game(anna, [anna.email, bert.email, carla.email, "bot:careful"])
    actions.do_accept_invitation(game.id, bert)
    actions.do_accept_invitation(game.id, carla)
    for version, user in enumerate([anna, bert, carla]):
        actions.do_resign(game.id, user, version)
    assert fresh(game).status == GameStatus.ABORTED
    erasure.erase_user(carla.pk)
    answer = post(bert, game, "rematch")
    assert answer.status_code == 201, answer.json()
    seats = answer.json()["seats"]
    # Anna, Bert, (Carla), the bot: Carla's seat left out, the bot's kept, turned by one.
    assert [(s["name"], s["bot"]) for s in seats[::2]] == [("Bert", None), ("Anna", None)]
    assert seats[1]["bot"] == {"level": "careful", "standing_in": False}


def test_a_rematch_with_too_few_players_left_is_refused_in_a_sentence(anna, bert, clocked):
    assert post(bert, clocked, "resign", {"version": 0}).status_code == 200
    erasure.erase_user(bert.pk)
    answer = post(anna, clocked, "rematch")
    assert answer.status_code == 409 and answer.json() == {
        "code": "conflict",
        "detail": "A player of this game has deleted their account, and a game of Piratz "
        "needs 2 to 4 players, so there can be no rematch.",
    }
    assert Game.objects.count() == 1 and fresh(clocked).rematch_id is None
