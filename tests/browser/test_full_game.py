"""Whole games played in two browsers: from the emails' links to the final table, in
English on a desktop and a phone, and a blind game with a rat alert in German. The
browsers click the first and the last moves; the middle is played on the server (as the
players' other devices would) and arrives on the pages by itself. Every page is checked
as conftest.Visitor says (console, axe, secrets)."""

import random

import pytest

from games.kinds.piratz import rules as piratz
from games.models import Game, GameStatus
from tests.browser import flows
from tests.browser.conftest import PHONE, Visitor
from tests.browser.hidden import HiddenInformationScan
from tests.factories import deal_from_seed, make_user, start_game

pytestmark = pytest.mark.browser

# A whole 2-player game is about 90 moves; a bug that loops must not run forever.
MOVE_LIMIT = 300
# Seed 4, 2 players: Anna reveals a rat, ends her turn; Bert's first reveal is the second
# rat in the face-up row, a rat alert (rules P11, P14) at version 3.
RAT_ALERT_SEED = 4
# The whole game from the invitation email is dealt from a seed too: with a random deal,
# a few in 10,000 put a run of the draw pile's top among a page's own numbers (a
# card drawing's "6 11 #id 12"), which the hidden-information scan reports as a leak.
WHOLE_GAME_SEED = 7


def choose_action(offered: set[str], rng: random.Random) -> str:
    """A playful policy over the offered move kinds: mostly reveal, sometimes pass."""
    if "resolve_alarm" in offered:
        return "resolve_alarm"
    if "end_turn" in offered:  # decide phase (P11): stop or take
        return "pass" if rng.random() < 0.35 else "end_turn"
    if "reveal" in offered and rng.random() < 0.9:
        return "reveal"
    return "pass"


def play_to_the_end(
    game: Game, seats: dict[int, Visitor], rng: random.Random, shots: str | None, until=None
):
    """Play ``game`` to its end (or until ``until(game)``) in the seated players' browsers,
    one click per move; returns the kinds of move played.

    The player to move plays on their page (which first sees the last move arrive by its
    live refresh); the other's page offers no move. Every click must add exactly one to
    the table's version. Screenshots of the table (``<shots>-desktop.png``, ``-phone``) at
    the first move of round 2 or later: a table with collections, buried cards and cubes.
    """
    seen_kinds: set[str] = set()
    shot_taken = False
    for _ in range(MOVE_LIMIT):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        mover = seats[game.current_seat]
        if flows.table_version(mover) != game.version:
            mover.live_refresh()  # the page sees the other's move arrive by itself
            assert flows.table_version(mover) == game.version
        for visitor in seats.values():
            if visitor.page.viewport_size == PHONE:
                visitor.assert_no_horizontal_scroll()
        if shots and not shot_taken and game.round >= 2:
            for visitor in seats.values():
                screen = "phone" if visitor.page.viewport_size == PHONE else "desktop"
                visitor.screenshot(f"{shots}-{screen}")
            shot_taken = True
        if until is not None and until(game):
            return seen_kinds
        offered = flows.offered_actions(mover)
        assert offered, f"{mover.name}'s turn, but the page offers no move"
        for other in seats.values():
            if other is not mover and flows.table_version(other) == game.version:
                assert not flows.offered_actions(other), f"{other.name} is offered a move"
        action = choose_action(offered, rng)
        seen_kinds.add(action)
        flows.play(mover, action, rng)
        assert flows.table_version(mover) == game.version + 1, "one click, one move"
    else:
        pytest.fail(f"the game did not end in {MOVE_LIMIT} moves")
    return seen_kinds


def test_two_players_play_a_whole_game_from_the_invitation_email(site, visitors):
    """Anna signs in and creates the game; Bert, on a phone, accepts from the invitation
    email; both open the game from its emails, click through its first round, see the
    middle arrive, and click its last moves to the final table."""
    anna = visitors("Anna")
    flows.sign_in(anna, "anna@example.com")
    game = flows.create_game(anna, ["anna@example.com", "bert@example.com"])
    bert = visitors("Bert", viewport=PHONE)
    flows.accept_invitation(bert, "bert@example.com")
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    deal_from_seed(game, WHOLE_GAME_SEED)

    seats = {0: anna, 1: bert}
    for seat, visitor in seats.items():
        visitor.scanners.append(HiddenInformationScan(game.id, seat))
        flows.enter_game(visitor, f"{visitor.name.lower()}@example.com", game.id)

    # A move from a tab showing an older table is refused with a message, on the table.
    rng = random.Random(8)
    stale_tab = anna.second_tab()
    # A tab whose live stream is gone (a laptop woken from sleep) stays as it was opened
    # (its version poll is held, as in every test).
    stale_tab.page.route("**/games/*/events", lambda route: route.fulfill(status=204))
    stale_tab.open(f"/games/{game.id}/")
    flows.play(anna, "reveal", rng)
    flows.play(stale_tab, "reveal", rng)
    assert stale_tab.page.get_by_role("alert").count(), "a stale move says why it was refused"
    assert flows.table_version(stale_tab) == 1, "and shows the table as it is now"

    # Round 1 by clicking (the screenshots at the first move of round 2); the middle is
    # played elsewhere (their other devices, the API) and the pages see it arrive; the last
    # round by clicking again, to the final table.
    kinds = play_to_the_end(game, seats, rng, shots="table-en", until=lambda g: g.round >= 2)
    game = flows.play_on_server(
        game,
        [s.user for s in game.seats.order_by("seat")],
        until=lambda g: len(g.load_state().draw) <= 6,
    )
    kinds |= play_to_the_end(game, seats, rng, shots=None)

    assert {"reveal", "end_turn", "pass"} <= kinds

    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    flows.step_through_the_replay(anna, game, arrows=3)
    anna.open("/games/")
    anna.open("/settings/")
    for visitor in (anna, bert):
        visitor.open(f"/games/{game.id}/")
        assert not flows.offered_actions(visitor)
        assert visitor.page.get_by_text("Final scores").count()
        assert visitor.scanners[0].scanned > 0, "the hidden-information scan never ran"
    anna.screenshot("final-en-desktop")


def test_a_blind_game_with_a_rat_alert_in_german(site, visitors):
    """Seed 4 deals a rat alert to Bert's first turn. In blind mode nobody's page shows a
    collected card before the end (the scan checks every page; here the kept rat is
    followed by hand), and the final table shows them all."""
    anna_user = make_user("anna@example.com", display_name="Anna")
    bert_user = make_user("bert@example.com", display_name="Bert")
    game = start_game([anna_user, bert_user], seed=RAT_ALERT_SEED, blind=True)
    anna = visitors("Anna", locale="de-DE")
    bert = visitors("Bert", viewport=PHONE, locale="de-DE")
    seats = {0: anna, 1: bert}
    for seat, visitor in seats.items():
        visitor.scanners.append(HiddenInformationScan(game.id, seat))
        flows.enter_game(visitor, f"{visitor.name.lower()}@example.com", game.id)
        assert visitor.page.locator("html").get_attribute("lang") == "de"

    rng = random.Random(4)
    flows.play(anna, "reveal", rng)
    flows.play(anna, "end_turn", rng)
    bert.reload()
    flows.play(bert, "reveal", rng)
    assert flows.offered_actions(bert) == {"resolve_alarm"}, "the second rat is a rat alert"
    bert.screenshot("rat-alert-de-phone")
    flows.play(bert, "resolve_alarm", rng)
    game.refresh_from_db()
    kept = game.moves.get(number=4).action["keep"]
    assert piratz.view(game.load_state(), 1)["collected"][1] == {"count": 1, "cards": None}
    flows.step_through_the_replay(bert, game)  # a blind game's replay, scanned step by step
    bert.open(f"/games/{game.id}/")

    # Anna watched Bert's move, so her log may tell it once; after her next move it is
    # memory (rules P23), and no page of hers shows the kept rat again.
    anna.reload()
    flows.play(anna, "reveal", rng)
    assert f"(#{kept})" not in anna.page.content()

    # The middle of the game is played elsewhere (their other devices, the API); the
    # browsers see it arrive and click the last round to the end.
    game = flows.play_on_server(
        game, [anna_user, bert_user], until=lambda game: len(game.load_state().draw) <= 4
    )
    play_to_the_end(game, seats, rng, shots="table-de")
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    bert.reload()
    assert f"#{kept})" in bert.page.content(), "the final table shows the collections"
