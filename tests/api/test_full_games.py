"""Whole games through HTTP: every view equals the engine's, and nothing secret leaks."""

import pytest

from games.kinds.piratz import rules as piratz
from games.models import Game, Move
from notifications.models import OutboundEmail
from tests.factories import client_for, start_game

from .playthrough import play_over_http
from .secrets_scan import assert_no_secrets

pytestmark = [pytest.mark.django_db, pytest.mark.slow, pytest.mark.playthrough]


def scan_new_emails(game, after_id: int, state, *, blind: bool) -> tuple[int, int]:
    """Scan the emails ``game`` queued since row ``after_id`` against ``state``, the state the
    move that queued them left behind; returns (the newest row id, how many were scanned)."""
    emails = OutboundEmail.objects.filter(topic=f"game:{game.id}", id__gt=after_id).order_by("id")
    newest, scanned = after_id, 0
    for email in emails:
        email.rendered()  # as the worker sends it
        for text in (email.subject, email.body_text, email.body_html):
            assert_no_secrets(text, state, blind_viewer=blind)
        newest, scanned = email.id, scanned + 1
    return newest, scanned


def play_whole_game(seated, *, seed: int, blind: bool = False, caplog=None):
    """Play a whole game over HTTP, checking every answer, and every email the moves queue,
    against the engine; returns the game and how many emails its moves queued."""
    game = start_game(seated, seed=seed, blind=blind)
    clients = [client_for(user) for user in seated]
    state = piratz.load(Game.objects.get(id=game.id).state)
    # The game-started and first your-turn emails, judged against the state as dealt.
    last_email, emails_scanned = scan_new_emails(game, 0, state, blind=blind)
    version = 0
    for move in play_over_http(game, clients, seed=seed):
        seat, state, version, response = move.seat, move.after, move.version, move.response
        body = response.json()
        assert body["version"] == version
        assert body["state"] == piratz.view(state, seat)
        # Everything the API says was judged against the state it was showing.
        assert_no_secrets(response.content.decode(), state, blind_viewer=blind)
        watcher = (seat + 1) % len(seated)
        other = clients[watcher].get(f"/api/games/{game.id}/")
        assert other.json()["state"] == piratz.view(state, watcher)
        assert_no_secrets(other.content.decode(), state, blind_viewer=blind)
        log = clients[watcher].get(f"/api/games/{game.id}/moves/")
        assert_no_secrets(log.content.decode(), state, blind_viewer=blind)
        assert len(log.json()) == version
        last_email, scanned = scan_new_emails(game, last_email, state, blind=blind)
        emails_scanned += scanned

    game.refresh_from_db()
    assert game.status == "finished"
    assert game.deadline is None and game.current_seat is None
    assert game.result == piratz.view(state, None)["result"]
    final = clients[0].get(f"/api/games/{game.id}/").json()
    assert final["status"] == "finished"
    assert final["state"]["result"]["winners"]
    assert Move.objects.filter(game=game).count() == version
    if caplog is not None:
        assert_no_secrets(caplog.text, state)
    return game, emails_scanned


@pytest.mark.parametrize(("count", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_whole_game_over_http(players, count, seed, caplog):
    game, emails_scanned = play_whole_game(players[:count], seed=seed, caplog=caplog)
    # At least a game-started email per player, turn emails, and the final table: the
    # scan above really read the game's emails (an empty loop would prove nothing).
    assert emails_scanned >= 2 * count + game.round


def test_whole_blind_game_over_http_hides_collections(players):
    game, emails_scanned = play_whole_game(players[:3], seed=21, blind=True)
    assert emails_scanned >= 2 * 3 + game.round
