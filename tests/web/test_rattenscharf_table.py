"""The Rattenscharf table in the browser without JavaScript (Django test client): the board
drawn from the view (R31), only legal placements offered (R29), the move forms, refused
moves as messages, German, the create form and lists naming the game, and no draw order
in any page (R33)."""

import html
import json
import re
from datetime import timedelta

import pytest
import time_machine
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import actions, describe
from games.kinds.rattenscharf import rules as rs
from games.kinds.rattenscharf import table as rs_table
from games.kinds.rattenscharf import words
from games.kinds.rattenscharf.rules.strips import STRIPS
from games.models import Game
from games.movelog import public_log
from tests.browser.hidden import PileOrderScan
from tests.rules.rattenscharf.helpers import EXAMPLE_5, GAME_A, GAME_R, act, order
from tests.web.test_table import messages_of, move_forms, page_of, signed_in, submit, table_url

pytestmark = pytest.mark.django_db


def rattenscharf_game(anna, bert, *, first=GAME_A, seed=None) -> Game:
    """Anna (red, seat 0) and Bert (green) at a started game dealt from the spec's order
    ``first`` (the strips named, then the rest by id), or from ``seed``."""
    game = actions.do_create_game(anna, [anna.email, bert.email], game="rattenscharf")
    actions.do_accept_invitation(game.id, bert)
    game.refresh_from_db()
    state = rs.new_game(seed=seed) if seed is not None else rs.new_game(order=order(*first))
    game.state = rs.dump(state)
    game.save(update_fields=["state"])
    return game


def play(game: Game, users, *moves) -> Game:
    for move in moves:
        seat = game.current_seat
        game = actions.do_play_move(game.id, users[seat], game.version, move)
    return game


def offered(page: str) -> set[tuple]:
    """Every placement the page's list forms offer, as (strip, x, y, orientation, flip)."""
    found = set()
    for form in move_forms(page):
        if "placement" not in form["choices"]:
            continue
        for value in form["choices"]["placement"]:
            x, y, orientation, flip = value.split(",")
            found.add((int(form["fields"]["strip"]), int(x), int(y), orientation, flip == "1"))
    return found


def as_tuples(actions_list) -> set[tuple]:
    return {(a["strip"], a["x"], a["y"], a["orientation"], a["flip"]) for a in actions_list}


def play_data(page: str) -> dict:
    found = re.search(r'<script id="rs-play-data" type="application/json">(.*?)</script>', page)
    return json.loads(found.group(1)) if found else {}


def test_the_board_is_drawn_for_both_seats_and_a_spectator(anna, bert, moderator):
    """R31: every visible cell with its symbol in words and its height; the title names
    the game by its rules' NAME."""
    game = play(rattenscharf_game(anna, bert), [anna, bert], act(1, 2, 0), act(3, 2, 1))
    view = rs.view(game.load_state(), None)
    for user, you in ((anna, "Anna (you)"), (bert, "Bert (you)"), (moderator, None)):
        page = page_of(signed_in(user), game)
        assert "<title>Rattenscharf with Anna, Bert" in page
        assert re.search(r"<h1[^>]*>Rattenscharf with Anna, Bert</h1>", page)
        for cell in view["cells"]:
            label = f"({cell['x']}, {cell['y']}): {words.symbol_name(cell['symbol'])}"
            assert f"<title>{label}, height {cell['height']}</title>" in page
        assert page.count('class="rs-cell"') == len(view["cells"])
        assert "Draw pile: 39 strips." in page
        assert ("(you)" in page) == (you is not None)
        if you:
            assert you in page
    # Bert is to move (turn 2, one strip left in his hand): only his page offers placements.
    assert offered(page_of(signed_in(bert), game))
    assert not move_forms(page_of(signed_in(anna), game))
    assert not move_forms(page_of(signed_in(moderator), game))


def test_r29_only_the_legal_placements_are_offered_in_the_lists_and_on_the_board(anna, bert):
    game = play(rattenscharf_game(anna, bert), [anna, bert], act(1, 2, 0))
    page = page_of(signed_in(bert), game)
    legal = rs.legal_actions(game.load_state(), 1)
    assert offered(page) == as_tuples(legal) and len(legal) > 100
    data = play_data(page)
    on_board = {
        (int(strip), int(key.split(",")[0]), int(key.split(",")[1]), key.split(",")[2], bool(f))
        for strip, windows in data["moves"].items()
        for key, flips in windows.items()
        for f, outcome in enumerate(flips)
        if outcome is not None
    }
    assert on_board == as_tuples(legal)
    # The board form posts the same fields; it is there for the script to show.
    [board_form] = [f for f in move_forms(page) if "placement" in f["fields"]]
    assert board_form["fields"]["version"] == "1" and board_form["fields"]["strip"] == "3"


def test_r20_each_option_says_what_it_would_score_and_the_rats_it_leaves(anna, bert):
    """Example 1: 13@(0,0)h gives green 1 point (basil pair); Example 5: 24@(-1,2)h shows
    red's third rat, and as the turn's last strip it would lose."""
    game = play(rattenscharf_game(anna, bert), [anna, bert], act(1, 2, 0), act(3, 2, 1))
    page = page_of(signed_in(bert), game)
    assert (
        '<option value="0,0,h,0">from (0, 0) across: green cardamom, red chili, green basil — '
        "points red 0, green 1; rats visible after: red 0, green 0</option>"
    ) in page
    data = play_data(page)
    assert data["moves"]["13"]["0,0,h"][0] == [0, 1, 0, 0, 0]

    # Example 5's fourth placement shows red's third visible rat, harmless mid-turn (R22).
    rats = play(rattenscharf_game(anna, bert, first=GAME_R), [anna, bert], *EXAMPLE_5[:4])
    page = page_of(signed_in(anna), rats)
    # Strip 33 is the turn's last: covering the rat at (3, 0) saves red, the rest loses.
    assert (
        '<option value="1,0,h,0">from (1, 0) across: red cinnamon, green jalapeno, empty'
        " — points red 0, green 1; rats visible after: red 2, green 1</option>"
    ) in page
    moves = play_data(page)["moves"]["33"]
    assert moves["1,0,h"][0] == [0, 1, 2, 1, 0]
    assert moves["-1,-1,h"][0][2:] == [3, 1, 1]  # R23: three red rats at the end loses
    assert "you would lose to your rats" in page


def test_r22_two_visible_rats_of_a_colour_are_marked_as_danger(anna, bert):
    game = play(rattenscharf_game(anna, bert, first=GAME_R), [anna, bert], *EXAMPLE_5[:3])
    page = page_of(signed_in(bert), game)
    red = page[page.index('data-seat="0"') : page.index('data-seat="1"')]
    green = page[page.index('data-seat="1"') :]
    assert 'data-rats="2"' in red and "danger: one more at the end of their own turn" in red
    assert 'data-rats="1"' in green and "danger" not in green[: green.index("</li>")]


def test_r22_the_rat_count_says_how_many_show_and_where_a_player_loses(anna, bert):
    # R22: the count is of the colour's visible rats; 3 at the end of one's own turn lose.
    # It is no share of 3 ("6 of 3 rats visible"): the other colour may show more.
    game = play(rattenscharf_game(anna, bert, first=GAME_R), [anna, bert], *EXAMPLE_5[:3])
    running = page_of(signed_in(bert), game)
    assert "2 rats visible (losing at 3)" in running and "1 rat visible (losing at 3)" in running
    game = play(game, [anna, bert], *EXAMPLE_5[3:])
    assert rs.view(game.load_state(), None)["result"]["reason"] == "rats"
    ended = page_of(signed_in(bert), game)
    counts = re.findall(r'data-rats="(\d+)">([^<]*)<', ended)
    assert len(counts) == 2 and all(
        text == (f"{rats} rat visible" if rats == "1" else f"{rats} rats visible")
        for rats, text in counts
    )


def test_a_list_form_places_the_strip_and_comes_back_to_the_table(anna, bert):
    game = rattenscharf_game(anna, bert)
    client = signed_in(anna)
    [form] = [f for f in move_forms(page_of(client, game)) if "placement" in f["choices"]]
    assert form["fields"] == {
        "csrfmiddlewaretoken": form["fields"]["csrfmiddlewaretoken"],
        "version": "0",
        "action": "place",
        "strip": "1",
    }
    value = "2,0,h,0"
    index = form["choices"]["placement"].index(value)
    response = submit(client, form, index)
    assert response.status_code == 302 and response["Location"] == table_url(game)
    game.refresh_from_db()
    assert game.version == 1 and game.current_seat == 1
    assert game.moves.get().action == act(1, 2, 0)
    page = client.get(response["Location"]).content.decode()
    assert "Your move was played." in messages_of(page)
    assert "You placed strip 1 (red chili, green basil, red saffron) at (2, 0)" in page


def log_lines(page: str) -> list[str]:
    """The table's move log, a line per entry, newest first."""
    found = re.search(r'<ul class="log">(.*?)</ul>', page, re.S)
    return [html.unescape(line) for line in re.findall(r"<li>(.*?)</li>", found.group(1))]


def test_the_move_log_is_the_emails_wording_with_automatic_placements_marked(anna, bert):
    """The page tells the public log as the emails and the replay do (R33: the drawn strips
    too), newest first; the two placements the service made when Bert's deadline passed
    (R34) say so, as Piratz's automatic moves do."""
    game = play(rattenscharf_game(anna, bert), [anna, bert], act(1, 2, 0))
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):
        actions.do_play_timeout(game.id, expected_version=game.version)
    game.refresh_from_db()
    assert game.version == 3 and game.current_seat == 0
    lines = log_lines(page_of(signed_in(anna), game))
    automatic = " (Played automatically: the deadline had passed.)"
    assert len(lines) == 3
    assert [line.startswith("Bert placed strip ") for line in lines] == [True, True, False]
    assert [line.endswith(automatic) for line in lines] == [True, True, False]
    assert lines[2] == (
        "You placed strip 1 (red chili, green basil, red saffron) at (2, 0), horizontal, "
        "on level 1: nothing scored. Bert drew strip 3 (green jalapeno, red paprika, green "
        "jalapeno); strip 13 (green cardamom, red chili, green basil)."
    )
    names = describe.Names(["Anna", "Bert"], 0)
    assert lines == words.describe_moves(public_log(game, 0), names)[::-1]


def test_a_stale_or_out_of_turn_placement_is_a_message_not_an_error_page(anna, bert):
    game = play(rattenscharf_game(anna, bert), [anna, bert], act(1, 2, 0))
    client = signed_in(bert)
    [form] = [f for f in move_forms(page_of(client, game)) if f["fields"].get("strip") == "13"]
    game = play(game, [anna, bert], act(3, 2, 1))  # Bert's other tab, meanwhile
    response = submit(client, form, 1)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "The table changed before your move arrived" in messages_of(page)
    assert 'role="alert"' in messages_of(page)
    game.refresh_from_db()
    assert game.version == 2
    # Anna, out of turn, with the current version.
    anna_client = signed_in(anna)
    data = {"version": "2", "action": "place", "strip": "13", "placement": "0,0,h,0"}
    anna_client.post(reverse("games:move", args=[game.id]), data)
    page = anna_client.get(table_url(game)).content.decode()
    assert "It is not your turn, so nothing was played." in messages_of(page)
    # Bert, with a placement that is not legal (R12) and a form that is not the page's.
    bert_client = signed_in(bert)
    bert_client.post(
        reverse("games:move", args=[game.id]),
        {"version": "2", "action": "place", "strip": "13", "placement": "2,0,h,0"},
    )
    page = bert_client.get(table_url(game)).content.decode()
    assert "lie exactly on top of a single strip" in messages_of(page)  # R12, in words
    bert_client.post(reverse("games:move", args=[game.id]), {"version": "2", "strip": "13"})
    assert "That move form was incomplete" in messages_of(
        bert_client.get(table_url(game)).content.decode()
    )
    game.refresh_from_db()
    assert game.version == 2


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"version": "3", "strip": "17", "placement": "2,-1,v,1"}, (3, act(17, 2, -1, "v", True))),
        (
            {"version": "0", "action": "place", "strip": "1", "placement": "-4,0,h,0"},
            (0, act(1, -4, 0)),
        ),
    ],
)
def test_placement_forms_parse_to_r28_actions(data, expected):
    assert rs_table.parse_move(data) == expected


@pytest.mark.parametrize(
    "data",
    [
        {"version": "1", "strip": "1", "placement": "2,0,x,0"},
        {"version": "1", "strip": "1", "placement": "2,0,h,yes"},
        {"version": "1", "strip": "1", "placement": "2,0,h"},
        {"version": "-1", "strip": "1", "placement": "2,0,h,0"},
        {"version": "1", "strip": "one", "placement": "2,0,h,0"},
        {"version": "1", "action": "reveal", "strip": "1", "placement": "2,0,h,0"},
    ],
)
def test_a_malformed_placement_form_is_refused_as_invalid(data):
    with pytest.raises(actions.ServiceError) as refused:
        rs_table.parse_move(data)
    assert refused.value.code == "invalid"


def test_the_table_reads_german(anna, bert):
    User.objects.filter(pk=anna.pk).update(language="de")
    game = rattenscharf_game(anna, bert)
    client = Client()
    client.force_login(User.objects.get(pk=anna.pk))
    page = client.get(table_url(game), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="de">' in page
    assert "Dein Zug" in page and "Züge, neueste zuerst" in page and "Noch keine Züge." in page


def test_the_placements_are_told_in_each_readers_language_one_page_after_another(anna, bert):
    """The fields and placement sentences are translated once per language, not once per
    legal placement: an English page and then a German one each read in their own words."""
    game = play(rattenscharf_game(anna, bert), [anna, bert], act(1, 2, 0), act(3, 2, 1))
    english = page_of(signed_in(bert), game)
    User.objects.filter(pk=bert.pk).update(language="de")
    client = Client()
    client.force_login(User.objects.get(pk=bert.pk))
    german = client.get(table_url(game), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert (
        '<option value="0,0,h,0">from (0, 0) across: green cardamom, red chili, green basil — '
        "points red 0, green 1; rats visible after: red 0, green 0</option>"
    ) in english
    assert (
        '<option value="0,0,h,0">ab (0, 0) waagerecht: Kardamom (grün), Chili (rot), '
        "Basilikum (grün) — Punkte rot 0, grün 1; sichtbare Ratten danach: rot 0, grün 0"
        "</option>"
    ) in german
    assert "Chili (rot)" not in english and "red chili" not in german


def test_no_page_shows_the_draw_order(anna, bert, moderator):
    """R33: through a game's first turns, for both seats and a spectator, no page holds the
    pile's order (as strip ids or raw numbers) or a pile field."""
    game = rattenscharf_game(anna, bert, seed=1)
    scans = {user: PileOrderScan(game.id) for user in (anna, bert, moderator)}
    for _ in range(9):
        for user, scan in scans.items():
            scan(table_url(game), page_of(signed_in(user), game), "text/html")
        state = game.load_state()
        game = play(game, [anna, bert], rs.timeout_action(state))
    assert all(scan.scanned == 9 for scan in scans.values())


def test_the_pile_scan_catches_a_leak(anna, bert):
    """The scan above can fail: a page listing the pile in order is caught."""
    game = rattenscharf_game(anna, bert, seed=1)
    pile = rs.dump(game.load_state())["pile"]
    scan = PileOrderScan(game.id)
    with pytest.raises(AssertionError, match="draw order leaked"):
        scan("/x", "".join(f'<svg data-strip="{s}"></svg>' for s in pile[5:8]), "text/html")
    with pytest.raises(AssertionError, match="as numbers"):
        scan("/x", json.dumps({"next": pile[10:14]}), "application/json")


def test_a_finished_game_shows_the_final_scores_and_no_forms(anna, bert):
    """R24-R26: seed 1 played by the stand-in to the end (42 placements, complete)."""
    game = rattenscharf_game(anna, bert, seed=1)
    while game.is_active:
        game = play(game, [anna, bert], rs.timeout_action(game.load_state()))
    result = rs.view(game.load_state(), None)["result"]
    assert result["reason"] == "complete" and game.version == 42
    page = page_of(signed_in(anna), game)
    assert "Final scores" in page and "Final scoring" in page and not move_forms(page)
    red = result["players"][0]
    assert (
        f"You (red): {red['score']} points ({red['placement_points']} from placements, "
        f"{red['final_points']} from the final scoring)"
    ) in page
    # The words of the emails and the replay (games.describe.rattenscharf), R25 and R26.
    assert "Every strip is placed: every group of 2 or more cells scored once more" in page
    event = words.as_event(result["final_scoring"][0])
    assert f"{words.event_text(event)} ({len(event[2])} cells)" in page
    marker = "shares the win" if len(result["winners"]) > 1 else "winner"
    assert page.count(f"— <strong>{marker}</strong>") == len(result["winners"])


def test_the_board_include_draws_any_view_shaped_dict():
    """The contract at the top of board.html: cells, table and last_scoring are enough."""
    board = {
        "cells": [
            {"x": -1, "y": 0, "height": 1, "strip": 0, "symbol": "empty"},
            {"x": 0, "y": 0, "height": 2, "strip": 13, "symbol": "green:basil"},
            {"x": 1, "y": 0, "height": 1, "strip": 1, "symbol": "green:basil"},
        ],
        "table": {"min": -15, "max": 15},
        "last_scoring": [
            {"seat": 1, "spice": "green:basil", "cells": [[0, 0], [1, 0]], "points": 1}
        ],
    }
    html = render_to_string(
        "games/rattenscharf/board.html", {"board_view": board, "board_id": "replay-board"}
    )
    assert 'id="replay-board"' in html and 'fill="url(#replay-board-grid)"' in html
    assert html.count('class="rs-cell"') == 3
    assert "<title>(0, 0): green basil, height 2</title>" in html
    assert html.count('<rect x="2" y="2"') + html.count('<rect x="42" y="2"') == 2  # scored
    assert 'href="#rs-green-basil"' in html and 'id="rs-green-basil"' in html
    # The 31 x 31 table's cells around: three bare cells of room on each side (R13).
    assert 'data-min-x="-4" data-max-x="4" data-min-y="-3" data-max-y="3"' in html
    again = render_to_string(
        "games/rattenscharf/board.html", {"board_view": board, "board_no_symbols": True}
    )
    assert 'id="rs-green-basil"' not in again and 'id="rs-board"' in again


def test_every_symbol_has_its_own_drawing_and_words():
    """R2: 8 spices, 2 rats, empty and start, each distinct, each with a text alternative
    in the words of the emails (games.describe.rattenscharf)."""
    symbols = render_to_string("games/rattenscharf/symbols.html")
    every = {field for fields in STRIPS.values() for field in fields} | {"start"}
    assert every == {
        *(
            f"{colour}:{name}"
            for colour in ("red",)
            for name in ("chili", "paprika", "saffron", "cinnamon")
        ),
        *(f"green:{name}" for name in ("jalapeno", "basil", "cardamom", "wasabi")),
        "red:rat",
        "green:rat",
        "empty",
        "start",
    }
    for symbol in every:
        assert f'<symbol id="{rs_table.symbol_id(symbol)}"' in symbols
    assert len({words.symbol_name(symbol) for symbol in every}) == 12


# --- The create form, my games and the home page name each game ---------------------------


def test_the_create_form_offers_each_game_with_what_it_allows(anna):
    body = signed_in(anna).get("/games/").content.decode()
    assert '<option value="piratz" selected>Piratz</option>' in body
    assert '<option value="rattenscharf">Rattenscharf</option>' in body
    assert "<strong>Rattenscharf</strong>: 2 players; no blind mode;" in body
    assert "<strong>Piratz</strong>: 2 to 4 players; blind mode possible;" in body


def test_a_rattenscharf_game_is_created_from_the_form_for_exactly_two(anna):
    client = signed_in(anna)
    data = {"form": "create", "game": "rattenscharf", "player_1": anna.email, "turn_hours": "72"}
    refused = client.post(
        "/games/", {**data, "player_2": "zoe@example.com", "player_3": "x@example.com"}
    )
    assert refused.status_code == 400
    assert "A game of Rattenscharf needs 2 players." in refused.content.decode()
    blind = client.post("/games/", {**data, "player_2": "zoe@example.com", "blind": "on"})
    assert "Rattenscharf has no blind mode" in blind.content.decode()
    assert not Game.objects.exists()
    created = client.post("/games/", {**data, "player_2": "zoe@example.com"})
    game = Game.objects.get()
    assert created.status_code == 302 and game.game == "rattenscharf"


def test_my_games_and_the_home_page_name_each_game(anna, bert):
    rattenscharf_game(anna, bert)
    actions.do_create_game(anna, [anna.email, bert.email])
    client = signed_in(anna)
    mine = client.get("/games/").content.decode()
    assert "Rattenscharf with Anna, Bert" in mine and "Piratz with Anna, Bert" in mine
    home = client.get("/").content.decode()
    assert "<li>Rattenscharf:" in home and "<li>Piratz:" in home


def test_a_final_score_of_1_is_1_point(anna, bert, monkeypatch):
    game = rattenscharf_game(anna, bert, seed=1)
    while game.is_active:
        game = play(game, [anna, bert], rs.timeout_action(game.load_state()))
    describe_result = words.describe_result

    def one_point_for_bert(result, names):
        described = describe_result(result, names)
        described["players"][1].update(score=1, placement_points=0, final_points=1)
        return described

    monkeypatch.setattr(words, "describe_result", one_point_for_bert)
    page = page_of(signed_in(anna), game)
    assert "Bert (green): 1 point (0 from placements, 1 from the final scoring)" in page
    assert not re.search(r"\b1 points\b", page)


# --- The table on one screen (issue 24) ----------------------------------------------------


def test_each_spice_has_its_own_shape_and_the_legend_names_it(anna, bert):
    """Spices differ by more than a shade: each spice's drawing holds its own silhouette
    (a distinct ``rs-shape-`` symbol with its own drawing), and the table's legend shows
    every spice, rat and the start field with its drawing and its name."""
    symbols = render_to_string("games/rattenscharf/symbols.html")
    spices = [s for s in {f for fields in STRIPS.values() for f in fields} if ":" in s]
    spices = [s for s in spices if not s.endswith(":rat")]
    assert len(spices) == 8
    shapes = {}
    for spice in spices:
        drawing = re.search(
            rf'<symbol id="{rs_table.symbol_id(spice)}"[^>]*>(.*?)</symbol>', symbols
        )
        [shape] = re.findall(r'<use href="#(rs-shape-[a-z]+)"/>', drawing.group(1))
        shapes[spice] = shape
    assert len(set(shapes.values())) == 8, shapes
    # Each spice is drawn as itself (basil and cardamom were once swapped).
    assert all(shape == f"rs-shape-{spice.split(':')[1]}" for spice, shape in shapes.items()), (
        shapes
    )
    paths = {
        re.search(rf'<symbol id="{shape}"[^>]*>(.*?)</symbol>', symbols).group(1)
        for shape in shapes.values()
    }
    assert len(paths) == 8
    page = page_of(signed_in(anna), rattenscharf_game(anna, bert))
    legend = page[page.index("data-legend") : page.index("</ul>", page.index("data-legend"))]
    for symbol in [*spices, "red:rat", "green:rat", "start"]:
        assert f'<li data-symbol="{symbol}">' in legend
        assert (
            f'<use href="#{rs_table.symbol_id(symbol)}"/></svg> {words.symbol_name(symbol)}'
            in legend
        )


def test_a_bots_turn_says_the_bot_is_about_to_move_with_no_countdown(anna, bert):
    """A bot moves within moments (games.bots): its turn shows no deadline."""
    game = play(rattenscharf_game(anna, bert), [anna, bert], act(1, 2, 0))
    seat = game.seats.get(seat=1)
    seat.bot = "careful"
    seat.save(update_fields=["bot"])
    page = page_of(signed_in(anna), game)
    assert "Turn 2: <strong>Bert's bot</strong> is about to move." in page
    assert "the turn ends" not in page
    # A bot's own seat: its name and level.
    seat.user = None
    seat.save(update_fields=["user"])
    page = page_of(signed_in(anna), game)
    assert "Turn 2: <strong>Calico Jack · bot</strong> is about to move." in page
    assert "the turn ends" not in page
    # A person's turn keeps its deadline.
    seat.user, seat.bot = bert, ""
    seat.save(update_fields=["user", "bot"])
    assert "the turn ends" in page_of(signed_in(anna), game)


def test_a_finished_game_announces_the_result_first(anna, bert):
    """R24-R26: the result (winner, both scores, how they were scored) comes before the
    board, for each reader in their own words."""
    game = rattenscharf_game(anna, bert, seed=1)
    while game.is_active:
        game = play(game, [anna, bert], rs.timeout_action(game.load_state()))
    result = rs.view(game.load_state(), None)["result"]
    [winner] = result["winners"]  # seed 1 ends with one winner
    high, low = result["players"][winner]["score"], result["players"][1 - winner]["score"]
    pages = {user: page_of(signed_in(user), game) for user in (anna, bert)}
    won, lost = (anna, bert) if winner == 0 else (bert, anna)
    assert f"<strong>You won, {high} to {low} points.</strong>" in pages[won]
    name = "Anna" if winner == 0 else "Bert"
    assert f"<strong>{name} won, {high} to {low} points.</strong>" in pages[lost]
    for page in pages.values():
        top = page.index("data-result")
        assert top < page.index('id="status-heading"') < page.index("data-board")
        assert page.index("from the final scoring") < page.index("data-board")


def test_result_headlines_for_rats_and_ties():
    names = describe.Names(["Anna", "Bert"], 0)
    players = [{"score": 5}, {"score": 5}]
    tie = {"reason": "complete", "winners": [0, 1], "players": players}
    assert rs_table.result_headline(tie, 0, names) == "A tie at 5 points: the win is shared."
    rats = {"reason": "rats", "rat_loser": 1, "winners": [0], "players": players}
    assert rs_table.result_headline(rats, 0, names) == "You won: Bert lost to the rats."
    assert rs_table.result_headline(rats, 1, names) == "Anna won: you lost to the rats."
    assert rs_table.result_headline(rats, None, names) == "Anna won: Bert lost to the rats."


def test_the_board_draws_in_german_with_whole_number_coordinates():
    """Attributes are whole numbers: a float would be localised ("26,0") and break them."""
    from django.utils import translation

    board = {"cells": [{"x": 0, "y": 0, "height": 1, "strip": 0, "symbol": "start"}]}
    with translation.override("de"):
        html = render_to_string("games/rattenscharf/board.html", {"board_view": board})
    attributes = re.findall(r' (?:x|y|width|height)="([^"]*)"', html)
    assert attributes and all(re.fullmatch(r"-?\d+", value) for value in attributes), attributes
