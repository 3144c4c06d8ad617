"""The benchmark's bare write (bench/bare.py): the floor `make bench-peer` measures must do
what a move must do, or the bound it prints says nothing."""

import pytest

from games.models import Actor, Game, Move
from tests.factories import client_for, start_game

pytestmark = pytest.mark.postgres(
    "the bare write locks its row with FOR UPDATE, as bench/api.py runs"
)


@pytest.fixture
def bench_urls(settings):
    settings.ROOT_URLCONF = "bench.urls"


def test_a_bare_write_checks_the_version_writes_the_row_back_and_logs_one_move(
    bench_urls, anna, bert
):
    game = start_game([anna, bert])
    client = client_for(anna)
    path = f"/bench/bare-move/{game.id}/"

    answer = client.post(path, {"version": game.version}, format="json")

    assert answer.status_code == 200
    assert answer.json() == {"version": game.version + 1}
    written = Game.objects.get(id=game.id)
    assert written.version == game.version + 1
    assert written.state == game.state  # written back as read
    move = Move.objects.get(game=game, number=game.version + 1)
    assert (move.action, move.seat, move.actor, move.actor_user) == (
        {"action": "bare"},
        0,
        Actor.PLAYER,
        anna,
    )


def test_a_stale_bare_write_changes_nothing(bench_urls, anna, bert):
    game = start_game([anna, bert])
    client = client_for(anna)
    path = f"/bench/bare-move/{game.id}/"
    assert client.post(path, {"version": game.version}, format="json").status_code == 200

    answer = client.post(path, {"version": game.version}, format="json")

    assert answer.status_code == 409
    assert Game.objects.get(id=game.id).version == game.version + 1
    assert Move.objects.filter(game=game).count() == 1


def test_a_bare_write_needs_an_api_key(bench_urls, anna, bert):
    game = start_game([anna, bert])

    answer = client_for(None).post(
        f"/bench/bare-move/{game.id}/", {"version": game.version}, format="json"
    )

    assert answer.status_code == 401
    assert Game.objects.get(id=game.id).version == game.version
