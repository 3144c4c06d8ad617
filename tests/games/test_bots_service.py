"""Bots at the table, through the service: seating bots, their turns, stand-ins, taking back.

Bot tasks are not published under the unit tests' eager Celery (games.bots); these tests
run the task or the deadline sweep themselves. tests/games/test_bot_worker.py runs a game
with a real worker.
"""

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from audit.models import AuditAction, AuditEntry
from core.errors import ServiceError
from games import actions, bots, sweeps, tasks
from games.models import Actor, EndReason, Game, GameStatus, Move, Seat, SeatChange
from notifications.models import OutboundEmail
from tests.factories import client_for, start_game

pytestmark = pytest.mark.django_db


def emails(kind: str, to: str | None = None) -> list[OutboundEmail]:
    found = OutboundEmail.objects.filter(template=kind).order_by("id")
    return [row.rendered() for row in (found.filter(to=to) if to else found)]


def seat(game: Game, number: int) -> Seat:
    return Seat.objects.get(game=game, seat=number)


def play_a_turn_ending_move(game: Game, user) -> None:
    """``user`` (to move) ends their turn with their first pass or alarm move, if any."""
    game.refresh_from_db()
    legal = game.rules.legal_actions(game.load_state(), game.current_seat)
    ending = [a for a in legal if a["action"] in ("pass", "resolve_alarm")]
    actions.do_play_move(game.id, user, game.version, (ending or legal)[0])


def time_out(game: Game) -> int:
    """Move the clock past the game's deadline and run the deadline sweep once."""
    game.refresh_from_db()
    with time_machine.travel(game.deadline + timedelta(seconds=1), tick=False):
        return sweeps.play_due_timeouts()


# --- Seating bots ---------------------------------------------------------------------------


def test_bots_accept_at_once_and_the_game_starts_when_the_humans_accept(anna, bert):
    game = actions.do_create_game(anna, [anna.email, "bot:careful", bert.email])

    bot = seat(game, 1)
    assert (bot.user, bot.bot, bot.accepted) == (None, "careful", True)
    assert game.status == GameStatus.INVITED
    assert [e.to for e in emails("invitation")] == [bert.email]  # never to a bot

    actions.do_accept_invitation(game.id, bert)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    # Every person is told, nobody writes to a bot; the emails name the bot (a short label)
    # and say its level once, below the players.
    started = emails("game_started")
    assert sorted(e.to for e in started) == [anna.email, bert.email]
    assert all("Calico Jack · bot" in e.body_text for e in started)
    assert all("Calico Jack is a careful bot." in e.body_text for e in started)


def test_a_host_alone_with_bots_starts_at_once(anna):
    game = actions.do_create_game(anna, [anna.email, "bot:random", "bot:strong"])
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert game.stand_in_bots  # default on for 3-4 players
    assert [s.bot for s in game.seats.order_by("seat")] == ["", "random", "strong"]


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["anna@example.com", "bot:genius"], "Unknown bot level"),
        (["anna@example.com", "bot:"], "Unknown bot level"),
        (["bot:careful", "bot:random"], "Your own address"),  # at least one human: the host
        (["anna@example.com", "bot:careful", "bot:careful", "bot:careful", "bot:random"], "2 to 4"),
    ],
)
def test_bad_bot_seats_are_refused_and_create_nothing(anna, players, message):
    with pytest.raises(ServiceError) as refused:
        actions.do_create_game(anna, players)
    assert refused.value.code == "invalid" and message in refused.value.detail
    assert not Game.objects.exists()


def test_stand_ins_default_off_for_two_players(anna, bert):
    assert not actions.do_create_game(anna, [anna.email, bert.email]).stand_in_bots
    assert actions.do_create_game(anna, [anna.email, bert.email], stand_in_bots=True).stand_in_bots


# --- The bot's turn ---------------------------------------------------------------------------


@pytest.fixture
def bot_first(anna) -> Game:
    """Anna with a careful bot in seat 0: the game starts at once, the bot to move."""
    game = actions.do_create_game(anna, ["bot:careful", anna.email])
    game.refresh_from_db()
    assert (game.status, game.current_seat) == (GameStatus.ACTIVE, 0)
    return game


def test_the_bot_task_plays_one_move_and_a_repeated_task_acts_once(bot_first):
    assert tasks.play_bot_turn(str(bot_first.id), 0) is True
    assert tasks.play_bot_turn(str(bot_first.id), 0) is False  # delivered twice: nothing

    bot_first.refresh_from_db()
    assert bot_first.version == 1
    move = Move.objects.get(game=bot_first)
    assert (move.seat, move.actor, move.automatic, move.actor_user) == (0, Actor.BOT, False, None)
    # Bots get no turn emails, and nobody is told it is the bot's turn.
    assert emails("your_turn") == [] and emails("reminder") == []


def test_a_bot_turn_has_a_short_deadline_and_no_reminders(bot_first, settings):
    grace = settings.BOT_MOVE_DELAY_SECONDS + settings.BOT_TURN_GRACE_SECONDS
    assert bot_first.deadline - bot_first.turn_started_at == timedelta(seconds=grace)
    assert bot_first.next_reminder_at is None


def test_the_sweep_plays_a_lost_bot_turn_as_the_bots_move_not_p24(bot_first):
    assert sweeps.play_due_timeouts() == 0  # not due yet: the task has its time
    assert time_out(bot_first) == 1

    move = Move.objects.get(game=bot_first)
    assert (move.actor, move.automatic) == (Actor.BOT, False)  # never counted by P25
    assert emails("auto_moved") == []


def test_a_human_move_that_hands_the_turn_to_a_bot_answers_at_once(anna):
    game = actions.do_create_game(anna, [anna.email, "bot:careful"])
    game.refresh_from_db()
    turn_emails = len(emails("your_turn"))  # Anna's own, at the start
    legal = game.rules.legal_actions(game.load_state(), 0)
    move = next(a for a in legal if a["action"] == "pass")
    answer = client_for(anna).post(
        f"/api/games/{game.id}/moves/", {"version": 0, **move}, format="json"
    )

    # The bot's move is its task's, after commit: the answer did not wait for it.
    assert answer.status_code == 200
    assert (answer.json()["version"], answer.json()["state"]["current_seat"]) == (1, 1)
    assert Move.objects.filter(game=game).count() == 1
    assert len(emails("your_turn")) == turn_emails  # nobody is emailed for a bot's turn


def test_a_whole_game_of_bots_never_ends_abandoned(anna):
    # Three bots and the host, who never moves: the host times out (P24) every turn, the
    # bots' moves are not automatic, so P25 never ends it; stand-ins are off here.
    game = actions.do_create_game(
        anna, [anna.email, "bot:careful", "bot:random", "bot:strong"], stand_in_bots=False
    )
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        if game.current_seat == 0:
            assert time_out(game) == 1
        else:
            assert tasks.play_bot_turn(str(game.id), game.version)
    assert (game.status, game.end_reason) == (GameStatus.FINISHED, EndReason.NONE)
    assert Move.objects.filter(game=game, automatic=True).exclude(seat=0).count() == 0
    assert len(emails("game_over", anna.email)) == 1


# --- Stand-ins --------------------------------------------------------------------------------


def test_a_stand_in_takes_the_seat_after_n_timeouts_and_the_player_takes_it_back(
    anna, bert, carla, settings
):
    settings.STAND_IN_AFTER_TIMEOUTS = 2
    game = actions.do_create_game(anna, [anna.email, bert.email, carla.email])
    for user in (bert, carla):
        actions.do_accept_invitation(game.id, user)
    people = {0: anna, 2: carla}
    while not seat(game, 1).bot:
        game.refresh_from_db()
        assert game.status == GameStatus.ACTIVE
        if game.current_seat == 1:
            assert time_out(game) == 1  # Bert is away
        else:
            play_a_turn_ending_move(game, people[game.current_seat])

    change = SeatChange.objects.get(game=game)
    assert (change.seat, change.kind, change.why, change.actor) == (
        1,
        SeatChange.Kind.STAND_IN,
        "timeouts",
        Actor.SERVICE,
    )
    [told] = emails("stand_in", bert.email)
    assert "ran out 2 turns in a row" in told.body_text
    assert "take it back with one click" in told.body_text
    assert seat(game, 1).user == bert  # the seat is still his

    # The bot plays Bert's turns now: no more timeouts for him, nor turn emails.
    while True:
        game.refresh_from_db()
        if game.current_seat == 1:
            break
        play_a_turn_ending_move(game, people[game.current_seat])
    before = len(emails("your_turn", bert.email))
    with pytest.raises(ServiceError) as refused:
        actions.do_play_move(game.id, bert, game.version, {"action": "reveal"})
    assert refused.value.code == "not_your_turn" and "take your seat back" in refused.value.detail
    assert tasks.play_bot_turn(str(game.id), game.version)
    assert Move.objects.filter(game=game).latest("number").actor == Actor.BOT
    assert len(emails("your_turn", bert.email)) == before

    # One click on the table page gives it back, logged.
    from django.test import Client

    browser = Client()
    browser.force_login(bert)
    page = browser.get(reverse("games:game", args=[game.id]))
    assert "Take my seat back" in page.content.decode()
    browser.post(reverse("games:take-back", args=[game.id]))
    assert seat(game, 1).bot == ""
    back = SeatChange.objects.filter(game=game).latest("id")
    assert (back.kind, back.actor, back.actor_user) == (
        SeatChange.Kind.TAKEN_BACK,
        Actor.PLAYER,
        bert,
    )
    assert (
        "Take my seat back"
        not in browser.get(reverse("games:game", args=[game.id])).content.decode()
    )


def test_p25_with_stand_ins_hands_the_seats_to_bots_instead_of_abandoning(anna, bert, carla):
    game = actions.do_create_game(anna, [anna.email, bert.email, carla.email])
    for user in (bert, carla):
        actions.do_accept_invitation(game.id, user)
    game.refresh_from_db()
    assert game.stand_in_bots
    while game.round == 1:
        assert time_out(game) == 1  # nobody plays: a whole round of automatic moves
        game.refresh_from_db()

    assert game.status == GameStatus.ACTIVE  # not abandoned
    assert [s.bot for s in game.seats.order_by("seat")] == ["careful"] * 3
    assert set(SeatChange.objects.filter(game=game).values_list("why", flat=True)) == {
        "abandonment"
    }
    assert len(emails("stand_in")) == 3 and emails("game_ended") == []
    # Each told once every seat had changed: all name the table alike (queued between the
    # changes, one named nobody's stand-in, the next one's, the last two).
    subjects = {mail.to: mail.subject for mail in emails("stand_in")}
    assert subjects[anna.email].count(" · bot") == 2
    assert subjects[bert.email].count(" · bot") == 2
    assert subjects[carla.email].count(" · bot") == 2
    # The bots play it to its regular end, unless someone takes a seat back.
    for _ in range(2000):
        if game.status != GameStatus.ACTIVE:
            break
        assert tasks.play_bot_turn(str(game.id), game.version)
        game.refresh_from_db()
    assert game.status == GameStatus.FINISHED


def test_p25_without_stand_ins_still_abandons(anna, bert, carla):
    game = actions.do_create_game(anna, [anna.email, bert.email, carla.email], stand_in_bots=False)
    for user in (bert, carla):
        actions.do_accept_invitation(game.id, user)
    game.refresh_from_db()
    while game.status == GameStatus.ACTIVE:
        assert time_out(game) == 1
        game.refresh_from_db()
    assert game.end_reason == EndReason.ABANDONED
    assert not SeatChange.objects.exists()


def test_a_moderator_hands_an_absent_players_seat_to_a_bot_with_a_reason(anna, bert, moderator):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    actions.do_accept_invitation(game.id, bert)
    with pytest.raises(ServiceError):
        actions.do_replace_with_bot(game.id, moderator, 1, reason="  ")
    assert not seat(game, 1).bot

    actions.do_replace_with_bot(game.id, moderator, 1, reason="Gone for weeks", version=0)
    assert seat(game, 1).bot == "careful"
    entry = AuditEntry.objects.get(action=AuditAction.REPLACE_WITH_BOT)
    assert (entry.moderator, entry.target_user, entry.reason) == (moderator, bert, "Gone for weeks")
    change = SeatChange.objects.get(game=game)
    assert (change.actor, change.actor_user, change.why) == (
        Actor.MODERATOR,
        moderator,
        "moderator",
    )
    [told] = emails("stand_in", bert.email)
    assert "a moderator has handed your seat to a careful bot" in told.body_text
    assert "Gone for weeks" not in told.body_text  # the reason is the moderators'


def test_the_table_page_shows_bot_names_and_levels(anna, client):
    game = actions.do_create_game(anna, [anna.email, "bot:careful", "bot:strong"])
    client.force_login(anna)
    page = client.get(reverse("games:game", args=[game.id])).content.decode()
    # Short labels, and each bot's level said once beside them (the legend).
    assert "Calico Jack · bot" in page and "Mary Read · bot" in page
    assert "Calico Jack is a careful bot." in page and "Mary Read is a strong bot." in page


def test_the_admin_action_hands_the_seat_to_move_to_a_bot(moderator_client, anna, bert):
    from tests.admin.test_game_admin import moderate

    game = actions.do_create_game(anna, [anna.email, bert.email])
    actions.do_accept_invitation(game.id, bert)
    game.refresh_from_db()  # Anna (seat 0) to move, gone quiet
    response = moderate(moderator_client, "replace_with_bot", [game], reason="Suspended")

    assert "Seat handed to a bot: 1 game(s). Reason: Suspended" in response.content.decode()
    assert seat(game, 0).bot == "careful"
    assert AuditEntry.objects.get(action=AuditAction.REPLACE_WITH_BOT).target_user == anna
    game.refresh_from_db()
    assert game.deadline - game.turn_started_at < timedelta(minutes=5)  # the bot's turn now


# --- Rattenscharf (R34: a deadline plays the whole turn, one move per strip) ------------------


def test_a_rattenscharf_game_with_a_strong_bot_plays_to_its_end_through_the_task(anna):
    game = actions.do_create_game(anna, [anna.email, "bot:strong"], game="rattenscharf")
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    for _ in range(100):  # 42 strips: 42 moves at most
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        if game.current_seat == 0:
            # Anna plays R35's choice herself, one strip at a time.
            action = game.rules.timeout_action(game.load_state())
            actions.do_play_move(game.id, anna, game.version, action)
        else:
            assert tasks.play_bot_turn(str(game.id), game.version)  # one strip per task
    assert game.status == GameStatus.FINISHED
    assert game.result["reason"] in ("complete", "rats")
    bot_moves = Move.objects.filter(game=game, seat=1)
    assert bot_moves.count() >= 1
    assert set(bot_moves.values_list("actor", "automatic").distinct()) == {(Actor.BOT, False)}
    # A bot's two-strip turn is two moves of one turn (Move.round holds the turn).
    rounds = list(bot_moves.values_list("round", flat=True))
    assert any(rounds.count(turn) == 2 for turn in set(rounds))
    assert Move.objects.filter(game=game).count() == game.version


@pytest.fixture
def rattenscharf_game(anna, bert):
    """Anna (seat 0) and Bert, stand-ins on after 2 timed-out turns: turn 1 is Anna's.

    Seeded: about one deal in 300 lets the rats end the game (R23) within the four
    turns these tests play, and an ended game seats no stand-in."""
    return start_game([anna, bert], game="rattenscharf", stand_in_bots=True, seed=7)


def play_own_turn(game: Game, user) -> None:
    """``user`` (to move) lays every strip of their turn themselves."""
    game.refresh_from_db()
    seat = game.current_seat
    while True:
        action = game.rules.timeout_action(game.load_state())
        actions.do_play_move(game.id, user, game.version, action)
        game.refresh_from_db()
        if game.current_seat != seat or game.status != GameStatus.ACTIVE:
            return


def test_a_rattenscharf_stand_in_counts_timed_out_turns_not_moves(
    rattenscharf_game, anna, bert, settings
):
    settings.STAND_IN_AFTER_TIMEOUTS = 2
    game = rattenscharf_game
    play_own_turn(game, anna)  # turn 1
    assert time_out(game) == 1  # turn 2: Bert's two strips, played by the deadline
    assert Move.objects.filter(game=game, seat=1, automatic=True).count() == 2
    assert bots.timed_out_in_a_row(game, 1) == 1
    assert not seat(game, 1).bot  # one turn, though two moves

    play_own_turn(game, anna)  # turn 3
    assert time_out(game) == 1  # turn 4: his second turn in a row
    assert bots.timed_out_in_a_row(game, 1) == 2
    assert seat(game, 1).bot == "careful"
    assert SeatChange.objects.get(game=game).why == "timeouts"


def test_a_turn_begun_by_the_player_and_finished_by_the_deadline_has_run_out(
    rattenscharf_game, anna, bert
):
    game = rattenscharf_game
    play_own_turn(game, anna)  # turn 1
    game.refresh_from_db()
    first = game.rules.timeout_action(game.load_state())
    actions.do_play_move(game.id, bert, game.version, first)  # Bert lays one strip...
    assert time_out(game) == 1  # ...and the deadline the other
    assert bots.timed_out_in_a_row(game, 1) == 1
    play_own_turn(game, anna)  # turn 3
    play_own_turn(game, bert)  # turn 4: Bert is back
    assert bots.timed_out_in_a_row(game, 1) == 0


def test_piratz_counts_one_timed_out_turn_per_automatic_move(anna, bert, carla):
    game = actions.do_create_game(anna, [anna.email, bert.email, carla.email], stand_in_bots=False)
    for user in (bert, carla):
        actions.do_accept_invitation(game.id, user)
    people = {0: anna, 2: carla}
    timed_out = 0
    while timed_out < 3:
        game.refresh_from_db()
        if game.current_seat == 1:
            assert time_out(game) == 1
            timed_out += 1
            assert bots.timed_out_in_a_row(game, 1) == timed_out
        else:
            play_a_turn_ending_move(game, people[game.current_seat])
