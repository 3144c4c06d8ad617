"""The game-over and "we moved for you" emails are composed by the worker that sends them,
from a snapshot kept where they are queued (the move that ends a game, the deadline
sweep's automatic moves): the same emails as the ones composed there before (but for the
sign-in link, minted when sent), however far the game has moved on before they are read,
and nothing is put in words for them while queuing.

The oracle (``as_queued``) is the code that composed these emails where they were queued,
kept here: it runs where ``games.notify`` is called, inside the transaction, and renders
what that email would have been; the tests read the real one later and compare.
"""

import json
import random
import re
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from django.utils import translation

from accounts.languages import language_of
from accounts.models import NotificationSettings, User
from accounts.preferences import settings_for
from accounts.schedule import EmailKind
from games import actions
from games.describe import Names, words_for
from games.kinds.piratz import words as piratz_words
from games.kinds.rattenscharf import words as rattenscharf_words
from games.models import Game, GameStatus
from games.notify import auto_moved, common, game_over, links, turn
from notifications.models import OutboundEmail
from notifications.outbox import render_email
from tests.api.secrets_scan import assert_no_secrets
from tests.factories import play_to_the_end, start_game, start_toy_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_and_clock")]


@dataclass
class AsQueued:
    """What ``as_queued`` saw: each email as the old code would have rendered it when it
    was queued (by outbox id, sign-in tokens masked), and the work done while queuing."""

    expected: dict[int, tuple[str, str, str]] = field(default_factory=dict)
    # (email kind, what was called): describing, a game context built, a link signed.
    work: list[tuple[str, str]] = field(default_factory=list)
    counting: str | None = None  # the kind being queued, while the real function runs


@pytest.fixture
def as_queued(monkeypatch) -> AsQueued:
    """Spy on ``game_over.queue_game_over`` and ``queue_auto_moved``: render each email as it
    was composed before it was composed by the worker, and count the composing done while
    queuing."""
    record = AsQueued()

    def counted(name, function):
        def call(*args, **kwargs):
            if record.counting is not None:
                record.work.append((record.counting, name))
            return function(*args, **kwargs)

        return call

    for module in (piratz_words, rattenscharf_words):
        for name in ("describe_table", "describe_result", "describe_auto_moved", "describe_moves"):
            monkeypatch.setattr(module, name, counted(name, getattr(module, name)))
    # Where each is looked up: the message modules and what they share.
    for module in (auto_moved, common, game_over, links, turn):
        for name in ("game_email_context", "game_entry_url", "recap"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, counted(name, getattr(module, name)))

    def spy(kind, real, old_contexts):
        def queue(game, *args, **kwargs):
            before = old_contexts(game, *args, **kwargs)  # by recipient's address
            record.counting = kind
            try:
                queued = real(game, *args, **kwargs)
            finally:
                record.counting = None
            if queued is None:
                return None  # the player does not want it
            for email in queued if isinstance(queued, list) else [queued]:
                # The header's link: the one the email's footer shows (timestamped token).
                unsubscribe = email.headers["List-Unsubscribe"].strip("<>")
                context = common.with_footer(before[email.to], unsubscribe)
                rendered = render_email(kind, context, language=email.language)
                record.expected[email.id] = _masked(rendered)
            return queued

        return queue

    monkeypatch.setattr(
        game_over,
        "queue_game_over",
        spy(EmailKind.GAME_OVER, game_over.queue_game_over, _old_game_over_contexts),
    )
    monkeypatch.setattr(
        auto_moved,
        "queue_auto_moved",
        spy(EmailKind.AUTO_MOVED, auto_moved.queue_auto_moved, _old_auto_moved_contexts),
    )
    return record


def _old_game_over_contexts(game: Game) -> dict[str, dict]:
    """``queue_game_over``'s contexts as it composed them in the move (its code before
    ``_compose_game_over``), by recipient."""
    contexts = {}
    for seat_row in common.people(game):
        prefs = settings_for(seat_row.user)
        if not prefs.wants(EmailKind.GAME_OVER):
            continue
        with translation.override(language_of(seat_row.user)):
            context = common.game_email_context(game, seat_row, prefs.zone)
            view = game.rules.view(game.load_state(), seat_row.seat)
            names = Names(context["names"], seat_row.seat)
            context["result"] = words_for(game.game).describe_result(view["result"], names)
            # Added since: a reader who shares the win reads the others by name.
            winners = view["result"].get("winners", [])
            seat = seat_row.seat
            context["co_winners"] = (
                [names.name(s) for s in winners if s != seat] if seat in winners else []
            )
            # Added since: "Play again" links to the game's page, where the button is.
            context["play_again_link"] = links.game_entry_url(game, seat_row.user)
        contexts[seat_row.user.email] = context
    return contexts


def _old_auto_moved_contexts(game: Game, moves, *, table_before=None) -> dict[str, dict]:
    """``queue_auto_moved``'s context as it composed it in the sweep's transaction (its
    code before ``_compose_auto_moved``), by recipient."""
    move = moves[0]
    seat_row = common.seat_of(game, move.seat)
    if seat_row.user is None:
        return {}
    prefs = settings_for(seat_row.user)
    rules = game.rules
    entries = [m.public_entry(rules) for m in moves]
    with translation.override(language_of(seat_row.user)):
        context = common.game_email_context(game, seat_row, prefs.zone)
        context.update(
            words_for(game.game).describe_auto_moved(
                entries,
                table_before,
                Names(context["names"], move.seat),
                rules,
                hidden=game.blind and game.status == GameStatus.ACTIVE,
            )
        )
        # What a whole round of automatic moves would do (P25, R36): nothing once it is over.
        if game.status != GameStatus.ACTIVE:
            context["abandon_note"] = ""
        elif game.stand_in_bots:
            context["abandon_note"] = context["notes"]["abandon_stand_in"]
        else:
            context["abandon_note"] = context["notes"]["abandon"]
    return {seat_row.user.email: context}


def _masked(email) -> tuple[str, str, str]:
    """(subject, text, HTML) with every sign-in token masked: minted when the email is
    composed, so the old and the new way differ there only."""
    parts = email if isinstance(email, tuple) else (email.subject, email.body_text, email.body_html)
    return tuple(re.sub(r"/enter/[^/\s\"]+/", "/enter/<token>/", part) for part in parts)


def _assert_read_later_as_queued(record: AsQueued, kind: str) -> list[OutboundEmail]:
    queued = OutboundEmail.objects.filter(id__in=list(record.expected), template=kind)
    mails = [mail.rendered() for mail in queued.order_by("id")]
    assert mails, f"no {kind} email was queued"
    for mail in mails:  # read afresh: composed now
        assert _masked(mail) == record.expected[mail.id], (kind, mail.to)
    return mails


def _players(anna, bert, carla, count: int) -> list[User]:
    """Anna reads German in Berlin (another language and zone than the site's), Bert and
    Carla English in UTC."""
    User.objects.filter(pk=anna.pk).update(language="de")
    anna.refresh_from_db()
    NotificationSettings.objects.create(user=anna, time_zone="Europe/Berlin")
    return [anna, bert, carla][:count]


GAMES = [
    pytest.param("piratz", False, 3, id="piratz"),
    pytest.param("piratz", True, 3, id="piratz-blind"),
    pytest.param("rattenscharf", False, 2, id="rattenscharf"),
]


# --- Game over -------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_name", "blind", "count"), GAMES)
def test_game_over_email_read_later_is_the_one_the_last_move_composed(
    as_queued, anna, bert, carla, game_name, blind, count, time_machine
):
    users = _players(anna, bert, carla, count)
    game = play_to_the_end(start_game(users, game=game_name, blind=blind), users)
    assert game.status == GameStatus.FINISHED

    time_machine.shift(timedelta(days=3))  # sent days later (the workers were down)
    mails = _assert_read_later_as_queued(as_queued, EmailKind.GAME_OVER)
    assert sorted(m.to for m in mails) == sorted(u.email for u in users)
    german = next(m for m in mails if m.to == anna.email)
    assert german.subject.startswith("Spielende: ")  # composed in the reader's language


def test_the_move_that_ends_a_game_only_snapshots_its_emails(
    toy_games, as_queued, anna, bert, carla
):
    users = [anna, bert, carla]
    game = play_to_the_end(start_toy_game(users), users)  # any game's: the toy's

    # Nothing put in words, no context built, no link signed inside the move for them.
    assert [w for w in as_queued.work if w[0] == EmailKind.GAME_OVER] == []
    rows = OutboundEmail.objects.filter(template=EmailKind.GAME_OVER)
    assert rows.count() == 3
    for subject, stored in rows.values_list("subject", "context"):
        assert subject == ""  # not rendered either
        assert stored["$compose"] == game_over.GAME_OVER_COMPOSER
        # The game, the seat, the version that ended it, the header's link: nothing else.
        assert set(stored["$arguments"]) == {"game_id", "seat", "version", "unsubscribe_link"}
        assert stored["$arguments"]["version"] == game.version


def test_a_game_over_email_is_not_composed_for_a_game_that_is_no_longer_so(toy_games, anna, bert):
    """A finished game never changes; if one ever did, its game-over email fails (a
    moderator sees it) rather than tell an ending that is not the game's."""
    game = play_to_the_end(start_toy_game([anna, bert]), [anna, bert])
    [mail] = OutboundEmail.objects.filter(template=EmailKind.GAME_OVER, to=anna.email)
    Game.objects.filter(id=game.id).update(version=game.version + 1)
    with pytest.raises(ValueError, match="cannot be composed"):
        OutboundEmail.objects.get(id=mail.id).rendered()


# --- We moved for you ------------------------------------------------------------------------


def _time_out(game: Game, time_machine) -> Game:
    """The deadline passes and the sweep plays the turn (rules P24, R34)."""
    time_machine.move_to(game.deadline, tick=False)
    actions.do_play_timeout(game.id, expected_version=game.version)
    return Game.objects.get(id=game.id)


def _play_with_timeouts(game: Game, users: list[User], time_machine, seed: int) -> Game:
    """Play to the end as ``_play_to_the_end`` does, but about one turn in four times out
    (never twice without a move played between: a whole round of timeouts would abandon
    the game, P25/R36), and so does the move that would end the game."""
    rng = random.Random(seed)
    timed_out = False
    while game.status == GameStatus.ACTIVE:
        rules, state = game.rules, game.load_state()
        reveal = {"action": "reveal"}
        legal = rules.legal_actions(state, game.current_seat)
        action = reveal if reveal in legal else rules.timeout_action(state)
        ends = rules.is_finished(rules.apply(game.load_state(), game.current_seat, action))
        if ends or (not timed_out and rng.random() < 0.25):
            game, timed_out = _time_out(game, time_machine), True
        else:
            actions.do_play_move(game.id, users[game.current_seat], game.version, action)
            game = Game.objects.get(id=game.id)
            timed_out = False  # a move played: this round is not all automatic
    return game


def _stored(mail: OutboundEmail) -> dict:
    return OutboundEmail.objects.values_list("context", flat=True).get(id=mail.id)


@pytest.mark.parametrize(("game_name", "blind", "count"), GAMES)
def test_auto_moved_email_read_after_the_game_moved_on_is_the_one_the_sweep_composed(
    as_queued, anna, bert, carla, game_name, blind, count, time_machine
):
    """Every "we moved for you" email of a whole game, read when the game is over: each
    shows the table, the deadline, the link and (blind mode, P23) the hidden collections
    as they were when its moves were played, the last one the game's end."""
    users = _players(anna, bert, carla, count)
    game = start_game(users, game=game_name, blind=blind, stand_in_bots=False)
    game = _play_with_timeouts(game, users, time_machine, seed=3)
    assert game.status == GameStatus.FINISHED

    time_machine.shift(timedelta(days=3))
    mails = _assert_read_later_as_queued(as_queued, EmailKind.AUTO_MOVED)
    queued_while = [_stored(mail)["$arguments"]["status"] for mail in mails]
    assert queued_while.count("active") >= 2 and queued_while[-1] == "finished"
    assert any("/enter/<token>/" in _masked(mail)[1] for mail in mails)  # a sign-in link
    if blind:
        # Hidden as it was while the game ran, though it is over when the email is read.
        hidden = [m for m, status in zip(mails, queued_while, strict=True) if status == "active"]
        assert all(
            re.search(r"(It took|Genommen): \d+ (cards?|Karten?)\.", m.body_text) for m in hidden
        )


def test_auto_moved_email_of_the_move_that_abandons_the_game_p25(
    as_queued, anna, bert, carla, time_machine
):
    users = _players(anna, bert, carla, 3)
    game = start_game(users, stand_in_bots=False)
    while game.status == GameStatus.ACTIVE:
        game = _time_out(game, time_machine)
    assert game.end_reason == "abandoned"

    mails = _assert_read_later_as_queued(as_queued, EmailKind.AUTO_MOVED)
    assert len(mails) == 3 and _stored(mails[-1])["$arguments"]["status"] == "aborted"


def test_auto_moved_email_names_the_seats_as_they_were_when_it_was_queued(
    as_queued, anna, bert, carla, moderator, settings, time_machine
):
    """A stand-in takes Anna's seat in the sweep's transaction, right after her email is
    queued; a moderator hands Carla's to a bot before it is read: the email names them as
    it would have then."""
    settings.STAND_IN_AFTER_TIMEOUTS = 1
    game = _time_out(start_game([anna, bert, carla], stand_in_bots=True), time_machine)
    assert [s.bot != "" for s in game.seats.order_by("seat")] == [True, False, False]
    actions.do_replace_with_bot(game.id, moderator, 2, reason="away")

    [mail] = _assert_read_later_as_queued(as_queued, EmailKind.AUTO_MOVED)
    assert "with Bert, carla" in mail.subject


def test_the_sweep_only_snapshots_the_auto_moved_email(as_queued, anna, bert, time_machine):
    game = start_game([anna, bert], blind=True)
    game = _time_out(game, time_machine)

    # Nothing put in words, no context built, no link signed in the sweep for it.
    assert [w for w in as_queued.work if w[0] == EmailKind.AUTO_MOVED] == []
    [mail] = OutboundEmail.objects.filter(template=EmailKind.AUTO_MOVED)
    subject, stored = OutboundEmail.objects.values_list("subject", "context").get(id=mail.id)
    assert subject == ""  # not rendered either
    assert stored["$compose"] == auto_moved.AUTO_MOVED_COMPOSER
    arguments = stored["$arguments"]
    # The player's view as the engine gave it, keys in their order too (jsonb sorts them).
    assert arguments["table_view_json"] == json.dumps(game.rules.view(game.load_state(), 0))
    assert arguments["hidden"] is True and arguments["move_numbers"] == [game.version]
    # Never the state: the draw order, the shuffle key, the server's seed.
    assert_no_secrets(json.dumps(stored), game.load_state(), server_seed=game.server_seed)


def test_an_auto_moved_email_queued_with_the_arguments_of_before_is_composed(
    anna, bert, carla, time_machine
):
    """A row queued before the snapshot said whether stand-in bots are on holds the older
    arguments: it is composed all the same, with the game's option (fixed at creation)."""
    _time_out(start_game([anna, bert, carla], stand_in_bots=True), time_machine)
    [mail] = OutboundEmail.objects.filter(template=EmailKind.AUTO_MOVED)
    stored = _stored(mail)
    assert stored["$arguments"].pop("stand_in_bots") is True
    OutboundEmail.objects.filter(id=mail.id).update(context=stored)

    text = OutboundEmail.objects.get(id=mail.id).rendered().body_text  # composed now
    assert "a bot takes over the seat of every player who did not move (rules P25)." in text
    assert "the game ends" not in text
