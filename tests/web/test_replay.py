"""The replay page (/games/<id>/replay/): the table after each move, rebuilt from the public
log only, stepping by ?step=n, hidden information kept hidden, the scoring explained."""

import random
import re
from itertools import pairwise

import pytest
from django.test import Client

from games import actions
from games.describe import Names
from games.kinds.piratz import rules as piratz
from games.kinds.piratz.replay import FRAME_VIEW_KEYS, explain_scoring, initial_cubes, replay_frames
from games.kinds.piratz.rules.bots import random_action as choose_action
from games.models import Game
from games.movelog import public_log
from tests.browser.hidden import HiddenInformationScan, card_ids
from tests.factories import start_game

pytestmark = pytest.mark.django_db


def play(game: Game, moves: int | None, *, seed: int = 1, watch: int = 0) -> list[dict]:
    """Play ``moves`` random moves (None: to the end) through the actions, as the players.

    Returns the table as seat ``watch`` saw it after each move (index 0: the deal).
    """
    rng = random.Random(seed)
    users = {seat.seat: seat.user for seat in game.seats.select_related("user")}
    game.refresh_from_db()
    seen = [game.table_view(watch)]
    while game.is_active and (moves is None or len(seen) <= moves):
        state = game.load_state()
        seat = piratz.current_seat(state)
        action = choose_action(piratz.legal_actions(state, seat), rng, 0.7)
        game = actions.do_play_move(game.id, users[seat], game.version, action)
        game.refresh_from_db()
        seen.append(game.table_view(watch))
    return seen


def frames_for(game: Game, seat: int | None) -> list[dict]:
    game.refresh_from_db()
    return replay_frames(public_log(game, seat), game.table_view(seat))


def assert_frames_match(frames: list[dict], seen: list[dict]) -> None:
    assert len(frames) == len(seen)
    for number, (frame, view) in enumerate(zip(frames, seen, strict=True)):
        assert frame["number"] == number
        for key in FRAME_VIEW_KEYS:
            if key == "cubes" and view["result"] is not None:
                continue  # awarded cubes have left the score card; the replay keeps them as placed
            assert frame[key] == view[key], f"after move {number}: {key} differs"


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (3, 11), (4, 2)])
def test_frames_rebuilt_from_the_log_equal_the_table_after_every_move(
    players, seed, anna, bert, carla, dirk
):
    """Whole games (reshuffles of the discard pile, rat alerts, the last round included):
    the table rebuilt from the public log alone is the engine's view at every step."""
    game = start_game([anna, bert, carla, dirk][:players], seed=seed)
    seen = play(game, None, seed=seed, watch=1)
    game.refresh_from_db()
    assert game.status == "finished"
    frames = frames_for(game, 1)
    assert_frames_match(frames, seen)
    assert (
        any(
            entry["entry"] and entry["entry"]["action"]["action"] == "resolve_alarm"
            for entry in frames
        )
        or players == 2
    )
    # The cubes as placed at the deal come back from the final view and the awards.
    assert frames[0]["cubes"] == seen[0]["cubes"]


def test_a_game_in_progress_is_rebuilt_up_to_now(anna, bert, carla):
    game = start_game([anna, bert, carla], seed=4)
    seen = play(game, 25, seed=4, watch=2)
    assert_frames_match(frames_for(game, 2), seen)


def test_a_blind_game_shows_only_what_the_log_lets_the_viewer_see(anna, bert, carla):
    """P23: before the viewer's own last move entries are reduced, so the rebuilt table
    does not know the row or what passes took; collections never show their cards."""
    game = start_game([anna, bert, carla], seed=8, blind=True)
    play(game, 30, seed=8)
    game.refresh_from_db()
    frames = frames_for(game, 0)
    log = public_log(game, 0)
    reduced = [
        entry["number"]
        for entry in log
        if entry["revealed"] is None and entry["action"]["action"] == "reveal"
    ]
    assert reduced, "the scenario must have reduced reveals"
    for frame in frames:
        assert all(c["cards"] is None for c in frame["collected"])
        assert frame["unseen"] is None
    # After the first reduced reveal the row is unknown: no guess is shown.
    assert frames[reduced[0]]["face_up"] is None
    shown = {c["id"] for f in frames for c in f["face_up"] or []}
    allowed = {e["revealed"]["id"] for e in log if e["revealed"]}
    assert shown <= allowed


# --- The page ----------------------------------------------------------------------------


def page(client: Client, game: Game, step=None) -> tuple[int, str]:
    url = f"/games/{game.id}/replay/" + ("" if step is None else f"?step={step}")
    response = client.get(url)
    return response.status_code, response.content.decode()


def test_the_page_steps_through_the_moves(anna, bert):
    game = start_game([anna, bert], seed=5)
    play(game, 6, seed=5)
    client = Client()
    client.force_login(bert)
    status, body = page(client, game, 0)
    assert status == 200
    assert "The start: the cards are dealt." in body
    assert 'data-replay-step="next"' in body and 'href="?step=1"' in body
    assert 'data-replay-step="prev"' not in body
    status, body = page(client, game, 1)
    assert "Move 1 of 6" in body and "Anna revealed" in body
    assert 'href="?step=0"' in body and 'href="?step=2"' in body
    first = game.moves.get(number=1).revealed
    face_up = re.search(r'<ol class="cards" aria-label="Face-up row[^"]*">(.*?)</ol>', body, re.S)
    assert f'data-card="{first}"' in face_up.group(1)  # the card move 1 turned up lies face up
    assert f"(#{first})" in face_up.group(1)  # and says so to a screen reader
    # Without ?step the page opens on the table as it is now, and bad steps are clamped.
    for step in (None, 6, 99, "x"):
        assert "Move 6 of 6" in page(client, game, step)[1]
        assert "This is the table as it is now." in page(client, game, step)[1]
    assert "The start" in page(client, game, -3)[1]
    # The keyboard enhancement is a static file; the links work without it.
    assert "games/replay.js" in body


def test_outsiders_get_404_and_strangers_are_asked_to_sign_in(anna, bert, outsider):
    game = start_game([anna, bert], seed=5)
    client = Client()
    response = client.get(f"/games/{game.id}/replay/")
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/games/{game.id}/replay/"
    client.force_login(outsider)
    assert client.get(f"/games/{game.id}/replay/").status_code == 404


def test_a_game_not_started_has_nothing_to_replay(anna, bert):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    client = Client()
    client.force_login(anna)
    status, body = page(client, game)
    assert status == 200 and "nothing to replay" in body


@pytest.mark.playthrough
@pytest.mark.parametrize("blind", [False, True])
def test_no_replay_step_shows_hidden_information_mid_game(anna, bert, carla, blind):
    """Every step of the replay, for every player, mid-game: no shuffle key, no draw
    order, and in blind mode no card the viewer's view and P23 log do not show."""
    game = start_game([anna, bert, carla], seed=9, blind=blind)
    play(game, 40, seed=9)
    game.refresh_from_db()
    assert game.is_active
    reduced_somewhere = False
    for seat, user in enumerate([anna, bert, carla]):
        log = public_log(game, seat)
        reduced_somewhere |= any(
            e["revealed"] is None and e["action"]["action"] == "reveal" for e in log
        )
        client = Client()
        client.force_login(user)
        scan = HiddenInformationScan(game.id, seat)
        for step in range(game.version + 1):
            status, body = page(client, game, step)
            assert status == 200
            scan(f"replay step {step}", body, "text/html")
        assert scan.scanned == game.version + 1
    # In blind mode the scan had something to judge: reduced entries hide revealed cards.
    assert reduced_somewhere == blind


def test_the_blind_scan_catches_a_replay_built_from_the_full_log(anna, bert, carla, monkeypatch):
    """The scan above can fail: a replay fed the spectator's full log shows cards the
    blind viewer may not see any more."""
    game = start_game([anna, bert, carla], seed=9, blind=True)
    play(game, 40, seed=9)
    game.refresh_from_db()
    from games.views import lobby

    full_log = lobby.log_to_describe
    monkeypatch.setattr(lobby, "log_to_describe", lambda g, seat, moves: full_log(g, None, moves))
    client = Client()
    client.force_login(anna)
    scan = HiddenInformationScan(game.id, 0)
    bodies = [page(client, game, step)[1] for step in range(game.version + 1)]

    def scan_all():
        for step, body in enumerate(bodies):
            scan(f"replay step {step}", body, "text/html")

    with pytest.raises(AssertionError, match="blind game shows cards"):
        scan_all()


# --- A finished game: the scoring explained -----------------------------------------------


def finished_result():
    """A hand-made result (three players, two cubes per type) with every kind of decision."""

    def player(seat, rats, cards, **items):
        counts = {t: items.get(t, 0) for t in piratz.TREASURES}
        return {
            "seat": seat,
            "items": counts,
            "rats": rats,
            "cards": cards,
            "cubes": [],
            "score": 0,
        }

    players = [
        player(0, rats=2, cards=6, rings=3, coins=2, pearls=1, gems=2),
        player(1, rats=1, cards=5, rings=3, coins=2, pearls=1, gems=2),
        player(2, rats=1, cards=5, rings=1, coins=4, gems=2),
    ]
    awards = {
        # rings: 3 v 3 broken by rats (Anna 2, Bert 1); Carla third gets nothing (2 cubes)
        "rings": [{"seat": 0, "value": 4}, {"seat": 1, "value": 2}],
        # coins: Carla most; Anna and Bert tie on coins but rats break it
        "coins": [{"seat": 2, "value": 3}, {"seat": 0, "value": 1}],
        # pearls: Anna and Bert 1 each; rats break it
        "pearls": [{"seat": 0, "value": 4}, {"seat": 1, "value": 3}],
        # gems: Bert and Carla tie on everything after Anna: Anna takes 4, the 1 stays
        "gems": [{"seat": 0, "value": 4}],
        "goblets": [],
        "shells": [],
    }
    cubes = {
        "rings": [4, 2],
        "coins": [3, 1],
        "pearls": [4, 3],
        "gems": [4, 1],
        "goblets": [3, 2],
        "shells": [3, 2],
    }
    return {"players": players, "awards": awards, "winners": [0]}, cubes


def test_the_scoring_explanation_names_every_cube_and_tie_break():
    result, cubes = finished_result()
    names = {0: "Anna", 1: "Bert", 2: "Carla"}.__getitem__
    explained = {t["treasure"]: t for t in explain_scoring(result, cubes, names)}
    assert list(explained) == list(piratz.TREASURES)  # rules P1 order
    for treasure, given in result["awards"].items():
        assert explained[treasure]["awards"] == [(a["seat"], a["value"]) for a in given]
    rings = explained["rings"]["lines"]
    assert rings[0] == (
        "Anna takes the 4 cube: tied with Bert on items; the tie-break is more rats (2 to 1)."
    )
    assert rings[1] == "Bert takes the 2 cube: more items than Carla (3 to 1)."
    assert (
        explained["coins"]["lines"][0] == "Carla takes the 3 cube: more items than Anna (4 to 2)."
    )
    gems = explained["gems"]["lines"]
    assert gems[1] == (
        "Bert, Carla are tied on items, rats and cards, so nobody takes the 1 "
        "cube or any later cube of this treasure (rule P20)."
    )
    assert explained["goblets"]["lines"] == [
        "Nobody collected any of this treasure: its cubes stay on the card."
    ]
    pearls = explained["pearls"]["lines"]
    assert pearls[1] == "Bert takes the 3 cube: next in line."
    assert [h["name"] for h in explained["rings"]["holders"]] == ["Anna", "Bert", "Carla"]
    assert explained["rings"]["holders"][0]["tally"] == "3 rings, 2 rats, 6 cards"


def test_fewer_cards_break_a_tie_on_items_and_rats():
    result, cubes = finished_result()
    result["players"][1]["rats"] = 2  # Bert now ties Anna on rings and rats; 5 cards to 6
    result["awards"]["rings"] = [{"seat": 1, "value": 4}, {"seat": 0, "value": 2}]
    names = {0: "Anna", 1: "Bert", 2: "Carla"}.__getitem__
    rings = {t["treasure"]: t for t in explain_scoring(result, cubes, names)}["rings"]
    assert rings["lines"][0] == (
        "Bert takes the 4 cube: tied with Anna on items and rats; "
        "the tie-break is fewer cards (5 to 6)."
    )
    assert rings["awards"] == [(1, 4), (0, 2)]


def reader_lines(seat: int) -> dict[str, list[str]]:
    """The explanation's lines per treasure as the player of ``seat`` reads them: the
    replay page passes ``Names.subject``, which calls that player "You"."""
    result, cubes = finished_result()
    names = Names(["Anna", "Bert", "Carla"], seat).subject
    return {t["treasure"]: t["lines"] for t in explain_scoring(result, cubes, names, seat)}


def test_the_reader_takes_a_cube_in_the_second_person():
    lines = reader_lines(0)  # Anna reads
    assert lines["rings"][0] == (
        "You take the 4 cube: tied with Bert on items; the tie-break is more rats (2 to 1)."
    )
    assert lines["coins"][1] == (
        "You take the 1 cube: tied with Bert on items; the tie-break is more rats (2 to 1)."
    )
    assert lines["pearls"] == [
        "You take the 4 cube: tied with Bert on items; the tie-break is more rats (2 to 1).",
        "Bert takes the 3 cube: next in line.",
    ]
    every = " ".join(line for treasure in lines.values() for line in treasure)
    assert "You takes" not in every


def test_the_reader_is_you_in_the_middle_of_a_sentence():
    lines = reader_lines(0)  # Anna reads: Carla has more coins than her
    assert lines["coins"][0] == "Carla takes the 3 cube: more items than you (4 to 2)."
    lines = reader_lines(1)  # Bert reads: Anna beat him on rats; he and Carla tie on gems
    assert lines["rings"][0] == (
        "Anna takes the 4 cube: tied with you on items; the tie-break is more rats (2 to 1)."
    )
    assert lines["rings"][1] == "You take the 2 cube: more items than Carla (3 to 1)."
    assert lines["pearls"][1] == "You take the 3 cube: next in line."
    assert lines["gems"][1] == (
        "Carla and you are tied on items, rats and cards, so nobody takes the 1 "
        "cube or any later cube of this treasure (rule P20)."
    )
    every = " ".join(line for treasure in lines.values() for line in treasure)
    assert "You" not in every.replace("You take ", "")


def test_a_tie_on_cards_names_the_reader_as_you():
    result, cubes = finished_result()
    result["players"][1]["rats"] = 2  # Bert ties Anna on rings and rats; 5 cards to 6
    names = Names(["Anna", "Bert", "Carla"], 0).subject
    rings = {t["treasure"]: t for t in explain_scoring(result, cubes, names, 0)}["rings"]
    assert rings["lines"][0] == (
        "Bert takes the 4 cube: tied with you on items and rats; "
        "the tie-break is fewer cards (5 to 6)."
    )
    result["players"][2]["items"]["goblets"] = 1
    result["awards"]["goblets"] = [{"seat": 2, "value": 3}]
    names = Names(["Anna", "Bert", "Carla"], 2).subject
    goblets = {t["treasure"]: t for t in explain_scoring(result, cubes, names, 2)}["goblets"]
    assert goblets["lines"] == [
        "You take the 3 cube: the only player holding this treasure.",
        "Nobody else holds this treasure: the 2 cube stays on the card.",
    ]
    assert goblets["awards"] == [(2, 3)]


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (3, 11), (4, 2)])
def test_the_explanation_agrees_with_the_engine_for_whole_games(
    players, seed, anna, bert, carla, dirk
):
    game = start_game([anna, bert, carla, dirk][:players], seed=seed)
    play(game, None, seed=seed)
    game.refresh_from_db()
    view = game.table_view(0)
    explained = explain_scoring(view["result"], initial_cubes(view), str)
    for treasure in explained:
        expected = view["result"]["awards"][treasure["treasure"]]
        assert treasure["awards"] == [(a["seat"], a["value"]) for a in expected]


def test_a_finished_games_last_step_explains_the_scoring(anna, bert, carla):
    game = start_game([anna, bert, carla], seed=11, blind=True)
    play(game, None, seed=11)
    game.refresh_from_db()
    client = Client()
    client.force_login(carla)
    status, body = page(client, game)
    assert status == 200
    assert "The scoring, treasure by treasure" in body
    view = game.table_view(2)
    for name in ("Rings", "Coins", "Pearls", "Gems", "Goblets", "Shells"):
        assert f"<h3>{name} " in body
    for award in (a for given in view["result"]["awards"].values() for a in given):
        # Carla (seat 2) reads her own cubes in the second person.
        said = "You take" if award["seat"] == 2 else "takes"
        assert f"{said} the {award['value']} cube" in body
    assert "You takes" not in body and "than You" not in body and "with You" not in body
    winners = [p for p in view["result"]["players"] if p["seat"] in view["result"]["winners"]]
    assert body.count("— winner") == len(winners)
    # A finished game's whole log is public, blind or not: every step shows its row.
    status, body = page(client, game, 1)
    assert "not known to you" not in body.lower()
    assert card_ids(body)  # the first revealed card, in words


def test_a_blind_replay_says_what_it_cannot_show(anna, bert, carla):
    game = start_game([anna, bert, carla], seed=8, blind=True)
    play(game, 30, seed=8)
    game.refresh_from_db()
    client = Client()
    client.force_login(anna)
    first_reduced = next(
        e["number"]
        for e in public_log(game, 0)
        if e["action"]["action"] == "reveal" and e["revealed"] is None
    )
    status, body = page(client, game, first_reduced)
    assert status == 200
    assert "Blind mode: moves before your own last move" in body
    assert "Face-up row (round" in body and "Not known to you." in body
    assert "data-card=" not in body.split("data-replay-table")[1].split("</section>")[0]
    # The last step is the table now, with whoever is to move.
    now = game.table_view(0)
    body = page(client, game)[1]
    mover = ["you", "Bert", "carla"][now["current_seat"]]  # mid-sentence: "you"
    assert f"Next to move: {mover}." in body
    assert body.count('<li class="player">') == 3


def test_no_blind_note_when_the_log_is_complete(anna, bert):
    game = start_game([anna, bert], seed=5)
    play(game, 6, seed=5)
    client = Client()
    client.force_login(anna)
    assert "Blind mode: moves before" not in page(client, game, 3)[1]


def test_an_aborted_game_replays_to_the_table_as_it_ended(anna, bert, carla, moderator):
    game = start_game([anna, bert, carla], seed=8, blind=True)
    play(game, 12, seed=8)
    actions.do_abort_game(game.id, moderator, reason="test")
    game.refresh_from_db()
    client = Client()
    client.force_login(bert)
    body = page(client, game)[1]
    assert "Move 12 of 12" in body and "Next to move" not in body
    # Ended: the whole log is public, so no step is "not known"; collections stay counts.
    for step in range(13):
        body = page(client, game, step)[1]
        assert "Not known to you." not in body and "Blind mode: moves before" not in body
        assert "cards--small" not in body


def test_steps_tell_rat_alerts_and_round_ends(anna, bert, carla):
    game = start_game([anna, bert, carla], seed=11)
    play(game, 60, seed=11)
    game.refresh_from_db()
    client = Client()
    client.force_login(anna)
    moves = list(game.moves.order_by("number"))
    alerts = [
        m.number
        for m, following in pairwise(moves)
        if m.action["action"] == "reveal" and following.action["action"] == "resolve_alarm"
    ]
    ends = [m.number for m, following in pairwise(moves) if following.round != m.round]
    assert alerts and ends, "the scenario must have both"
    for number in (alerts[0], alerts[0] - 1, ends[0], ends[0] + 1):
        body = page(client, game, number)[1]
        assert ("Rat alert" in body) == (number in alerts)
        ended = f"Round {moves[number - 1].round} ended" in body
        assert ended == (number in ends)


# --- Rattenscharf: the board after each placement (R20, R25, R33) --------------------------


def test_rattenscharf_frames_equal_the_engine_after_every_placement(anna, bert, client):
    from games.kinds.rattenscharf import rules as rattenscharf
    from games.kinds.rattenscharf.replay import rattenscharf_frames

    game = start_game([anna, bert], game="rattenscharf", seed=1)
    users = {0: anna, 1: bert}
    states = [game.load_state()]
    while game.is_active:
        state = game.load_state()
        action = rattenscharf.timeout_action(state)
        game = actions.do_play_move(game.id, users[state.current], game.version, action)
        game.refresh_from_db()
        states.append(game.load_state())
    result = game.result
    assert result["reason"] == "complete"

    frames = rattenscharf_frames(public_log(game, 0), game.table_view(0))
    assert len(frames) == len(states) == 43
    for frame, state in zip(frames, states, strict=True):
        view = rattenscharf.view(state, 0)
        assert frame["scores"] == list(state.points)  # R20: placement points so far
        assert frame["cells"] == view["cells"]
        assert frame["placements"] == view["placements"]
        assert frame["last_scoring"] == view["last_scoring"]
        assert frame["visible_rats"] == view["visible_rats"]

    client.force_login(anna)
    page = client.get(f"/games/{game.id}/replay/?step=3").content.decode()
    assert "Placement 3 of 42 (turn 2)" in page
    assert 'id="rs-replay"' in page  # the table helper's board include
    scores = re.findall(r'data-score="(\d+)"', page)
    assert scores == [str(p) for p in states[3].points]
    last = client.get(f"/games/{game.id}/replay/").content.decode()
    assert "Final scoring (rule R25):" in last
    for player in result["players"]:
        assert (
            f"{player['score']} points ({player['placement_points']} from placements, "
            f"{player['final_points']} from the final scoring)" in last
        )
    # R33: no strip of the pile's order appears (nothing is left in it once finished, so
    # check a page from the middle of the game against the pile then).
    pile_then = set(states[3].pile)
    named = {int(n) for n in re.findall(r"strip (\d+)", page)}
    assert not named & pile_then


def finished_rattenscharf(anna, bert) -> Game:
    """Seed 1 played by the stand-in's moves to the end (42 placements)."""
    from games.kinds.rattenscharf import rules as rattenscharf

    game = start_game([anna, bert], game="rattenscharf", seed=1)
    users = {0: anna, 1: bert}
    while game.is_active:
        state = game.load_state()
        action = rattenscharf.timeout_action(state)
        game = actions.do_play_move(game.id, users[state.current], game.version, action)
        game.refresh_from_db()
    return game


def test_rattenscharf_replay_says_1_point_and_1_rat(anna, bert, client, monkeypatch):
    from games.kinds.rattenscharf import words

    game = finished_rattenscharf(anna, bert)
    client.force_login(anna)
    # After placement 3 Anna has 0 points and Bert 1, and each shows 1 rat.
    page = client.get(f"/games/{game.id}/replay/?step=3").content.decode()
    assert "You (red): 0 points, 1 rat showing" in page
    assert "Bert (green): 1 point, 1 rat showing" in page
    assert not re.search(r"\b1 (points|rats)\b", page)

    describe_result = words.describe_result

    def one_point_for_bert(result, names):
        described = describe_result(result, names)
        described["players"][1].update(score=1, placement_points=1, final_points=0)
        return described

    monkeypatch.setattr(words, "describe_result", one_point_for_bert)
    last = client.get(f"/games/{game.id}/replay/").content.decode()
    assert "Bert (green): 1 point (1 from placements, 0 from the final scoring)" in last
    assert not re.search(r"\b1 points\b", last)


def test_the_reader_to_move_next_is_you_mid_sentence(anna, bert):
    game = start_game([anna, bert])  # Anna (seat 0) is to move
    client = Client()
    client.force_login(anna)
    body = page(client, game)[1]
    assert "Next to move: you." in body and "Next to move: You." not in body


def test_a_rattenscharf_resignation_is_a_replay_step_of_its_own(anna, bert, client):
    """R37: the resignation ends the game; the replay's last step says so (issue 25)."""
    from games.kinds.rattenscharf import rules as rattenscharf
    from games.kinds.rattenscharf.replay import rattenscharf_frames

    game = start_game([anna, bert], game="rattenscharf", seed=1)
    users = {0: anna, 1: bert}
    for _ in range(3):
        state = game.load_state()
        action = rattenscharf.timeout_action(state)
        game = actions.do_play_move(game.id, users[state.current], game.version, action)
    game = actions.do_resign(game.id, bert, game.version)
    game.refresh_from_db()

    frames = rattenscharf_frames(public_log(game, 0), game.table_view(0))
    assert len(frames) == 5  # the start, three placements, the resignation
    assert frames[-1]["resigned"] and frames[-1]["entry"]["action"] == {"action": "resign"}
    assert frames[-1]["placements"] == frames[-2]["placements"]  # the board stays
    client.force_login(anna)
    last = client.get(f"/games/{game.id}/replay/").content.decode()
    assert "Step 4 of 4: a resignation (rule R37)" in last
    assert "Bert resigned." in last
    assert "This placement scored nothing." not in last
