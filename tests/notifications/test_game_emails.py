"""The game emails: what each kind says, its links and headers, quiet hours, and who gets none."""

import json
import re
from datetime import UTC, datetime, time, timedelta

import pytest
from django.urls import reverse

from accounts.models import NotificationSettings
from accounts.unsubscribe import read_unsubscribe_token, settings_url
from games import actions
from games.kinds.piratz import rules as piratz
from games.kinds.piratz.words import describe_card
from games.models import Game, GameStatus
from games.notify import links, reminder, turn
from games.notify.digest import queue_digest
from games.reply_tokens import read_reply_addresses
from notifications.models import OutboundEmail
from notifications.outbox import build_message, queue_email
from tests.api.secrets_scan import assert_no_secrets
from tests.factories import start_game
from tests.notifications.conftest import START, TURN_CONTEXT, emails, time_out

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_and_clock")]

GAME_KINDS = ["your_turn", "reminder", "auto_moved", "game_started", "game_over", "game_ended"]


def play(game: Game, user, action: dict) -> Game:
    game = actions.do_play_move(game.id, user, game.version, action)
    game.refresh_from_db()
    return game


def first_pass(game: Game, seat: int) -> dict:
    view = piratz.view(game.load_state(), seat)
    return next(a for a in view["legal_actions"] if a["action"] == "pass")


def taking_pass(game: Game, seat: int) -> dict:
    """A pass that takes the first face-up card (so the collection grows)."""
    view = piratz.view(game.load_state(), seat)
    wanted = next(iter(view["face_up"][0]["treasures"]))
    return next(
        a for a in view["legal_actions"] if a["action"] == "pass" and a["treasure"] == wanted
    )


def play_to_the_end(game: Game, users: list) -> Game:
    """Each turn reveals one card, then plays what P24 would: the game ends (P18)."""
    while game.status == GameStatus.ACTIVE:
        state = game.load_state()
        legal = piratz.legal_actions(state, game.current_seat)
        reveal = {"action": "reveal"}
        action = reveal if state.phase == "turn" and reveal in legal else None
        game = play(game, users[game.current_seat], action or piratz.timeout_action(state))
    return game


def prefer(user, **fields) -> NotificationSettings:
    return NotificationSettings.objects.create(user=user, **fields)


@pytest.fixture
def started(anna, bert, carla) -> Game:
    """A 3-player game (seed 7) with the outbox emptied after its start: Anna to move.

    Without stand-in bots (games.bots), so that P25 abandons it as the rules say.
    """
    game = start_game([anna, bert, carla], stand_in_bots=False)
    OutboundEmail.objects.all().delete()
    return game


@pytest.fixture
def bert_to_move(started, anna) -> Game:
    """Anna revealed a card and passed: Bert's turn, and his turn email is queued."""
    game = play(started, anna, {"action": "reveal"})
    return play(game, anna, taking_pass(game, 0))


# --- The start of a game -------------------------------------------------------------------


def test_start_tells_everyone_and_gives_seat_0_its_turn_email(anna, bert, carla):
    game = actions.do_create_game(anna, [anna.email, bert.email, carla.email])
    actions.do_accept_invitation(game.id, bert)
    assert emails("game_started") == []  # not before everyone accepted
    actions.do_accept_invitation(game.id, carla)

    started = emails("game_started")
    assert sorted(e.to for e in started) == [anna.email, bert.email, carla.email]
    bert_mail = next(e for e in started if e.to == bert.email)
    assert bert_mail.subject == "Your game of Piratz with Anna, carla has started"
    assert "Players, in turn order: Anna, Bert, carla" in bert_mail.body_text
    assert "Anna begins; you get an email when it is your turn." in bert_mail.body_text
    assert [e.to for e in emails("your_turn")] == [anna.email]
    anna_start = next(e for e in started if e.to == anna.email)
    assert "You begin" in anna_start.body_text


# --- Your turn -----------------------------------------------------------------------------


def test_turn_email_shows_the_table_as_the_players_view_gives_it(bert_to_move, bert):
    game = bert_to_move
    [mail] = emails("your_turn", bert)
    view = piratz.view(game.load_state(), 1)
    text = mail.body_text

    assert mail.subject == "Your turn in Piratz with Anna, carla"
    assert (
        "Face-up row: " + ("; ".join(describe_card(c) for c in view["face_up"]) or "empty") in text
    )
    for buried in view["buried"]:
        assert f"{describe_card(buried['card'])} under Anna's spade" in text
    cubes = "; ".join(
        f"{name} {', '.join(map(str, values))}" for name, values in view["cubes"].items()
    )
    assert f"Cubes left on the score card: {cubes}" in text
    assert f"Draw pile: {view['draw_pile']} cards; discard pile: {view['discard_pile']}" in text
    assert "LAST ROUND" not in text
    [taken] = view["collected"][0]["cards"]
    assert f"Anna's collection: 1 card: {describe_card(taken)} (" in text
    assert "Your collection: 0 cards\n" in text
    # The same facts in the HTML part.
    assert "Cubes left on the score card:</strong> " + cubes in mail.body_html


def test_turn_email_deadline_is_in_the_players_time_zone(started, anna, bert):
    prefer(bert, time_zone="Europe/Berlin")
    game = play(started, anna, first_pass(started, 0))
    [mail] = emails("your_turn", bert)
    local = game.deadline.astimezone(NotificationSettings(time_zone="Europe/Berlin").zone)
    assert local.tzname() == "CET"
    # 72 hours after Tuesday 10:00 in Berlin.
    assert game.deadline == datetime(2030, 11, 22, 9, 0, tzinfo=UTC)
    assert "Play before Friday 22 November, 10:00 CET" in mail.body_text
    assert "Friday 22 November, 10:00 CET" in mail.body_html


def test_blind_turn_email_shows_counts_not_cards(anna, bert, carla):
    game = start_game([anna, bert, carla], blind=True)
    game = play(game, anna, {"action": "reveal"})
    game = play(game, anna, taking_pass(game, 0))
    view = piratz.view(game.load_state(), 1)
    assert view["collected"][0] == {"count": 1, "cards": None}
    [mail] = emails("your_turn", bert)
    assert "Anna's collection: 1 card (spade placed)\n" in mail.body_text
    assert "Blind mode: collected cards stay hidden until the end" in mail.body_text


def test_last_round_is_marked(started, anna):
    state = started.load_state()
    # Move every card but one from the draw pile to the discard pile: the next reveal
    # empties the draw pile, which makes this the last round (P18).
    data = piratz.dump(state)
    state = piratz.load({**data, "draw": data["draw"][:1], "discard": data["draw"][1:]})
    started.state = piratz.dump(state)
    started.save(update_fields=["state"])
    game = play(started, anna, {"action": "reveal"})
    game = play(game, anna, first_pass(game, 0))
    assert piratz.view(game.load_state(), 1)["last_round"] is True
    [mail] = emails("your_turn")
    assert "Draw pile: 0 cards (LAST ROUND: the draw pile ran out in this round" in mail.body_text
    assert "(last round: the draw pile ran out in this round" in mail.body_html


def test_no_turn_email_inside_a_turn(started, anna):
    play(started, anna, {"action": "reveal"})  # the decide phase: still Anna's turn
    assert emails("your_turn") == []


def test_turn_email_links_to_the_game_signed_in(bert_to_move, bert):
    [mail] = emails("your_turn", bert)
    link = links.game_entry_url(bert_to_move, bert)
    assert link.startswith(f"https://piratz.example/games/{bert_to_move.id}/enter/")
    match = re.search(r"Open the game: (\S+)", mail.body_text)
    assert links.read_entry_token(bert_to_move.id, match.group(1).split("/")[-2]).user == bert
    assert f'href="{match.group(1)}"' in mail.body_html


# --- Quiet hours and what people want ------------------------------------------------------


def test_turn_email_waits_for_the_end_of_quiet_hours(started, anna, bert):
    # 09:00 UTC is 10:00 in Berlin: inside Bert's quiet hours 09:00-12:30 local.
    prefer(bert, time_zone="Europe/Berlin", quiet_start=time(9), quiet_end=time(12, 30))
    play(started, anna, first_pass(started, 0))
    [mail] = emails("your_turn", bert)
    assert mail.send_after == datetime(2030, 11, 19, 11, 30, tzinfo=UTC)


def test_turn_email_outside_quiet_hours_goes_now(started, anna, bert):
    prefer(bert, time_zone="Europe/Berlin", quiet_start=time(23), quiet_end=time(7))
    play(started, anna, first_pass(started, 0))
    [mail] = emails("your_turn", bert)
    assert mail.send_after == START


def test_reminder_waits_for_quiet_hours_and_says_the_deadline(bert_to_move, bert, time_machine):
    prefer(bert, time_zone="Europe/Berlin", quiet_start=time(22), quiet_end=time(7))
    deadline = bert_to_move.deadline
    # Wednesday 23:00 in Berlin: the reminder waits for Thursday 07:00 local.
    time_machine.move_to(datetime(2030, 11, 20, 22, 0, tzinfo=UTC), tick=False)
    mail = reminder.queue_reminder(bert_to_move, 1, deadline).rendered()
    assert mail.send_after == datetime(2030, 11, 21, 6, 0, tzinfo=UTC)
    assert mail.subject.startswith("Reminder: your turn in Piratz with Anna, carla ends Friday")
    assert "It ends\nFriday 22 November, 10:00 CET (in about 35 hours)" in mail.body_text
    assert links.game_entry_url(bert_to_move, bert).rsplit("/", 2)[0] in mail.body_text


def test_reminder_can_be_replied_to_like_the_turn_email(bert_to_move, bert, settings):
    """Its Reply-To names the game's version when it is queued (mailin plays a reply to it
    as one to the turn email), and it says how to reply, as the turn email does."""
    settings.REPLY_ADDRESS = "play@in.example.com"
    game = bert_to_move
    mail = reminder.queue_reminder(game, 1, game.deadline).rendered()
    token = read_reply_addresses([mail.headers["Reply-To"]])
    assert (token.game_id, token.seat, token.user_id, token.version) == (
        game.id,
        1,
        bert.id,
        game.version,
    )
    how = "Or reply to this email with your move on the first line: reveal, end, pass coins"
    assert f"Open the game: {links.game_entry_url(game, bert).rsplit('/', 2)[0]}" in (
        mail.body_text
    )
    assert f"\n{how}" in mail.body_text and f"<p>{how}" in mail.body_html


def test_nothing_for_a_person_who_switched_turn_emails_off(started, anna, bert):
    prefer(bert, mode="off")
    game = play(started, anna, first_pass(started, 0))
    assert emails("your_turn", bert) == []
    assert reminder.queue_reminder(game, 1, game.deadline) is None
    assert OutboundEmail.objects.filter(to=bert.email).count() == 0


def test_digest_mode_gets_no_turn_email_but_a_digest(started, anna, bert):
    prefer(bert, mode="digest")
    game = play(started, anna, first_pass(started, 0))
    assert emails("your_turn", bert) == []
    assert queue_digest(bert, [game]) is True
    [digest] = emails("digest", bert)
    assert digest.subject == "1 game of Piratz waits for your move"
    assert "Piratz with Anna, carla: play before Friday 22 November, 09:00 UTC" in (
        digest.body_text
    )
    assert links.game_entry_url(game, bert) in digest.body_text


def test_digest_lists_only_games_waiting_for_that_player(started, anna, bert, carla):
    prefer(bert, mode="digest")
    other = start_game([carla, bert])  # Carla (seat 0) is to move there, not Bert
    assert queue_digest(bert, [started, other]) is False
    assert emails("digest") == []
    prefer(anna, mode="each_turn")
    assert queue_digest(anna, [started]) is False  # Anna does not want digests


def test_an_unsubscribed_kind_is_not_queued(anna, bert, carla):
    prefer(carla, unsubscribed=["game_started"])
    start_game([anna, bert, carla])
    assert sorted(e.to for e in emails("game_started")) == [anna.email, bert.email]


# --- Links, headers, footer ----------------------------------------------------------------


def test_every_game_email_carries_one_click_unsubscribe_and_the_settings_link(
    anna, bert, carla, moderator, time_machine
):
    prefer(bert, mode="digest")
    game = start_game([anna, bert, carla])
    game = play(game, anna, first_pass(game, 0))
    reminder.queue_reminder(game, 2, game.deadline)
    assert queue_digest(bert, Game.objects.filter(id=game.id))  # Bert is to move
    time_machine.move_to(game.deadline, tick=False)
    actions.do_play_timeout(game.id, expected_version=game.version)
    actions.do_abort_game(game.id, moderator, reason="test")
    play_to_the_end(start_game([anna, bert]), [anna, bert])

    kinds = set(OutboundEmail.objects.values_list("template", flat=True))
    assert kinds >= {*GAME_KINDS, "digest"}
    for mail in OutboundEmail.objects.exclude(template="invitation"):
        unsubscribe = re.fullmatch(
            r"<(https://piratz\.example/unsubscribe/[^/]+/)>", (mail.headers["List-Unsubscribe"])
        ).group(1)
        claim = read_unsubscribe_token(unsubscribe.split("/")[-2])
        assert (claim.user.email, claim.kind) == (mail.to, mail.template)
        assert mail.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        message = build_message(mail).message()
        assert message["List-Unsubscribe"] == f"<{unsubscribe}>"
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert message["Auto-Submitted"] == "auto-generated"
        assert f"Your notification settings: {settings_url()}" in mail.body_text
        assert f"No more emails like this one: {unsubscribe}" in mail.body_text
        assert f'href="{settings_url()}"' in mail.body_html
        assert f'href="{unsubscribe}"' in mail.body_html


def test_outbox_holds_an_email_until_send_after(mailoutbox, django_capture_on_commit_callbacks):
    later = datetime(2030, 11, 19, 12, 0, tzinfo=UTC)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        mail = queue_email("anna@example.com", "test_message", TURN_CONTEXT, send_after=later)
    assert callbacks == [] and mailoutbox == []  # nothing scheduled before it is due
    assert OutboundEmail.objects.get(id=mail.id).send_after == later
    with django_capture_on_commit_callbacks(execute=True):
        queue_email("anna@example.com", "test_message", TURN_CONTEXT, headers={"X-Test": "1"})
    assert [m.extra_headers.get("X-Test") for m in mailoutbox] == ["1"]


# --- The service moved for you, game over, game ended --------------------------------------


def test_auto_moved_says_what_was_played_and_taken(started, anna, time_machine):
    game = play(started, anna, {"action": "reveal"})
    face_up = piratz.view(game.load_state(), 0)["face_up"]
    action = piratz.timeout_action(game.load_state())
    time_machine.move_to(game.deadline, tick=False)
    actions.do_play_timeout(game.id, expected_version=game.version)

    [mail] = emails("auto_moved", anna)
    assert mail.subject == "Your time ran out: the service moved for you in Piratz with Bert, carla"
    taken = [c for c in face_up if c["treasures"].get(action["treasure"])]
    assert f"You passed naming {action['treasure']}" in mail.body_text
    assert "(Played automatically: the deadline had passed.)" in mail.body_text
    assert "It took: " + ("; ".join(describe_card(c) for c in taken) or "nothing") in (
        mail.body_text
    )
    assert "If every move of a whole round is played automatically" in mail.body_text


ABANDON = "If every move of a whole round is played automatically, the game ends (rules P25)."
BOTS_TAKE_OVER = (
    "If every move of a whole round is played automatically, a bot takes over the seat of every "
    "player who did not move (rules P25)."
)


def test_auto_moved_warns_of_p25_only_without_stand_in_bots(anna, bert, carla, time_machine):
    """With stand-in bots on, a whole round of automatic moves does not end the game: a bot
    takes the seats over (docs/bots.md "Bots at the table"), and the email says so instead."""
    game = start_game([anna, bert, carla], stand_in_bots=True)
    time_machine.move_to(game.deadline, tick=False)
    actions.do_play_timeout(game.id, expected_version=game.version)

    [mail] = emails("auto_moved", anna)
    for part in (mail.body_text, mail.body_html):
        assert BOTS_TAKE_OVER in part
        assert "the game ends" not in part


def test_auto_moved_email_of_the_move_that_abandons_the_game_warns_of_nothing(
    started, anna, bert, carla, time_machine
):
    """P25 without stand-in bots: every email of the round but the last warns that the game
    would end; the last one's moves ended it (the game_ended email says why)."""
    game = started
    while game.status == GameStatus.ACTIVE:
        game = time_out(game, time_machine)
    assert game.end_reason == "abandoned"

    *before, last = emails("auto_moved")
    assert [m.to for m in before] == [anna.email, bert.email] and last.to == carla.email
    for mail in before:
        assert ABANDON in mail.body_text and ABANDON in mail.body_html
    for part in (last.body_text, last.body_html):
        assert "If every move of a whole round" not in part


def test_auto_moved_email_of_the_move_that_ends_the_game_warns_of_nothing(anna, bert, time_machine):
    """The last round's last move, played at the deadline, ends the game (P18): no warning
    about an end to come, nor of bots taking over (stand-in bots on here)."""
    game = start_game([anna, bert], stand_in_bots=True)
    users = [anna, bert]
    while True:
        rules, state = game.rules, game.load_state()
        timeout = rules.timeout_action(state)
        if rules.is_finished(rules.apply(game.load_state(), game.current_seat, timeout)):
            break
        reveal = {"action": "reveal"}
        legal = rules.legal_actions(state, game.current_seat)
        game = play(game, users[game.current_seat], reveal if reveal in legal else timeout)
    seat = game.current_seat
    time_machine.move_to(game.deadline, tick=False)
    actions.do_play_timeout(game.id, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED

    [mail] = emails("auto_moved", users[seat])
    for part in (mail.body_text, mail.body_html):
        assert "If every move of a whole round" not in part


def test_game_over_shows_the_final_table_to_everyone(anna, bert):
    game = play_to_the_end(start_game([anna, bert]), [anna, bert])
    result = game.result
    mails = emails("game_over")
    assert sorted(m.to for m in mails) == [anna.email, bert.email]
    anna_mail = next(m for m in mails if m.to == anna.email)
    names = {0: "You", 1: "Bert"}
    for player in result["players"]:
        score = player["score"]
        line = f"- {names[player['seat']]}: {score} point{'' if score == 1 else 's'}"
        assert line in anna_mail.body_text
        assert f"{player['rats']} rat" in anna_mail.body_text
    assert "Every card is public now." in anna_mail.body_text
    final = piratz.view(game.load_state(), 0)
    for card in final["collected"][1]["cards"]:  # Bert's whole collection
        assert describe_card(card) in anna_mail.body_text
    winners = [names[s] for s in result["winners"]]
    assert "Game over: " in anna_mail.subject
    if len(winners) == 1:
        assert f"Winner: {winners[0]}" in anna_mail.body_text
    # Ended games link to the plain game page, which asks to sign in.
    assert f"https://piratz.example/games/{game.id}/\n" in anna_mail.body_text


def test_moderator_abort_tells_the_players(started, moderator, anna, bert, carla):
    actions.do_abort_game(started.id, moderator, reason="spam")
    mails = emails("game_ended")
    assert sorted(m.to for m in mails) == [anna.email, bert.email, carla.email]
    assert "a moderator aborted it" in mails[0].body_text
    assert f"https://piratz.example{reverse('games:game', args=[started.id])}" in (
        mails[0].body_text
    )


def test_abandoned_game_p25_tells_the_players(started, anna, time_machine):
    game = started
    while game.status == GameStatus.ACTIVE:
        game = time_out(game, time_machine)
    assert game.end_reason == "abandoned"
    mails = emails("game_ended")
    assert len(mails) == 3
    assert "abandoned (rules P25)" in mails[0].body_text


# --- The turn email is composed when it is sent --------------------------------------------


def test_turn_email_read_after_the_game_moved_on_shows_its_own_turn(
    bert_to_move, bert, carla, time_machine
):
    """Composed by the worker from the snapshot taken when Bert's turn began: Bert's moves
    since, and Carla's turn (a later deadline), change nothing in it."""
    game = bert_to_move
    [mail] = emails("your_turn", bert)
    as_if_sent_then = _without_entry_tokens(mail)
    stored = OutboundEmail.objects.values_list("context", flat=True).get(id=mail.id)
    assert stored["$compose"] == turn.TURN_EMAIL_COMPOSER

    time_machine.shift(timedelta(hours=5))  # Carla's deadline is not Bert's
    game = play(game, bert, {"action": "reveal"})
    game = play(game, bert, taking_pass(game, 1))
    assert game.current_seat == 2 and emails("your_turn", carla)
    later = OutboundEmail.objects.get(id=mail.id).rendered()  # read afresh: composed now
    # The same email, but for its sign-in link: minted when sent, so it is good for longer.
    assert _without_entry_tokens(later) == as_if_sent_then
    assert "Your collection: 0 cards\n" in later.body_text  # not the card Bert took since
    assert "Bert revealed" not in later.body_text


def test_turn_email_keeps_a_snapshot_without_the_draw_order(bert_to_move, bert):
    game = bert_to_move
    [mail] = emails("your_turn", bert)
    stored = OutboundEmail.objects.values_list("context", flat=True).get(id=mail.id)
    view = piratz.view(game.load_state(), 1)
    # As the engine gave it, keys in their order too (jsonb would sort them).
    assert stored["$arguments"]["table_view_json"] == json.dumps(view)
    assert_no_secrets(json.dumps(stored), game.load_state(), server_seed=game.server_seed)


def _without_entry_tokens(mail: OutboundEmail) -> tuple[str, str, str]:
    return tuple(
        re.sub(r"/enter/[^/\s\"]+/", "/enter/<token>/", text)
        for text in (mail.subject, mail.body_text, mail.body_html)
    )
