"""A member deletes their account: the leagues' eraser (leagues.actions.erase_memberships)
withdraws their invitation and seats them in none of the league's later games; a member
who has left is seated in none either."""

import pytest
from django.test import TestCase
from django.utils import timezone

from accounts import erasure
from accounts.models import User
from games import actions as game_actions
from games.models import Game, GameStatus
from leagues import actions
from leagues.models import LeagueGame, LeagueGameStatus, LeagueMember, LeagueStatus
from leagues.standings import standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(anna, bert, carla, dirk):
    return [anna, bert, carla, dirk]


def _league(organiser, people, **options):
    return actions.do_create_league(
        organiser, name="Winter league", players=[p.email for p in people], **options
    )


def _answer(league, user, accept=True):
    member = LeagueMember.objects.get(league=league, user=user)
    with TestCase.captureOnCommitCallbacks(execute=True):
        actions.do_answer_invitation(member.pk, accept)


def _seated(user) -> set[int]:
    """The league game numbers whose players include ``user``, scheduled or started."""
    return {
        row.number
        for row in LeagueGame.objects.exclude(status=LeagueGameStatus.CANCELLED)
        if user.pk in row.players
    }


def test_an_erased_members_invitation_is_withdrawn_and_the_league_starts_without_them(
    four, anna, bert, carla, dirk
):
    league = _league(anna, four)
    _answer(league, bert)
    _answer(league, carla)
    with TestCase.captureOnCommitCallbacks(execute=True):
        erasure.erase_user(dirk.pk)
    league.refresh_from_db()
    assert league.status == LeagueStatus.ACTIVE
    assert LeagueGame.objects.filter(league=league).count() == 3  # three players left
    assert not _seated(dirk)
    member = LeagueMember.objects.get(league=league, user=dirk)
    assert member.left_at is not None and member.declined_at is None  # he never declined
    assert member.token_hash == ""  # the emailed link no longer answers anything


def test_an_erased_member_is_seated_in_none_of_the_leagues_later_games(four, anna, dirk):
    league = _league(anna, four, max_running=1)
    for person in four[1:]:
        _answer(league, person)
    running = _seated(dirk)
    assert len(running) == 3  # one game running, two scheduled
    with TestCase.captureOnCommitCallbacks(execute=True):
        erasure.erase_user(dirk.pk)
    # His scheduled games are cancelled; the running one plays on with a stand-in bot.
    assert len(_seated(dirk)) == 1
    assert Game.objects.filter(seats__user=dirk).count() == 1
    # Every other game can still start and be played; none ever seats him.
    users = {p.pk: p for p in four}
    for _round in range(6):
        for row in LeagueGame.objects.filter(
            league=league, status=LeagueGameStatus.STARTED, game__status=GameStatus.ACTIVE
        ):
            person = next(users[uid] for uid in row.players if uid != dirk.pk)
            with TestCase.captureOnCommitCallbacks(execute=True):
                game_actions.do_resign(row.game_id, person, row.game.version)
    league.refresh_from_db()
    assert league.status == LeagueStatus.FINISHED
    assert Game.objects.filter(seats__user=dirk).count() == 1
    # He stays in the standings as "former player", marked as having left.
    row = next(r for r in standings(league) if r["user_id"] == dirk.pk)
    assert row["name"] == "former player" and row["left"]


def test_a_scheduled_game_of_an_erased_member_is_cancelled_not_started(four, anna, dirk):
    """An account erased before its league's eraser existed (or any row that slipped past):
    the start of the league's games cancels its scheduled games instead of seating it."""
    league = _league(anna, four, max_running=1)
    for person in four[1:]:
        _answer(league, person)
    User.objects.filter(pk=dirk.pk).update(erased_at=timezone.now())
    (running,) = [
        row for row in LeagueGame.objects.filter(status=LeagueGameStatus.STARTED)
        if dirk.pk in row.players
    ]  # fmt: skip
    opponent = next(uid for uid in running.players if uid != dirk.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_actions.do_resign(running.game_id, User.objects.get(pk=opponent), 0)
    actions.advance_league(league.id)
    assert _seated(dirk) == {running.number}
    assert Game.objects.filter(seats__user=dirk).count() == 1


def test_a_member_who_left_an_invited_league_is_left_out_of_its_schedule(
    four, anna, bert, carla, dirk
):
    league = _league(anna, four)
    _answer(league, bert)
    actions.do_leave_league(league.id, bert)
    _answer(league, carla)
    _answer(league, dirk)
    league.refresh_from_db()
    assert league.status == LeagueStatus.ACTIVE
    assert LeagueGame.objects.filter(league=league).count() == 3
    assert not _seated(bert)
