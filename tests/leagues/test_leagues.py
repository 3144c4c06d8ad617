"""Leagues: invitations, the staggered start, standings, leaving, emails (leagues.actions)."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import TestCase
from django.utils import timezone

from core.errors import ServiceError
from games.models import Game, GameStatus
from leagues import actions
from leagues.models import LeagueGame, LeagueGameStatus, LeagueMember, LeagueStatus
from leagues.standings import places, standings
from notifications.models import OutboundEmail
from tests.factories import TOY_KIND, make_user, play_to_the_end


@pytest.fixture
def four(anna, bert, carla, dirk):
    return [anna, bert, carla, dirk]


def _league(organiser, people, **options):
    options.setdefault("name", "Winter league")
    return actions.do_create_league(organiser, players=[p.email for p in people], **options)


def _accept_all(league):
    """Every invited member accepts; the games the last acceptance queues start (the
    after-commit task runs, eagerly under the test settings)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        for member in league.members.filter(accepted_at=None, declined_at=None):
            actions.do_answer_invitation(member.pk, True)
    league.refresh_from_db()


def _running(user):
    return Game.objects.filter(status=GameStatus.ACTIVE, seats__user=user).count()


def test_one_invitation_per_player_and_only_its_hash_kept(four, anna):
    league = _league(anna, four)
    mails = OutboundEmail.objects.filter(template="league_invitation")
    assert sorted(m.to for m in mails) == sorted(p.email for p in four[1:])
    link = mails.get(to=four[1].email).rendered().body_text
    token = re.search(r"/leagues/invitation/([^/]+)/", link).group(1)
    member = LeagueMember.objects.get(league=league, user=four[1])
    assert member.token_hash == LeagueMember.hash_token(token)
    assert token not in member.token_hash
    assert actions.member_for_token(token) == member
    assert league.status == LeagueStatus.INVITED and not LeagueGame.objects.exists()


def test_everyone_accepting_starts_a_staggered_round_robin(four, anna):
    league = _league(anna, four, max_running=1)
    _accept_all(league)
    assert league.status == LeagueStatus.ACTIVE
    assert LeagueGame.objects.filter(league=league).count() == 6
    # One game each at most: two games of two start, the other four wait.
    assert LeagueGame.objects.filter(status=LeagueGameStatus.STARTED).count() == 2
    assert all(_running(p) == 1 for p in four)
    assert OutboundEmail.objects.filter(template="league_started").count() == 4
    assert not OutboundEmail.objects.filter(template="invitation").exists()  # no per-game ones


def test_the_last_acceptance_only_schedules_and_a_task_starts_games_in_batches(
    four, anna, monkeypatch
):
    league = _league(anna, four, max_running=3)
    *first, last = league.members.filter(accepted_at=None)
    for member in first:
        actions.do_answer_invitation(member.pk, True)
    with TestCase.captureOnCommitCallbacks(execute=False) as queued:
        actions.do_answer_invitation(last.pk, True)
    # The acceptance's own transaction: the schedule, no game (the request stays fast).
    assert LeagueGame.objects.filter(league=league).count() == 6
    assert not LeagueGame.objects.filter(status=LeagueGameStatus.STARTED).exists()
    assert not Game.objects.exists()
    batches = []
    start = actions._start_due_games

    def counted(league, limit=None):
        batches.append(start(league, limit))
        return batches[-1]

    monkeypatch.setattr(actions, "START_BATCH", 2)
    monkeypatch.setattr(actions, "_start_due_games", counted)
    with TestCase.captureOnCommitCallbacks(execute=True):
        for callback in queued:
            callback()  # the queued advance_league task, eager under the test settings
    assert batches == [2, 2, 2, 0]  # each batch its own transaction, at most START_BATCH
    assert LeagueGame.objects.filter(status=LeagueGameStatus.STARTED).count() == 6
    assert actions.advance_league(league.id) == 0  # again: nothing twice


def test_a_finished_game_starts_the_next_and_scores(
    toy_games, four, anna, django_capture_on_commit_callbacks
):
    league = _league(anna, four, max_running=1, game=TOY_KIND)  # any game: the toy is quick
    _accept_all(league)
    first, second = LeagueGame.objects.filter(status=LeagueGameStatus.STARTED)
    users = {p.pk: p for p in four}
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(first.game, [users[uid] for uid in first.players])
    assert game.status == GameStatus.FINISHED
    table = standings(league)
    assert sum(r["points"] for r in table) == 1  # one two-player game: one point shared out
    # Each of the next games pairs one of them with one still playing: nothing starts yet.
    assert LeagueGame.objects.filter(status=LeagueGameStatus.STARTED).count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(second.game, [users[uid] for uid in second.players])
    assert LeagueGame.objects.filter(status=LeagueGameStatus.STARTED).count() == 4
    assert actions.advance_league(league.id) == 0


def test_the_league_ends_when_every_game_is_over(
    toy_games, anna, bert, django_capture_on_commit_callbacks
):
    league = _league(anna, [anna, bert], max_running=1, game=TOY_KIND)
    _accept_all(league)
    row = LeagueGame.objects.get(league=league)
    users = {anna.pk: anna, bert.pk: bert}
    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(row.game, [users[uid] for uid in row.players])
    league.refresh_from_db()
    assert league.status == LeagueStatus.FINISHED
    assert OutboundEmail.objects.filter(template="league_ended").count() == 2


def test_leaving_resigns_running_games_and_cancels_the_rest(four, anna, bert):
    league = _league(anna, four, max_running=1)
    _accept_all(league)
    actions.do_leave_league(league.id, bert)
    assert _running(bert) == 0
    resigned = Game.objects.filter(seats__user=bert, seats__resigned=True)
    assert resigned.count() == 1 and resigned.get().end_reason == "resigned"
    mine = [r for r in LeagueGame.objects.filter(league=league) if bert.pk in r.players]
    assert {r.status for r in mine} == {LeagueGameStatus.STARTED, LeagueGameStatus.CANCELLED}
    assert next(r for r in standings(league) if r["user_id"] == bert.pk)["left"]
    actions.do_leave_league(league.id, bert)  # twice: harmless


def test_groups_league_seats_three_or_four(anna, bert, carla, dirk):
    people = [anna, bert, carla, dirk] + [make_user(f"p{i}@example.com") for i in range(2)]
    league = _league(anna, people, format="groups", group_size=3, max_running=1)
    _accept_all(league)
    rows = list(LeagueGame.objects.filter(league=league))
    assert rows and all(len(r.players) == 3 for r in rows)
    started = [r for r in rows if r.status == LeagueGameStatus.STARTED]
    assert len(started) == 2


def test_a_decline_leaves_the_others_to_play(four, anna, bert):
    league = _league(anna, four)
    member = LeagueMember.objects.get(league=league, user=bert)
    actions.do_answer_invitation(member.pk, False)
    _accept_all(league)
    assert league.status == LeagueStatus.ACTIVE
    assert LeagueGame.objects.filter(league=league).count() == 3  # three players left


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"game": "chess"}, "Unknown game"),
        ({"format": "groups", "game": "rattenscharf"}, "is not played by"),
        ({"format": "groups", "group_size": 5}, "group_size"),
        ({"max_running": 0}, "max_running"),
        ({"name": " "}, "name"),
    ],
)
def test_refusals_say_why(four, anna, options, words):
    with pytest.raises(ServiceError) as refused:
        _league(anna, four, **options)
    assert refused.value.code == "invalid" and words in refused.value.detail


def test_players_by_name_and_unknown_names(anna, bert):
    league = actions.do_create_league(anna, name="L", players=[anna.email, "Bert"])
    assert {m.user for m in league.members.all()} == {anna, bert}
    with pytest.raises(ServiceError, match="Nobody is shown as"):
        actions.do_create_league(anna, name="L", players=[anna.email, "Nobody"])


def test_places_give_points_per_opponent_beaten():
    assert places(
        {"players": [{"seat": 0, "score": 5}, {"seat": 1, "score": 3}], "winners": [0]}
    ) == {0: 1.0, 1: 0.0}
    assert places(
        {"players": [{"seat": 0, "score": 4}, {"seat": 1, "score": 4}], "winners": [0, 1]}
    ) == {0: 0.5, 1: 0.5}
    four = {"players": [{"seat": s, "score": 10 - s} for s in range(4)], "winners": [0]}
    assert places(four) == {0: 3.0, 1: 2.0, 2: 1.0, 3: 0.0}
    resigned = {
        "players": [{"seat": 0, "score": 9}, {"seat": 1, "score": 1}],
        "winners": [1],
        "resigned": [0],
    }
    assert places(resigned) == {0: 0.0, 1: 1.0}


def test_weekly_standings_once_a_week_and_opt_out(four, anna, bert):
    league = _league(anna, four)
    _accept_all(league)
    later = timezone.now() + timedelta(days=8)
    actions.do_set_weekly_standings(league.id, bert, False)
    with time_machine.travel(later):
        assert actions.send_weekly_standings() == 3
        assert actions.send_weekly_standings() == 0  # the same week: nothing twice
    mails = OutboundEmail.objects.filter(template="league_standings")
    assert bert.email not in {m.to for m in mails}
    assert "1. " in mails.first().rendered().body_text
