"""Watching public games (games.watching): who may look at a game, what a watcher sees of a
blind game (rules P23), the host's choice of who watches, table talk for spectators."""

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from core.errors import ServiceError
from games import actions, presence
from games.actions.spectators import do_set_spectators
from games.kinds.piratz import rules as piratz
from games.models import Game
from games.movelog import public_log
from games.views.live import _stream_for
from talk.actions import post_message
from tests.api.secrets_scan import assert_no_secrets
from tests.browser.hidden import card_ids
from tests.factories import client_for, play_toy_moves, start_game, start_toy_game

pytestmark = pytest.mark.django_db


def page_client(user) -> Client:
    """A browser-like client signed in as ``user`` (None: nobody)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def make_public(game: Game, *, talk: bool = False) -> Game:
    Game.objects.filter(id=game.id).update(public=True, talk_public=talk)
    return Game.objects.get(id=game.id)


@pytest.fixture
def four_games(toy_games, anna, bert):
    """Anna and Bert's tic-tac-toe: public and private, each running and finished."""
    games = {}
    for public in (True, False):
        running = start_toy_game([anna, bert], public=public)
        finished = play_toy_moves(
            start_toy_game([anna, bert], public=public), [anna, bert], [1, 4, 2, 5, 3]
        )
        assert finished.status == "finished"
        games[public, "running"], games[public, "finished"] = running, finished
    return games


# --- Who may look -----------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["anonymous", "stranger", "player", "staff"])
def test_access_matrix_of_the_table_the_api_and_the_log(four_games, who, anna, outsider, moderator):
    user = {"anonymous": None, "stranger": outsider, "player": anna, "staff": moderator}[who]
    page, api = page_client(user), client_for(user)
    for (public, phase), game in four_games.items():
        where = f"{who}, {'public' if public else 'private'} {phase}"
        table = page.get(reverse("games:game", args=[game.id]))
        detail = api.get(f"/api/games/{game.id}/")
        log = api.get(f"/api/games/{game.id}/moves/")
        version = page.get(reverse("games:version", args=[game.id]))
        if public or who in ("player", "staff"):
            assert table.status_code == 200, where
            assert detail.status_code == log.status_code == version.status_code == 200, where
            assert detail.json()["you"] == (0 if who == "player" else None), where
            assert detail.json()["public"] is public
            assert len(log.json()) == game.version, where
        elif who == "anonymous":  # exactly as private as before: sign in first
            assert table.status_code == 302 and "/accounts/" in table["Location"], where
            assert detail.status_code == log.status_code == version.status_code == 401, where
            assert detail.json()["code"] == "not_authenticated"
        else:
            assert table.status_code == detail.status_code == log.status_code == 404, where
            assert version.status_code == 404 and detail.json()["code"] == "not_found", where


def test_a_watcher_sees_the_view_for_nobody_and_no_forms(toy_games, anna, bert):
    game = start_toy_game([anna, bert], public=True)
    body = client_for(None).get(f"/api/games/{game.id}/").json()
    assert body["you"] is None
    assert body["state"] == json.loads(json.dumps(game.table_view(None)))
    assert body["state"]["legal_actions"] == []
    page = page_client(None).get(reverse("games:game", args=[game.id])).content.decode()
    assert 'name="move"' not in page and "data-watching" in page
    assert "games:resign" not in page and "/resign/" not in page


def test_a_public_game_is_watched_only_once_it_has_begun(toy_games, anna, bert, outsider):
    invited = actions.do_create_game(anna, [anna.email, bert.email], game="tictactoe", public=True)
    assert client_for(outsider).get(f"/api/games/{invited.id}/").status_code == 404
    assert page_client(None).get(reverse("games:game", args=[invited.id])).status_code == 302


def test_a_watcher_is_never_a_bots_seat(toy_games, anna):
    # A bot's own seat has no person, and an anonymous visitor no id: never "theirs".
    game = actions.do_create_game(anna, ["bot:random", anna.email], game="tictactoe", public=True)
    assert Game.objects.get(id=game.id).status == "active"
    body = client_for(None).get(f"/api/games/{game.id}/").json()
    assert body["you"] is None and body["state"]["legal_actions"] == []


def test_the_replay_opens_to_watchers_once_the_game_has_ended(four_games, outsider):
    watcher = page_client(None)
    running, finished = four_games[True, "running"], four_games[True, "finished"]
    answer = watcher.get(reverse("games:replay", args=[running.id]))
    assert answer.status_code == 302 and answer["Location"] == f"/games/{running.id}/"
    assert watcher.get(reverse("games:replay", args=[finished.id])).status_code == 200
    private = four_games[False, "finished"]
    assert watcher.get(reverse("games:replay", args=[private.id])).status_code == 302
    stranger = page_client(outsider).get(reverse("games:replay", args=[private.id]))
    assert stranger.status_code == 404


def test_watching_marks_no_seat_at_the_table(toy_games, anna, bert, outsider):
    game = start_toy_game([anna, bert], public=True)
    page_client(outsider).get(reverse("games:game", args=[game.id]))
    page_client(None).get(reverse("games:version", args=[game.id]))
    assert presence.live_seats(game.id, [0, 1]) == []
    page_client(bert).get(reverse("games:game", args=[game.id]))
    assert presence.live_seats(game.id, [0, 1]) == [1]


def test_the_stream_lets_watchers_in_and_ends_when_the_game_turns_private(toy_games, anna, bert):
    game = start_toy_game([anna, bert], public=True)
    stream = _stream_for(AnonymousUser(), game.id)
    assert stream.watcher and stream.reader_seat is None
    assert stream.read(with_news=False) is not None
    do_set_spectators(game.id, anna, public=False)
    assert stream.read(with_news=False) is None  # the stream ends: nothing more to watch
    with pytest.raises(ServiceError):
        _stream_for(AnonymousUser(), game.id)
    assert page_client(None).get(reverse("games:events", args=[game.id])).status_code == 401


# --- A blind game: no more than every player at the table has seen (P23) ----------------------


def _play(game: Game, user, kind: str) -> Game:
    """``user`` plays the first legal action of ``kind`` (a pass that buries, if it can)."""
    game = Game.objects.get(id=game.id)
    state = piratz.load(game.state)
    legal = [a for a in piratz.legal_actions(state, game.current_seat) if a["action"] == kind]
    action = max(legal, key=lambda a: a.get("bury") is not None)
    actions.do_play_move(game.id, user, game.version, action)
    return Game.objects.get(id=game.id)


def _ids(value) -> set[int]:
    """The card ids in a view or log value (cards are dicts with an id; bury and keep ints)."""
    found: set[int] = set()
    if isinstance(value, dict):
        if "id" in value and "treasures" in value:
            found.add(value["id"])
        for key, item in value.items():
            if key in ("bury", "keep") and isinstance(item, int):
                found.add(item)
            else:
                found |= _ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= _ids(item)
    return found


def test_a_watcher_of_a_blind_game_sees_only_the_latest_entry_in_full(anna, bert, carla):
    game = start_game([anna, bert, carla], seed=1, blind=True, public=True)
    for user, kind in ((anna, "reveal"), (anna, "end_turn"), (bert, "reveal"), (bert, "pass")):
        game = _play(game, user, kind)
    full = public_log(game, None)  # staff's
    watched = client_for(None).get(f"/api/games/{game.id}/moves/")
    log = watched.json()
    assert [e["number"] for e in log] == [1, 2, 3, 4]
    assert log[3]["action"] == full[3]["action"] and "bury" in log[3]["action"]
    assert all(e["revealed"] is None and len(e["action"]) == 1 for e in log[:3])
    # No more than any player: Bert, who moved last, sees exactly this much.
    assert [e["action"] for e in log] == [e["action"] for e in public_log(game, 1)]
    state = game.load_state()
    for body in (watched.content, client_for(None).get(f"/api/games/{game.id}/").content):
        assert_no_secrets(body.decode(), state, blind_viewer=True, server_seed=game.server_seed)
    # The page shows no card beyond the watcher's view and log.
    visible = _ids(game.table_view(None)) | _ids(public_log(game, None, watcher=True))
    page = page_client(None).get(reverse("games:game", args=[game.id])).content.decode()
    assert_no_secrets(page, state, server_seed=game.server_seed)
    assert not set(card_ids(page)) - visible, "a blind card the watcher may not see"
    assert set(_ids(full)) - visible, "the staff's log holds cards the watcher's does not"


# --- The host's choice ------------------------------------------------------------------------


def test_only_the_host_chooses_who_watches(toy_games, anna, bert, outsider, moderator):
    game = start_toy_game([anna, bert])
    for user, code in ((bert, "not_host"), (outsider, "not_found"), (moderator, "not_a_player")):
        with pytest.raises(ServiceError) as refused:
            do_set_spectators(game.id, user, public=True)
        assert refused.value.code == code
    with pytest.raises(ServiceError) as refused:
        do_set_spectators(game.id, anna, talk_public=True)  # a private game's talk stays shut
    assert refused.value.code == "conflict"
    with pytest.raises(ServiceError) as refused:
        do_set_spectators(game.id, anna, public=True, version=game.version + 1)
    assert refused.value.code == "stale_version"
    with pytest.raises(ServiceError) as refused:
        do_set_spectators(game.id, anna)
    assert refused.value.code == "invalid"
    assert not Game.objects.get(id=game.id).public, "every refusal changed nothing"

    opened = do_set_spectators(game.id, anna, public=True, talk_public=True, version=0)
    assert (opened.public, opened.talk_public) == (True, True)
    assert opened.version == 0  # no move: the version stays
    closed = do_set_spectators(game.id, anna, public=False)
    assert (closed.public, closed.talk_public) == (False, False), "private closes the talk"


def test_the_host_chooses_at_the_table_and_over_the_api(toy_games, anna, bert):
    game = start_toy_game([anna, bert])
    table = page_client(anna).get(reverse("games:game", args=[game.id])).content.decode()
    assert "data-spectators-chair" in table
    other = page_client(bert).get(reverse("games:game", args=[game.id])).content.decode()
    assert "data-spectators-chair" not in other
    posted = page_client(anna).post(
        reverse("games:spectators", args=[game.id]), {"public": "true", "version": 0}
    )
    assert posted.status_code == 302 and Game.objects.get(id=game.id).public
    url = f"/api/games/{game.id}/spectators/"
    api = client_for(anna).post(url, {"public": True, "talk_public": True}, format="json")
    assert api.status_code == 200 and api.json()["talk_public"] is True
    bad = client_for(anna).post(url, {"public": "yes"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    not_host = client_for(bert).post(url, {"public": False}, format="json")
    assert not_host.status_code == 403 and not_host.json()["code"] == "not_host"
    play_toy_moves(Game.objects.get(id=game.id), [anna, bert], [1, 4, 2, 5, 3])
    late = client_for(anna).post(url, {"public": False}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "game_not_active"


def test_public_at_creation_and_kept_by_a_rematch(toy_games, anna, bert):
    created = client_for(anna).post(
        "/api/games/",
        {"game": "tictactoe", "players": [anna.email, bert.email], "public": True},
        format="json",
    )
    assert created.status_code == 201 and created.json()["public"] is True
    game_id = created.json()["id"]
    actions.do_accept_invitation(game_id, bert)
    ended = play_toy_moves(Game.objects.get(id=game_id), [anna, bert], [1, 4, 2, 5, 3])
    rematch, _ = actions.do_rematch(ended.id, bert)
    assert rematch.public and not rematch.talk_public
    form = page_client(anna).post(
        reverse("games:my-games"),
        {
            "form": "create",
            "game": "tictactoe",
            "player_1": anna.email,
            "player_2": bert.email,
            "turn_hours": 72,
            "public": "on",
        },
    )
    assert form.status_code == 302
    assert Game.objects.filter(host=anna, public=True).count() == 2


# --- Table talk --------------------------------------------------------------------------------


def test_table_talk_is_the_players_until_the_host_opens_it(toy_games, anna, bert, outsider):
    game = make_public(start_toy_game([anna, bert]))
    post_message(game, bert, "Good luck, Anna")
    messages = f"/api/games/{game.id}/messages/"
    table = reverse("games:game", args=[game.id])
    for user in (None, outsider):
        answer = client_for(user).get(messages)
        assert answer.status_code == 403 and answer.json()["code"] == "not_a_player"
        page = page_client(user).get(table).content.decode()
        assert "Good luck" not in page and 'id="table-talk"' not in page
    player_page = page_client(anna).get(table).content.decode()
    assert "Good luck" in player_page and "data-talk-public" not in player_page

    do_set_spectators(game.id, anna, talk_public=True)
    for user in (None, outsider):
        answer = client_for(user).get(messages)
        assert answer.status_code == 200
        assert [m["text"] for m in answer.json()["results"]] == ["Good luck, Anna"]
        page = page_client(user).get(table).content.decode()
        assert "Good luck, Anna" in page and 'name="text"' not in page  # read, never write
    assert "data-talk-public" in page_client(bert).get(table).content.decode()
    # Spectators never post: anonymous must sign in, a signed-in watcher is no player.
    assert client_for(None).post(messages, {"text": "hi"}, format="json").status_code == 401
    assert client_for(outsider).post(messages, {"text": "hi"}, format="json").status_code == 404
    private = start_toy_game([anna, bert])
    assert client_for(None).get(f"/api/games/{private.id}/messages/").status_code == 401
    assert client_for(outsider).get(f"/api/games/{private.id}/messages/").status_code == 404
