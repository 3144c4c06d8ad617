"""The game table in the browser: its move forms, refused moves, access, blind mode, the
live-refresh version endpoint and the page's cost (Django test client)."""

from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Vacation
from games import actions
from games.describe import Names
from games.kinds.piratz import rules as piratz
from games.kinds.piratz import table
from games.kinds.piratz.words import describe_table
from games.models import Game, Seat
from tests.api.secrets_scan import assert_no_secrets
from tests.browser.hidden import HiddenInformationScan
from tests.factories import play_to_the_end, start_game

pytestmark = pytest.mark.django_db


class _FormReader(HTMLParser):
    """The page's move forms (``form[data-action]``): each one's fixed fields and choices."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self.form: dict | None = None
        self.select: str | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form" and "data-action" in attributes:
            self.form = {
                "action": attributes["data-action"],
                "url": attributes["action"],
                "fields": {},
                "choices": {},
            }
            self.forms.append(self.form)
        elif self.form is None:
            return
        elif tag == "input" and attributes.get("type") == "hidden":
            self.form["fields"][attributes["name"]] = attributes.get("value", "")
        elif tag == "select":
            self.select = attributes["name"]
            self.form["choices"][self.select] = []
        elif tag == "option" and self.select:
            self.form["choices"][self.select].append(attributes["value"])

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None


def move_forms(page: str) -> list[dict]:
    reader = _FormReader()
    reader.feed(page)
    return reader.forms


def submit(client: Client, form: dict, choice: int = 0):
    """Post ``form`` as a browser would, each select set to its ``choice``-th option."""
    data = {k: v for k, v in form["fields"].items() if k != "csrfmiddlewaretoken"}
    for name, options in form["choices"].items():
        data[name] = options[choice % len(options)]
    return client.post(form["url"], data)


def table_url(game) -> str:
    return reverse("games:game", args=[game.id])


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_of(client: Client, game) -> str:
    response = client.get(table_url(game))
    assert response.status_code == 200
    return response.content.decode()


def messages_of(page: str) -> str:
    start = page.find('<div class="messages">')
    return "" if start < 0 else page[start : page.index("</div>", start)]


# --- Moves by form ---------------------------------------------------------------------


def test_reveal_by_form_plays_the_move_and_comes_back_to_the_table(game, anna):
    client = signed_in(anna)
    forms = move_forms(page_of(client, game))
    [reveal] = [form for form in forms if form["action"] == "reveal"]
    assert reveal["fields"]["version"] == "0"
    response = submit(client, reveal)
    assert response.status_code == 302 and response["Location"] == table_url(game)
    game.refresh_from_db()
    assert game.version == 1 and game.moves.get().action == {"action": "reveal"}
    page = client.get(response["Location"]).content.decode()
    assert 'role="status">Your move was played.' in page
    assert 'data-version="1"' in page


def test_end_turn_by_form_hands_the_turn_on(game, anna):
    game = actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    client = signed_in(anna)
    [end] = [form for form in move_forms(page_of(client, game)) if form["action"] == "end_turn"]
    submit(client, end)
    game.refresh_from_db()
    assert game.version == 2 and game.current_seat == 1


def test_each_pass_form_posts_a_legal_pass_and_says_what_it_takes(game, anna):
    game = actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    client = signed_in(anna)
    page = page_of(client, game)
    [face_up] = piratz.view(game.load_state(), 0)["face_up"]
    assert face_up == {"id": 2, "treasures": {"coins": 1}, "rat": True, "skull": False}
    forms = [form for form in move_forms(page) if form["action"] == "pass"]
    # Naming coins takes the one card; every other type takes nothing and leaves it to be
    # buried, so they are one choice (the first of them, rings).
    assert [form["fields"]["treasure"] for form in forms] == ["coins", "rings"]
    assert "Naming coins takes 1 card: 1 coin." in page
    assert "Pass and take nothing" in page
    coins = next(form for form in forms if form["fields"]["treasure"] == "coins")
    assert coins["fields"]["bury"] == "" and "bury" not in coins["choices"]
    rings = next(form for form in forms if form["fields"]["treasure"] == "rings")
    assert rings["choices"] == {"bury": ["2"]}
    submit(client, rings)
    game.refresh_from_db()
    assert game.moves.last().action == {"action": "pass", "treasure": "rings", "bury": 2}
    assert game.version == 2 and game.current_seat == 1


def test_a_rat_alert_is_resolved_by_form(game, anna, bert, carla):
    players = [anna, bert, carla]
    version = 0
    while True:  # each player reveals one card and ends their turn, until two rats lie face up
        player = players[game.current_seat]
        game = actions.do_play_move(game.id, player, version, {"action": "reveal"})
        version += 1
        if game.load_state().phase == "alarm":
            break
        game = actions.do_play_move(game.id, player, version, {"action": "end_turn"})
        version += 1
    seat = game.current_seat
    client = signed_in(player)
    forms = move_forms(page_of(client, game))
    assert {form["action"] for form in forms} == {"resolve_alarm"}
    rats = [card["id"] for card in piratz.view(game.load_state(), seat)["face_up"] if card["rat"]]
    assert sorted(int(form["fields"]["keep"]) for form in forms) == sorted(rats)
    form = forms[1]
    submit(client, form, choice=1)
    game.refresh_from_db()
    last = game.moves.last().action
    assert last["action"] == "resolve_alarm" and last["keep"] == int(form["fields"]["keep"])
    bury = form["choices"]["bury"]
    assert last["bury"] == int(bury[1 % len(bury)])
    assert game.version == version + 1


# --- Refused moves: a message and the current table, nothing changed --------------------


def test_a_stale_form_changes_nothing_and_says_why(game, anna, bert):
    client = signed_in(anna)
    [reveal] = [form for form in move_forms(page_of(client, game)) if form["action"] == "reveal"]
    game = actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    game = actions.do_play_move(game.id, anna, 1, {"action": "end_turn"})
    game = actions.do_play_move(game.id, bert, 2, {"action": "reveal"})
    # Anna's old form (version 0) now names a move she no longer has: refused.
    anna_pass = {**reveal, "fields": {**reveal["fields"], "version": "0"}}
    response = submit(client, anna_pass)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 3
    # Bert's end-turn form from before his reveal is stale.
    bert_client = signed_in(bert)
    bert_form = {**reveal, "fields": {"version": "2", "action": "end_turn"}}
    response = submit(bert_client, bert_form)
    assert response.status_code == 302 and response["Location"] == table_url(game)
    game.refresh_from_db()
    assert game.version == 3
    page = bert_client.get(table_url(game)).content.decode()
    assert "The table changed before your move arrived" in messages_of(page)
    assert 'role="alert"' in messages_of(page)
    assert 'data-version="3"' in page


def test_out_of_turn_form_is_refused_with_a_message(game, bert):
    client = signed_in(bert)
    form = {
        "url": reverse("games:move", args=[game.id]),
        "fields": {"version": "0", "action": "reveal"},
        "choices": {},
    }
    response = submit(client, form)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 0
    page = client.get(table_url(game)).content.decode()
    assert "It is not your turn, so nothing was played." in messages_of(page)
    assert not move_forms(page)


@pytest.mark.parametrize(
    "fields",
    [
        {"action": "reveal"},
        {"version": "x", "action": "reveal"},
        {"version": "0", "action": "dance"},
        {"version": "0", "action": "pass", "treasure": "coins"},
        {"version": "0", "action": "pass", "treasure": "coins", "bury": "two"},
    ],
)
def test_a_malformed_form_is_a_message_not_an_error_page(game, anna, fields):
    client = signed_in(anna)
    response = client.post(reverse("games:move", args=[game.id]), fields)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 0
    assert "That move form was incomplete" in messages_of(page_of(client, game))


def test_an_illegal_choice_is_refused_with_the_rules_reason(game, anna):
    client = signed_in(anna)
    data = {"version": "0", "action": "end_turn"}  # not before a reveal (rules P9)
    client.post(reverse("games:move", args=[game.id]), data)
    game.refresh_from_db()
    assert game.version == 0
    assert 'role="alert"' in messages_of(page_of(client, game))


# --- Who sees what ---------------------------------------------------------------------


def test_outsiders_get_404_everywhere_and_anonymous_visitors_the_login(game, outsider):
    client = signed_in(outsider)
    move = reverse("games:move", args=[game.id])
    version = reverse("games:version", args=[game.id])
    assert client.get(table_url(game)).status_code == 404
    assert client.post(move, {"version": "0", "action": "reveal"}).status_code == 404
    assert client.get(version).status_code == 404
    game.refresh_from_db()
    assert game.version == 0
    anonymous = Client()
    response = anonymous.get(table_url(game))
    assert response.status_code == 302 and f"next={table_url(game)}" in response["Location"]
    response = anonymous.post(move, {"version": "0", "action": "reveal"})
    # Signed in again, the player lands on the table, not on the POST-only move address.
    assert response.status_code == 302
    assert response["Location"].endswith(f"?next={table_url(game)}")
    assert anonymous.get(version).status_code == 401


def test_spectating_staff_see_the_table_without_forms(game, moderator):
    client = signed_in(moderator)
    page = page_of(client, game)
    assert 'data-version="0"' in page and "Face-up row" in page
    assert not move_forms(page) and "data-action" not in page
    response = client.post(
        reverse("games:move", args=[game.id]), {"version": "0", "action": "reveal"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 0
    assert "hold no seat" in messages_of(page_of(client, game))


def test_other_players_see_the_table_but_no_forms(game, anna, bert):
    page = page_of(signed_in(bert), game)
    assert not move_forms(page)
    assert (
        "It is <strong>Anna</strong>&#x27;s turn" in page
        or "It is <strong>Anna</strong>'s turn" in page
    )


def _pass_first_card(game, user, version):
    view = piratz.view(game.load_state(), game.current_seat)
    treasure = next(iter(view["face_up"][0]["treasures"]))
    return actions.do_play_move(
        game.id, user, version, {"action": "pass", "treasure": treasure, "bury": None}
    )


def test_blind_table_shows_counts_only_and_no_unseen_cards(anna, bert):
    game = start_game([anna, bert], blind=True)
    game = actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    game = _pass_first_card(game, anna, 1)
    [collected] = piratz.dump(game.load_state())["collected"][0]
    for user, seat in ((anna, 0), (bert, 1)):
        page = page_of(signed_in(user), game)
        assert "1 card collected." in page and "Blind mode: only the counts show" in page
        assert "Unseen cards" not in page
        # The log may name it (rules P23: the moves since a player's own last one), but
        # no collection draws it.
        assert f'data-card="{collected}"' not in page
        assert_no_secrets(page, game.load_state(), blind_viewer=True)
        HiddenInformationScan(game.id, seat)(table_url(game), page, "text/html")


def test_open_table_draws_collections_and_the_unseen_cards(anna, bert):
    game = start_game([anna, bert])
    game = actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    game = _pass_first_card(game, anna, 1)
    state = game.load_state()
    [collected] = piratz.dump(state)["collected"][0]
    page = page_of(signed_in(bert), game)
    assert f'data-card="{collected}"' in page
    unseen = piratz.view(state, 1)["unseen"]
    assert f"{len(unseen)} cards not seen yet" in page
    assert all(f'data-card="{card["id"]}"' in page for card in unseen)
    assert_no_secrets(page, state)
    HiddenInformationScan(game.id, 1)(table_url(game), page, "text/html")


def test_every_card_has_a_text_alternative(game, anna):
    game = actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    page = page_of(signed_in(anna), game)
    assert page.count('<svg class="piratz-card') == page.count('role="img" aria-label="')
    assert "<title>1 coin, rat (#2)</title>" in page


def test_a_card_is_drawn_in_each_readers_language_and_size():
    """A card's drawing is made once per card, size and language, then reused: drawn in
    English, in German and small, each drawing is still its own."""
    from django.template import Context, Template
    from django.utils import translation

    drawing = Template(
        '{% load piratz_cards %}{% piratz_card card %}|{% piratz_card card "small" %}'
    )
    card = piratz.card(2)
    english = drawing.render(Context({"card": card}))
    with translation.override("de"):
        german = drawing.render(Context({"card": card}))
    again = drawing.render(Context({"card": card}))
    assert again == english
    large, small = english.split("|")
    assert "<title>1 coin, rat (#2)</title>" in large and 'data-card="2"' in large
    assert "piratz-card--small" in small and "piratz-card--small" not in large
    assert "<title>1 Münze, Ratte (#2)</title>" in german
    other = drawing.render(Context({"card": piratz.card(3)}))
    assert 'data-card="3"' in other and 'data-card="2"' not in other


def test_the_last_round_turns_the_draw_pile_red(anna, bert):
    game = start_game([anna, bert])
    state = game.load_state()
    # Bring the game to its last round through the engine: reveal on until the pile is out.
    while not state.last_round:
        seat = state.current
        legal = piratz.legal_actions(state, seat)
        reveal = {"action": "reveal"}
        action = reveal if reveal in legal else next(a for a in legal if a["action"] != "reveal")
        if state.phase == "decide" and len(state.face_up) > 4:
            action = next(a for a in legal if a["action"] == "pass")
        state = piratz.apply(state, seat, action)
    Game.objects.filter(id=game.id).update(state=piratz.dump(state), current_seat=state.current)
    page = page_of(signed_in(anna), game)
    assert "pile pile--last-round" in page
    assert "Last round: the draw pile ran out in this round" in page


def test_a_finished_game_no_longer_says_last_round(anna, bert):
    # The game ends with its last round (P18), whose reshuffle may leave cards in the draw
    # pile: "Draw pile: 20 cards" beside "the draw pile has run out" read as nonsense.
    game = play_to_the_end(start_game([anna, bert], seed=3), [anna, bert])
    assert game.load_state().last_round
    page = page_of(signed_in(anna), game)
    assert "Last round" not in page and "pile--last-round" not in page
    view = piratz.view(game.load_state(), 0)
    assert describe_table(view, Names(["anna", "bert"], 0))["last_round"] is False


def test_deadline_is_local_with_the_time_left_and_vacations_show(anna, bert, time_machine):
    time_machine.move_to(datetime(2030, 11, 19, 9, 0, tzinfo=UTC), tick=False)
    game = start_game([anna, bert])
    Vacation.objects.create(
        user=bert,
        starts_at=datetime(2030, 11, 19, 0, 0, tzinfo=UTC),
        ends_at=datetime(2030, 11, 26, 0, 0, tzinfo=UTC),
    )
    time_machine.move_to(datetime(2030, 11, 19, 14, 0, tzinfo=UTC), tick=False)
    page = page_of(signed_in(anna), game)
    # 72 hours from 09:00, seen five hours later.
    assert "the turn ends Friday 22 November, 09:00 UTC (in 2\xa0days, 19\xa0hours)." in page
    assert "On vacation until Tuesday 26 November, 00:00 UTC" in page


# --- The live refresh's version endpoint and the page's cost ---------------------------


def test_version_endpoint_answers_from_one_query_and_is_not_cached(game, anna):
    client = signed_in(anna)
    url = reverse("games:version", args=[game.id])
    client.get(url)  # the session and user are loaded once per request; count the rest
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    assert response.json() == {"version": 0, "status": "active"}
    assert "no-cache" in response["Cache-Control"] and "no-store" in response["Cache-Control"]
    game_queries = [q["sql"] for q in queries if "games_game" in q["sql"]]
    assert len(game_queries) == 1 and "state" not in game_queries[0].split("FROM")[0]
    actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    assert client.get(url).json() == {"version": 1, "status": "active"}


def test_staff_may_ask_the_version_of_any_game(game, moderator):
    response = signed_in(moderator).get(reverse("games:version", args=[game.id]))
    assert response.json()["version"] == 0


def test_the_tables_query_count_does_not_grow_with_the_game(anna, bert, carla):
    def queries_for(game) -> int:
        # A reader not to move, as after their move: the table looks for their next game.
        client = signed_in(players[(game.current_seat + 1) % 3])
        client.get(table_url(game))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(table_url(game)).status_code == 200
        return len(queries)

    short = start_game([anna, bert, carla])
    long = start_game([anna, bert, carla])
    players = [anna, bert, carla]
    for version in range(8):  # reveals, ends of turns and a rat alert: the first legal move
        seat = long.current_seat
        action = piratz.legal_actions(long.load_state(), seat)[0]
        long = actions.do_play_move(long.id, players[seat], version, action)
    Vacation.objects.create(
        user=bert, starts_at=datetime.now(UTC), ends_at=datetime.now(UTC) + timedelta(days=2)
    )
    # The session, the user, the game, its seats (users, settings, vacations), its moves,
    # its table talk (talk.templatetags.table_talk) and the people the reader blocked
    # (people.blocks, for the talk), the reader's private notes
    # (games.templatetags.private_notes), the reader's next game ("Next game",
    # games.views.table._next_game: only when this table does not wait for them).
    assert queries_for(short) == queries_for(long) == 9


# --- What each choice takes (games.tables.piratz, no database) ---------------------------


def _card(card_id, rat=False, **treasures):
    return {"id": card_id, "treasures": treasures, "rat": rat, "skull": False}


def test_pass_choices_say_what_each_treasure_takes_and_what_is_left_to_bury():
    row = [_card(11, rings=1), _card(2, rat=True, coins=1), _card(30, rings=1, coins=1)]
    # What legal_actions lists for this row (rules P12-P13): each type, then each card left.
    legal = [{"action": "end_turn"}]
    for treasure in piratz.TREASURES:
        left = [card["id"] for card in row if not card["treasures"].get(treasure)]
        legal += [{"action": "pass", "treasure": treasure, "bury": bury} for bury in left]
    choices = table.pass_choices({"face_up": row, "legal_actions": legal})
    assert [(c["treasure"], c["cards"], c["items"], c["takes_nothing"]) for c in choices] == [
        ("rings", 2, 2, False),
        ("coins", 2, 2, False),
        ("pearls", 0, 0, True),
    ]
    assert [c["id"] for c in choices[0]["bury"]] == [2]
    assert [c["id"] for c in choices[1]["bury"]] == [11]
    assert [c["id"] for c in choices[2]["bury"]] == [11, 2, 30]
    assert choices[0]["items_text"] == "2 rings"


def test_alarm_choices_offer_each_rat_and_every_other_card_to_bury():
    row = [_card(1, rat=True, rings=1), _card(12, coins=1), _card(2, rat=True, coins=1)]
    legal = [
        {"action": "resolve_alarm", "keep": keep, "bury": bury}
        for keep in (1, 2)
        for bury in (1, 12, 2)
        if bury != keep
    ]
    choices = table.alarm_choices({"face_up": row, "legal_actions": legal})
    assert [(c["keep"]["id"], [b["id"] for b in c["bury"]]) for c in choices] == [
        (1, [12, 2]),
        (2, [1, 12]),
    ]
    assert choices[0]["keep"]["label"] == "1 ring, rat (#1)"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"version": "3", "action": "reveal"}, (3, {"action": "reveal"})),
        (
            {"version": "4", "action": "pass", "treasure": "gems", "bury": ""},
            (4, {"action": "pass", "treasure": "gems", "bury": None}),
        ),
        (
            {"version": "5", "action": "resolve_alarm", "keep": "2", "bury": "12"},
            (5, {"action": "resolve_alarm", "keep": 2, "bury": 12}),
        ),
    ],
)
def test_move_forms_parse_to_contract_actions(data, expected):
    assert table.parse_move(data) == expected


def test_a_negative_version_is_a_malformed_form():
    with pytest.raises(actions.ServiceError) as refused:
        table.parse_move({"version": "-1", "action": "reveal"})
    assert refused.value.code == "invalid"


def test_a_form_sent_twice_plays_once_and_says_so(game, anna):
    client = signed_in(anna)
    [reveal] = [form for form in move_forms(page_of(client, game)) if form["action"] == "reveal"]
    submit(client, reveal)
    page_of(client, game)  # the first answer's message is read
    submit(client, reveal)  # a second click, or the same form in another tab
    game.refresh_from_db()
    assert game.version == 1 and game.moves.count() == 1
    message = messages_of(page_of(client, game))
    assert 'role="alert"' in message and "had already been played" in message


def test_the_live_refresh_runs_while_the_game_can_change(game, anna, moderator):
    client = signed_in(anna)
    script = '<script src="/static/js/table.js" defer></script>'
    page = page_of(client, game)
    assert script in page
    assert f'data-version-url="{reverse("games:version", args=[game.id])}"' in page
    actions.do_abort_game(game.id, moderator, reason="test")
    page = page_of(client, game)
    assert script not in page and 'data-status="aborted"' in page
    assert client.get("/static/js/table.js").status_code == 200


# --- The board (issue 24): result on top, bot turns, tally, rat alert, the log's recap ----


def _reveal_and_end_turns(game, players, turns: int):
    """Each player in turn reveals one card and ends their turn, ``turns`` times (or
    until a rat alert), through the actions."""
    for _ in range(turns):
        player = players[game.current_seat]
        game = actions.do_play_move(game.id, player, game.version, {"action": "reveal"})
        if game.load_state().phase == "alarm":
            break
        game = actions.do_play_move(game.id, player, game.version, {"action": "end_turn"})
    return game


def test_a_finished_game_announces_the_result_above_the_board(anna, bert):
    game = play_to_the_end(start_game([anna, bert], seed=3), [anna, bert])
    page = page_of(signed_in(anna), game)
    assert 0 < page.index("data-result") < page.index('class="board"')
    assert "Winner: " in page or "Winners, sharing the victory: " in page
    assert "The scoring, treasure by treasure" in page and "cube:" in page
    # A spade says nothing once the game is over.
    assert "Spade not placed yet." not in page and "Spade placed." not in page


def test_a_bots_turn_says_the_bot_is_about_to_move(game, anna, bert, carla):
    game = _reveal_and_end_turns(game, [anna, bert, carla], 1)
    assert game.current_seat == 1
    Seat.objects.filter(game=game, seat=1).update(bot="careful")  # a stand-in for Bert
    page = page_of(signed_in(anna), game)
    assert "the bot is about to move." in page
    assert "the turn ends" not in page


def test_the_score_card_tallies_open_collections_only(anna, bert):
    for blind in (False, True):
        game = start_game([anna, bert], blind=blind)
        game = actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
        game = _pass_first_card(game, anna, 1)
        page = page_of(signed_in(bert), game)
        if blind:
            assert 'class="tally"' not in page and 'data-tally-seat="0"' not in page
            assert "Blind mode: who leads for which treasure is yours to remember" in page
        else:
            assert 'class="tally"' in page and 'data-tally-seat="0"' in page
            assert "If the game ended now" in page


def test_a_rat_alert_is_a_banner_the_player_to_move_is_told_what_to_do(anna, bert):
    game = start_game([anna, bert], seed=4)  # Bert's first reveal is the second rat
    game = _reveal_and_end_turns(game, [anna, bert], 2)
    assert game.load_state().phase == "alarm" and game.current_seat == 1
    banner = 'role="alert" tabindex="-1" id="rat-alert"'
    mover, watcher = page_of(signed_in(bert), game), page_of(signed_in(anna), game)
    assert banner in mover and "keep one and bury one card." in mover
    assert banner in watcher and "Bert keeps one and buries one card." in watcher


def test_the_log_marks_what_came_since_the_readers_last_turn(anna, bert, carla):
    players = [anna, bert, carla]
    game = start_game(players, seed=1)  # no rat alert in the first four reveals
    game = _reveal_and_end_turns(game, players, 3)  # Anna, Bert, Carla: two moves each
    page = page_of(signed_in(anna), game)
    assert page.count('class="log__since"') == 4 and page.count("Since your last turn:") == 1
    # In the middle of her turn the recap stays the one it began with.
    game = actions.do_play_move(game.id, anna, game.version, {"action": "reveal"})
    page = page_of(signed_in(anna), game)
    assert page.count('class="log__since"') == 4
    # The newest five lines show; the rest fold away.
    assert "2 earlier lines" in page
