"""Two pairing workers at once, on PostgreSQL: every seek is matched into one game at most,
and every table is started once (SKIP LOCKED claims, decision 0003)."""

import pytest

from core.tasks import task_named
from games.models import Game, Seat
from quickmatch import actions
from quickmatch.models import Seek, SeekStatus
from tests.concurrency import at_once
from tests.factories import TOY_KIND, make_user

pytestmark = [
    pytest.mark.postgres("row locks: SKIP LOCKED claims split the tables between workers"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
]

SEEKERS = 12


@pytest.fixture(autouse=True)
def _no_pairing_on_post(monkeypatch):
    """A new seek asks the worker after commit (eagerly here): only the racing workers pair."""
    monkeypatch.setattr(task_named("quickmatch.tasks.pair_seeks"), "delay", lambda: None)


def test_two_workers_at_once_start_each_table_once(toy_games):
    people = [make_user(f"p{n}@example.com") for n in range(SEEKERS)]
    for person in people:
        actions.do_post_seek(person, game=TOY_KIND, players=2, turn_hours_min=24, turn_hours_max=72)
    started = at_once([actions.pair_waiting_seeks, actions.pair_waiting_seeks])
    assert sum(started) == SEEKERS // 2 == Game.objects.count()
    assert Seek.objects.filter(status=SeekStatus.MATCHED).count() == SEEKERS
    # Each person sits at exactly one game; each game has two seeks, its two players.
    assert sorted(Seat.objects.values_list("user_id", flat=True)) == sorted(p.pk for p in people)
    for game in Game.objects.all():
        seekers = set(Seek.objects.filter(game=game).values_list("user_id", flat=True))
        assert seekers == set(game.seats.values_list("user_id", flat=True))
    assert sum(at_once([actions.pair_waiting_seeks] * 2)) == 0


def test_a_withdrawal_racing_the_worker_is_either_withdrawn_or_matched(toy_games):
    anna, bert = make_user("anna@example.com"), make_user("bert@example.com")
    for person in (anna, bert):
        actions.do_post_seek(person, game=TOY_KIND, players=2, turn_hours_min=24, turn_hours_max=72)
    seek = Seek.objects.get(user=anna)

    def withdraw():
        try:
            return actions.do_withdraw_seek(anna, seek.id).status
        except actions.ServiceError as refusal:
            return refusal.code

    withdrawn, started = at_once([withdraw, actions.pair_waiting_seeks])
    seek.refresh_from_db()
    if started:
        assert withdrawn == "conflict" and seek.status == SeekStatus.MATCHED
    else:
        assert withdrawn == SeekStatus.WITHDRAWN and not Game.objects.exists()
