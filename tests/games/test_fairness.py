"""A shuffle anyone can check, end to end: seeds at creation and acceptance, the key the game
is dealt with, the verification API, page, command and standalone script, tampering, and the
seed and key kept secret until the end."""

import copy
import io
import json
import logging
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import actions, fairness
from games.kinds.piratz import rules as piratz
from games.kinds.piratz.rules.bots import random_action
from games.models import Game, GameStatus, Move
from notifications.models import OutboundEmail
from tests.api.secrets_scan import assert_no_secrets
from tests.db_scan import every_stored_value
from tests.factories import client_for

pytestmark = pytest.mark.django_db

TOOL = Path(__file__).resolve().parents[2] / "tools" / "verify_game.py"


def _create(seated, seeds):
    """A game created over the API by ``seated[0]`` with ``seeds[0]``, accepted by the
    others with theirs (None: no seed given); returns the game and the players' clients."""
    clients = [client_for(user) for user in seated]
    body = {"game": "piratz", "players": [user.email for user in seated]}
    if seeds[0] is not None:
        body["client_seed"] = seeds[0]
    created = clients[0].post("/api/games/", body, format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    for client, seed in zip(clients[1:], seeds[1:], strict=True):
        answer = client.post(
            f"/api/games/{game_id}/accept/", {} if seed is None else {"client_seed": seed}, "json"
        )
        assert answer.status_code == 200, answer.content
    return Game.objects.get(id=game_id), clients


def _play_to_the_end(game, seated, *, moves=None):
    """Play random legal moves as the players (all of them, or ``moves`` of them)."""
    rng = random.Random(3)
    played = 0
    while game.status == GameStatus.ACTIVE and (moves is None or played < moves):
        state = game.load_state()
        seat = game.current_seat
        action = random_action(piratz.legal_actions(state, seat), rng, 0.8)
        game = actions.do_play_move(game.id, seated[seat], game.version, action)
        played += 1
    game.refresh_from_db()
    return game


def _run_tool(data, *args):
    return subprocess.run(
        [sys.executable, str(TOOL), "-", *args],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def finished(anna, bert, carla):
    game, clients = _create([anna, bert, carla], ["anna-seed", "b3rt_", None])
    return _play_to_the_end(game, [anna, bert, carla]), clients


def test_the_game_is_dealt_with_the_key_of_all_seeds(anna, bert, carla):
    game, clients = _create([anna, bert, carla], ["anna-seed", None, "Carla_42"])
    seed = bytes.fromhex(game.server_seed)
    assert game.seed_commitment == piratz.shuffle_commitment(seed)
    expected = piratz.shuffle_key(seed, ["anna-seed", "", "Carla_42"])
    assert game.load_state() == piratz.new_game(3, key=expected)
    body = clients[1].get(f"/api/games/{game.id}/").json()
    assert body["shuffle_commitment"] == game.seed_commitment
    assert body["server_seed"] is None
    assert [s["client_seed"] for s in body["seats"]] == ["anna-seed", None, "Carla_42"]
    # The invitees hold their own copy of the commitment, in the invitation email.
    invitation = OutboundEmail.objects.filter(to=bert.email, topic=f"game:{game.id}").first()
    invitation.rendered()
    assert game.seed_commitment in invitation.body_text
    assert game.seed_commitment in invitation.body_html


@pytest.mark.parametrize("seed", ["", "x" * 65, "no spaces", "äö", 12, ["a"]])
def test_a_bad_client_seed_is_refused_and_changes_nothing(anna, bert, seed):
    created = client_for(anna).post(
        "/api/games/", {"game": "piratz", "players": [anna.email, bert.email]}, format="json"
    )
    game_id = created.json()["id"]
    answer = client_for(bert).post(
        f"/api/games/{game_id}/accept/", {"client_seed": seed}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert Game.objects.get(id=game_id).status == GameStatus.INVITED
    refused = client_for(anna).post(
        "/api/games/",
        {"game": "piratz", "players": [anna.email, bert.email], "client_seed": seed},
        format="json",
    )
    assert refused.status_code == 400


def test_the_service_refuses_a_bad_client_seed_too(anna, bert):
    with pytest.raises(actions.ServiceError) as refused:
        actions.do_create_game(anna, [anna.email, bert.email], client_seed="bad seed")
    assert refused.value.code == "invalid"


def test_a_finished_game_verifies_everywhere(finished, outsider, client, capsys):
    game, clients = finished
    assert game.status == GameStatus.FINISHED
    response = clients[2].get(f"/api/games/{game.id}/verification/")
    assert response.status_code == 200
    data = response.json()
    assert data["verified"] is True
    assert [c["check"] for c in data["checks"]] == ["commitment", "key", "deal", "replay"]
    assert data["server_seed"] == game.server_seed
    assert data["key"] == piratz.dump(game.load_state())["key"]
    assert clients[0].get(f"/api/games/{game.id}/").json()["server_seed"] == game.server_seed
    reveals = [m.revealed for m in Move.objects.filter(game=game) if m.revealed is not None]
    deck = data["shuffles"][0]["order"]
    assert reveals[: len(deck)] == deck[: len(reveals)]
    # Outsiders cannot see it, as they cannot see the game.
    assert client_for(outsider).get(f"/api/games/{game.id}/verification/").status_code == 404

    # The page says so, with the JSON the standalone script reads.
    client.force_login(game.host)
    page = client.get(reverse("games:verification", args=[game.id]))
    assert page.status_code == 200
    assert "Verified: this game was dealt as committed." in page.content.decode()
    assert game.server_seed in page.content.decode()

    # The management command.
    call_command("verify_game", str(game.id))
    assert capsys.readouterr().out.strip().endswith("verified")

    # The standalone script, from the public JSON alone, redoes the same shuffles.
    run = _run_tool(data)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "VERIFIED" in run.stdout and "published shuffles: ok" in run.stdout


def test_the_scripts_copy_of_the_derivation_is_the_engines():
    sys.path.insert(0, str(TOOL.parent))
    try:
        import verify_game as tool
    finally:
        sys.path.remove(str(TOOL.parent))
    from games.kinds.piratz.rules.deck import CUBE_VALUES, DECK, TREASURES
    from games.kinds.piratz.rules.shuffle import COMMITMENT_PREFIX, KEY_PREFIX

    assert tool.TREASURES == TREASURES and tool.CUBE_VALUES == CUBE_VALUES
    assert DECK.ids == tool.CARD_IDS
    assert tuple(c for c in tool.CARD_IDS if c not in tool.SKULL_IDS) == DECK.ids_without_skulls
    assert (tool.COMMITMENT_PREFIX, tool.KEY_PREFIX) == (COMMITMENT_PREFIX, KEY_PREFIX)
    seed = bytes(range(32))
    assert tool.commitment(seed) == piratz.shuffle_commitment(seed)
    for players in (2, 3, 4):
        seeds = ["a", None, "c-_", "dd"][:players]
        key = tool.shuffle_key(seed, seeds)
        assert key == piratz.shuffle_key(seed, [s or "" for s in seeds])
        draw, cubes = tool.deal(players, key)
        state = piratz.new_game(players, key=key)
        assert tuple(draw) == state.draw
        assert list(cubes.values()) == [list(values) for values in state.cubes]


def test_tampering_with_the_log_key_or_commitment_does_not_verify(finished):
    game, clients = finished
    data = clients[0].get(f"/api/games/{game.id}/verification/").json()

    reveal = next(e for e in data["log"] if e["revealed"] is not None)
    other = next(e for e in data["log"] if e["revealed"] not in (None, reveal["revealed"]))
    tampered_log = copy.deepcopy(data)
    for entry in tampered_log["log"]:
        if entry["number"] == reveal["number"]:
            entry["revealed"] = other["revealed"]
    run = _run_tool(tampered_log)
    assert run.returncode == 1 and "deal: FAILED" in run.stdout
    assert f"move {reveal['number']}" in run.stdout

    tampered_key = dict(data, key="00" * 32)
    run = _run_tool(tampered_key)
    assert run.returncode == 1 and "key: FAILED" in run.stdout

    tampered_commitment = dict(data, commitment="ab" * 32)
    run = _run_tool(tampered_commitment)
    assert run.returncode == 1 and "commitment: FAILED" in run.stdout

    tampered_cubes = copy.deepcopy(data)
    tampered_cubes["cubes"]["rings"], tampered_cubes["cubes"]["shells"] = [9, 9], [9, 9]
    assert _run_tool(tampered_cubes).returncode == 1

    # The server's own check finds a log changed in the database, and a changed seed.
    Move.objects.filter(game=game, number=reveal["number"]).update(revealed=other["revealed"])
    checked = fairness.verification(Game.objects.get(id=game.id))
    assert checked["verified"] is False
    assert {c["check"]: c["passed"] for c in checked["checks"]} == {
        "commitment": True,
        "key": True,
        "deal": False,
        "replay": True,  # the moves themselves replay; the card they name does not match
    }
    Game.objects.filter(id=game.id).update(server_seed="11" * 32)
    checked = fairness.verification(Game.objects.get(id=game.id))
    assert checked["checks"][0] == {"check": "commitment", "passed": False}
    with pytest.raises(SystemExit) as exit_code:
        call_command("verify_game", str(game.id), stdout=io.StringIO(), stderr=io.StringIO())
    assert exit_code.value.code == 1


def test_an_unfinished_game_shows_only_the_commitment(anna, bert, client):
    game, clients = _create([anna, bert], [None, "bert"])
    game = _play_to_the_end(game, [anna, bert], moves=5)
    data = clients[0].get(f"/api/games/{game.id}/verification/").json()
    assert data["verified"] is None and data["checks"] == []
    assert data["commitment"] == game.seed_commitment
    assert data["server_seed"] is data["key"] is data["log"] is data["shuffles"] is None
    assert _run_tool(data).returncode == 2
    client.force_login(anna)
    page = client.get(reverse("games:verification", args=[game.id])).content.decode()
    assert "Verifiable after the end" in page
    with pytest.raises(SystemExit) as exit_code:
        call_command("verify_game", str(game.id), stdout=io.StringIO(), stderr=io.StringIO())
    assert exit_code.value.code == 2


def test_an_aborted_game_publishes_its_seed_and_verifies(anna, bert, moderator):
    game, clients = _create([anna, bert], ["a", "b"])
    game = _play_to_the_end(game, [anna, bert], moves=7)
    actions.do_abort_game(game.id, moderator, version=game.version, reason="testing")
    data = clients[1].get(f"/api/games/{game.id}/verification/").json()
    assert data["status"] == "aborted"
    assert data["verified"] is True
    assert _run_tool(data).returncode == 0


def test_a_cancelled_game_publishes_its_seed_against_the_commitment(anna, bert):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    actions.do_decline_invitation(game.id, bert)
    data = client_for(anna).get(f"/api/games/{game.id}/verification/").json()
    assert data["server_seed"] == Game.objects.get(id=game.id).server_seed
    assert data["checks"] == [{"check": "commitment", "passed": True}]
    assert data["verified"] is True and data["key"] is None


def test_seed_and_key_appear_nowhere_before_the_end(anna, bert, carla, caplog, moderator_client):
    caplog.set_level(logging.DEBUG)
    client = Client()  # the players' browser; moderator_client is the admin's
    seated = [anna, bert, carla]
    game, clients = _create(seated, ["s1", "s2", "s3"])
    secrets = (game.server_seed, piratz.dump(game.load_state())["key"])
    game = _play_to_the_end(game, seated, moves=20)
    assert game.status == GameStatus.ACTIVE
    texts = []
    for user, api in zip(seated, clients, strict=True):
        for path in ("", "moves/", "verification/"):
            texts.append(api.get(f"/api/games/{game.id}/{path}").content.decode())
        texts.append(api.get("/api/games/").content.decode())
        client.force_login(user)
        for name in ("game", "verification", "replay"):
            texts.append(client.get(reverse(f"games:{name}", args=[game.id])).content.decode())
    for email in OutboundEmail.objects.all():
        email.rendered()
        texts += [email.subject, email.body_text, email.body_html]
    texts.append(caplog.text)
    texts.append(client_for(anna).get("/api/schema/").content.decode())
    admin_page = reverse("admin:games_game_change", args=[game.id])
    texts.append(moderator_client.get(admin_page).content.decode())
    assert len(texts) > 20
    state = game.load_state()
    for text in texts:
        assert_no_secrets(text, state, server_seed=game.server_seed)
    assert game.seed_commitment in texts[0]
    assert "secret until the game has ended" in texts[-1]  # the admin page
    # Stored once each: the seed on the game row, the key inside its secret state.
    stored = every_stored_value()
    assert stored.count(secrets[0]) == 1 and stored.count(secrets[1]) == 1

    # Once the game has ended the seed is public, in the admin too.
    game = _play_to_the_end(game, seated)
    assert game.server_seed in moderator_client.get(admin_page).content.decode()
