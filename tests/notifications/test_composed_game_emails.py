"""The game-over email is composed by the worker that sends it, from a snapshot the move
keeps: the same email as the one the move itself used to compose (but for the sign-in
link, minted when sent), however long it waits, and the move no longer puts anything in
words for it.

The oracle (``as_queued``) is the code that composed these emails inside the move, kept
here: it runs where ``games.notify`` is called, inside the move's transaction, and
renders what that email would have been; the test reads the real one later and compares.
"""

import re
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from django.utils import translation

from accounts.languages import language_of
from accounts.models import NotificationSettings, User
from accounts.preferences import EmailKind, settings_for
from games import actions, notify
from games.describe import Names, words_for
from games.describe import piratz as piratz_words
from games.describe import rattenscharf as rattenscharf_words
from games.models import Game, GameStatus
from notifications.models import OutboundEmail
from notifications.outbox import render_email
from tests.factories import start_game

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
    """Spy on ``notify.queue_game_over``: render each email as it was composed before it
    was composed by the worker, and count the composing done while queuing."""
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
    for name in ("_game_context", "game_entry_url", "recap"):
        monkeypatch.setattr(notify, name, counted(name, getattr(notify, name)))

    def spy(kind, real, old_contexts):
        def queue(game, *args, **kwargs):
            before = old_contexts(game, *args, **kwargs)  # by recipient's address
            record.counting = kind
            try:
                queued = real(game, *args, **kwargs)
            finally:
                record.counting = None
            for email in queued if isinstance(queued, list) else [queued] * (queued is not None):
                # The header's link: the one the email's footer shows (timestamped token).
                unsubscribe = email.headers["List-Unsubscribe"].strip("<>")
                context = notify._with_footer(before[email.to], unsubscribe)
                rendered = render_email(kind, context, language=email.language)
                record.expected[email.id] = _masked(rendered)
            return queued

        return queue

    monkeypatch.setattr(
        notify,
        "queue_game_over",
        spy(EmailKind.GAME_OVER, notify.queue_game_over, _old_game_over_contexts),
    )
    return record


def _old_game_over_contexts(game: Game) -> dict[str, dict]:
    """``queue_game_over``'s contexts as it composed them in the move (its code before
    ``_compose_game_over``), by recipient."""
    contexts = {}
    for seat_row in notify._people(game):
        prefs = settings_for(seat_row.user)
        if not prefs.wants(EmailKind.GAME_OVER):
            continue
        with translation.override(language_of(seat_row.user)):
            context = notify._game_context(game, seat_row, prefs)
            view = game.rules.view(game.load_state(), seat_row.seat)
            names = Names(context["names"], seat_row.seat)
            context["result"] = words_for(game.game).describe_result(view["result"], names)
        contexts[seat_row.user.email] = context
    return contexts


def _masked(email) -> tuple[str, str, str]:
    """(subject, text, HTML) with every sign-in token masked: minted when the email is
    composed, so the old and the new way differ there only."""
    parts = email if isinstance(email, tuple) else (email.subject, email.body_text, email.body_html)
    return tuple(re.sub(r"/enter/[^/\s\"]+/", "/enter/<token>/", part) for part in parts)


def _assert_read_later_as_queued(record: AsQueued, kind: str) -> list[OutboundEmail]:
    queued = OutboundEmail.objects.filter(id__in=list(record.expected), template=kind)
    mails = list(queued.order_by("id"))
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


def _play_to_the_end(game: Game, users: list[User]) -> Game:
    """Reveal where the rules allow it, else play the automatic move's choice."""
    while game.status == GameStatus.ACTIVE:
        rules, state = game.rules, game.load_state()
        reveal = {"action": "reveal"}
        legal = rules.legal_actions(state, game.current_seat)
        action = reveal if reveal in legal else rules.timeout_action(state)
        actions.do_play_move(game.id, users[game.current_seat], game.version, action)
        game = Game.objects.get(id=game.id)
    return game


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
    game = _play_to_the_end(start_game(users, game=game_name, blind=blind), users)
    assert game.status == GameStatus.FINISHED

    time_machine.shift(timedelta(days=3))  # sent days later (the workers were down)
    mails = _assert_read_later_as_queued(as_queued, EmailKind.GAME_OVER)
    assert sorted(m.to for m in mails) == sorted(u.email for u in users)
    german = next(m for m in mails if m.to == anna.email)
    assert german.subject.startswith("Spielende: ")  # composed in the reader's language


def test_the_move_that_ends_a_game_only_snapshots_its_emails(as_queued, anna, bert, carla):
    users = [anna, bert, carla]
    game = _play_to_the_end(start_game(users), users)

    # Nothing put in words, no context built, no link signed inside the move for them.
    assert [w for w in as_queued.work if w[0] == EmailKind.GAME_OVER] == []
    rows = OutboundEmail.objects.filter(template=EmailKind.GAME_OVER)
    assert rows.count() == 3
    for subject, stored in rows.values_list("subject", "context"):
        assert subject == ""  # not rendered either
        assert stored["$compose"] == notify.GAME_OVER_COMPOSER
        # The game, the seat, the version that ended it, the header's link: nothing else.
        assert set(stored["$arguments"]) == {"game_id", "seat", "version", "unsubscribe_link"}
        assert stored["$arguments"]["version"] == game.version


def test_a_game_over_email_is_not_composed_for_a_game_that_is_no_longer_so(anna, bert):
    """A finished game never changes; if one ever did, its game-over email fails (a
    moderator sees it) rather than tell an ending that is not the game's."""
    game = _play_to_the_end(start_game([anna, bert]), [anna, bert])
    [mail] = OutboundEmail.objects.filter(template=EmailKind.GAME_OVER, to=anna.email)
    Game.objects.filter(id=game.id).update(version=game.version + 1)
    with pytest.raises(ValueError, match="cannot be composed"):
        OutboundEmail.objects.get(id=mail.id).subject  # noqa: B018 (reading composes it)
