"""Tournaments through their actions: a Swiss of five and an elimination of six played to
their ends, rounds closed by the last game and by the deadline (each once), withdrawal,
sign-up, invitations, blocks, a person's data (tournaments.actions)."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import TestCase
from django.utils import timezone

from accounts import personal_data
from accounts.erasure import erase_user
from core.errors import ServiceError
from games.models import Game, GameStatus
from notifications.models import OutboundEmail
from people.models import Block
from tournaments import actions
from tournaments.models import (
    DecidedBy,
    Entrant,
    Pairing,
    Result,
    Round,
    TournamentStatus,
)
from tournaments.standings import standings

from .helpers import (
    DRAW,
    FIRST_WINS,
    SECOND_WINS,
    current_pairings,
    people,
    play,
    play_round,
    start,
    tournament,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_games")]


def _signed_up(t, players):
    for person in players:
        actions.do_sign_up(t.id, person)


def test_a_swiss_of_five_plays_to_its_end_with_byes_and_buchholz():
    players = people(5, ratings=[1700, 1600, 1500, 1400, 1300])
    t = tournament(players[0], rounds=4)
    _signed_up(t, players)
    assert start(t) == 1
    assert t.status == TournamentStatus.RUNNING and t.rounds == 4
    seeds = {e.user_id: e.seed for e in Entrant.objects.filter(tournament=t)}
    assert [seeds[p.pk] for p in players] == [1, 2, 3, 4, 5]

    met: set[frozenset[int]] = set()
    byes = []
    for number in range(1, 5):
        rows = current_pairings(t)
        assert t.current_round == number
        games = [r for r in rows if r.second is not None]
        bye = [r for r in rows if r.second is None]
        assert len(games) == 2 and len(bye) == 1
        assert bye[0].result == Result.BYE  # decided at once: a win
        byes.append(bye[0].first.user_id)
        for r in games:
            pair = frozenset({r.first_id, r.second_id})
            assert pair not in met, "a pair met twice"
            met.add(pair)
            assert r.game.public and r.game.status == GameStatus.ACTIVE
        # One game a draw, the other won by its first player.
        play(games[0], DRAW)
        play(games[1], FIRST_WINS)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert len(set(byes)) == 4, "a bye went twice while avoidable"
    assert byes[0] == players[4].pk  # round 1: the lowest-ranked

    table = standings(t)
    scores = {row["user_id"]: row["score"] for row in table}
    assert sum(scores.values()) == 4 * 2 + 4  # every game shares 1, every bye is 1
    for row in table:
        mine = [
            p
            for p in Pairing.objects.filter(round__tournament=t).exclude(second=None)
            if row["entrant"].pk in (p.first_id, p.second_id)
        ]
        opponents = [p.second if p.first_id == row["entrant"].pk else p.first for p in mine]
        assert row["buchholz"] == sum(scores[o.user_id] for o in opponents)
    ordered = [(r["score"], r["buchholz"]) for r in table]
    assert ordered == sorted(ordered, reverse=True)

    mails = OutboundEmail.objects.filter(template="tournament_round")
    assert mails.count() == 4 * 5  # each round, each entrant
    bye_mail = mails.filter(to=players[4].email).order_by("id").first().rendered().body_text
    assert "You have a bye this round" in bye_mail
    ended = OutboundEmail.objects.filter(template="tournament_ended")
    assert ended.count() == 5
    assert "Buchholz" in ended.first().rendered().body_text


def test_an_elimination_of_six_gives_the_top_seeds_byes_and_the_higher_seed_a_draw():
    players = people(6, ratings=[1900, 1800, 1700, 1600, 1500, 1400])
    t = tournament(players[0], format="elimination")
    _signed_up(t, players)
    start(t)
    assert t.rounds == 3
    rows = current_pairings(t)
    seeds = [(r.first.seed, r.second.seed if r.second else None) for r in rows]
    assert seeds == [(1, None), (4, 5), (2, None), (3, 6)]
    assert all(r.advances_id == r.first_id for r in rows if r.second is None)
    four_five, three_six = rows[1], rows[3]
    play(four_five, DRAW)  # a draw: the higher seed (4) goes through
    play(three_six, SECOND_WINS)  # seed 6 knocks out seed 3
    four_five.refresh_from_db()
    assert four_five.result == Result.DRAW and four_five.advances.seed == 4

    rows = current_pairings(t)
    assert t.current_round == 2
    assert [(r.first.seed, r.second.seed) for r in rows] == [(1, 4), (2, 6)]
    play_round(t, FIRST_WINS)
    final = current_pairings(t)
    assert t.current_round == 3 and [(r.first.seed, r.second.seed) for r in final] == [(1, 2)]
    play(final[0], SECOND_WINS)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    table = standings(t)
    assert [r["seed"] for r in table[:2]] == [2, 1]
    assert table[0]["rank"] == 1 and table[1]["out_in"] == 3
    semis = [r for r in table if r["out_in"] == 2]
    assert {r["seed"] for r in semis} == {4, 6} and {r["rank"] for r in semis} == {3}


def test_the_last_game_of_a_round_pairs_the_next_once():
    players = people(4)
    t = tournament(players[0], rounds=3)
    _signed_up(t, players)
    start(t)
    first, second = current_pairings(t)
    play(first, FIRST_WINS)
    t.refresh_from_db()
    assert t.current_round == 1  # one game of the round is still running
    assert actions.advance_tournament(t.id) is False
    play(second, SECOND_WINS)
    t.refresh_from_db()
    assert t.current_round == 2
    assert Round.objects.get(tournament=t, number=1).ended_at is not None
    # The task again (a retry, a second worker) and the sweep: nothing twice.
    assert actions.advance_tournament(t.id) is False
    assert actions.advance_running_tournaments() == 0
    assert Round.objects.filter(tournament=t).count() == 2
    assert Pairing.objects.filter(round__tournament=t, round__number=2).count() == 2


def test_the_deadline_sweep_closes_a_round_once_and_the_late_game_no_longer_counts():
    players = people(4)
    t = tournament(players[0], rounds=2, round_days=3)
    _signed_up(t, players)
    start(t)
    done, late = current_pairings(t)
    play(done, FIRST_WINS)
    deadline = Round.objects.get(tournament=t, number=1).deadline
    with time_machine.travel(deadline - timedelta(minutes=1), tick=False):
        assert actions.close_overdue_rounds() == 0  # not yet due
    later = deadline + timedelta(minutes=1)
    with time_machine.travel(later, tick=False), TestCase.captureOnCommitCallbacks(execute=True):
        assert actions.close_overdue_rounds() == 1
        assert actions.close_overdue_rounds() == 0  # a second sweep: nothing twice
    late.refresh_from_db()
    assert late.result == Result.DRAW and late.decided_by == DecidedBy.DEADLINE
    assert late.game.status == GameStatus.ACTIVE  # it plays on, for nothing
    t.refresh_from_db()
    assert t.current_round == 2
    play(late, FIRST_WINS)
    late.refresh_from_db()
    assert late.result == Result.DRAW  # still the deadline's


def test_withdrawing_resigns_the_running_game_and_leaves_later_rounds():
    players = people(4, ratings=[1800, 1700, 1600, 1500])
    t = tournament(players[0], rounds=3)
    _signed_up(t, players)
    start(t)
    rows = current_pairings(t)
    mine = next(r for r in rows if players[3].pk in (r.first.user_id, r.second.user_id))
    with TestCase.captureOnCommitCallbacks(execute=True):
        actions.do_withdraw(t.id, players[3])
    mine.refresh_from_db()
    game = Game.objects.get(id=mine.game_id)
    assert game.status == GameStatus.FINISHED and game.result["resigned"]
    assert mine.result == (Result.SECOND if mine.first.user_id == players[3].pk else Result.FIRST)
    actions.do_withdraw(t.id, players[3])  # again: harmless
    for row in rows:
        row.refresh_from_db()
        if row.result == Result.PENDING:
            play(row, FIRST_WINS)
    t.refresh_from_db()
    assert t.current_round == 2
    round_two = current_pairings(t)
    seated = {e.user_id for r in round_two for e in (r.first, r.second) if e is not None}
    assert players[3].pk not in seated and len(seated) == 3  # three left: one bye
    assert next(r for r in standings(t) if r["user_id"] == players[3].pk)["withdrawn"]


def test_sign_up_is_open_until_the_start_and_refuses_what_it_must():
    players = people(5)
    t = tournament(players[0], max_entrants=3)
    actions.do_sign_up(t.id, players[0])
    assert actions.do_sign_up(t.id, players[0]).is_in  # again: harmless
    actions.do_sign_up(t.id, players[1])
    actions.do_sign_up(t.id, players[2])
    with pytest.raises(ServiceError) as full:
        actions.do_sign_up(t.id, players[3])
    assert full.value.code == "conflict"
    actions.do_withdraw(t.id, players[2])  # before the start: simply off the list
    actions.do_sign_up(t.id, players[3])
    players[4].suspended_at = timezone.now()
    players[4].save()
    with pytest.raises(ServiceError) as suspended:
        actions.do_sign_up(t.id, players[4])
    assert suspended.value.code == "suspended"
    start(t)
    with pytest.raises(ServiceError) as closed:
        actions.do_sign_up(t.id, players[2])
    assert closed.value.code == "conflict"
    assert Entrant.objects.filter(tournament=t, seed__isnull=False).count() == 3


def test_two_sweeps_racing_for_one_start_claim_it_once():
    players = people(3)
    t = tournament(players[0])
    later = t.starts_at + timedelta(seconds=1)
    assert not actions.claim_start(t.id, t.starts_at - timedelta(seconds=1))  # not yet due
    assert actions.claim_start(t.id, later)
    assert not actions.claim_start(t.id, later)  # the second sweep, which read it as due


def test_the_start_is_claimed_once_and_too_few_cancel_it():
    players = people(2)
    t = tournament(players[0])
    _signed_up(t, players)
    assert start(t) == 1
    assert t.status == TournamentStatus.CANCELLED
    assert start(t) == 0
    assert OutboundEmail.objects.filter(template="tournament_cancelled").count() == 2
    assert not Game.objects.exists()


def test_invitations_are_emailed_count_against_the_limits_and_keep_only_a_hash(settings):
    players = people(4)
    t = tournament(
        players[0],
        signup="invitation",
        invitees=[players[0].email, "P2", players[2].email],
    )
    assert Entrant.objects.get(tournament=t, user=players[0]).is_in  # the organiser plays
    mails = OutboundEmail.objects.filter(template="tournament_invitation")
    assert sorted(m.to for m in mails) == sorted([players[1].email, players[2].email])
    body = mails.get(to=players[1].email).rendered().body_text
    token = re.search(r"/tournaments/invitation/([^/]+)/", body).group(1)
    entrant = Entrant.objects.get(tournament=t, user=players[1])
    assert entrant.token_hash == Entrant.hash_token(token) and token not in entrant.token_hash
    assert actions.entrant_for_token(token) == entrant
    # Not invited: no way in.
    with pytest.raises(ServiceError) as outsider:
        actions.do_sign_up(t.id, players[3])
    assert outsider.value.code == "not_found"
    # Two invitations count with a game's against the daily limit.
    settings.INVITATIONS_PER_USER_PER_DAY = 3
    with pytest.raises(ServiceError) as throttled:
        tournament(players[0], name="Again", signup="invitation", invitees=["a@x.org", "b@x.org"])
    assert throttled.value.code == "throttled"
    actions.do_sign_up(t.id, players[1])
    actions.do_decline_invitation(Entrant.objects.get(tournament=t, user=players[2]).pk)
    assert Entrant.objects.get(tournament=t, user=players[2]).declined_at is not None


def test_a_block_refuses_the_invitation_as_a_busy_address():
    anna, bert = people(2)
    Block.objects.create(blocker=bert, blocked=anna)
    with pytest.raises(ServiceError) as refused:
        tournament(anna, signup="invitation", invitees=[bert.email])
    assert refused.value.code == "throttled"
    assert "blocked" not in refused.value.detail


def test_swiss_does_not_pair_blocked_people_where_avoidable():
    players = people(4, ratings=[1800, 1700, 1600, 1500])
    Block.objects.create(blocker=players[0], blocked=players[1])
    t = tournament(players[2])
    _signed_up(t, players)
    start(t)
    pairs = {frozenset({r.first.user_id, r.second.user_id}) for r in current_pairings(t)}
    assert frozenset({players[0].pk, players[1].pk}) not in pairs


def test_export_and_erasure():
    players = people(3)
    t = tournament(players[0], rounds=1)
    _signed_up(t, players)
    start(t)
    files = personal_data.export_files(players[1])
    [entry] = files["tournaments.json"]
    assert entry["tournament"] == "Spring open" and entry["seed"] is not None
    assert len(entry["pairings"]) == 1
    other = tournament(players[0], name="Later")
    actions.do_sign_up(other.id, players[1])
    with TestCase.captureOnCommitCallbacks(execute=True):
        erase_user(players[1].pk)
    assert Entrant.objects.get(tournament=other, user=players[1]).withdrawn_at is not None
    assert Entrant.objects.get(tournament=t, user=players[1]).withdrawn_at is not None


def test_a_refused_creation_creates_nothing():
    (anna,) = people(1)
    for bad in (
        {"starts_at": timezone.now() - timedelta(minutes=1)},
        {"starts_at": timezone.now() + timedelta(days=91)},
        {"format": "ladder"},
        {"rounds": 16},
        {"blind": True},
        {"invitees": ["bert@example.com"]},
        {"signup": "invitation"},
        {"game": "nonesuch"},
        {"clock": {"kind": "hourglass"}},
    ):
        with pytest.raises(ServiceError) as refused:
            tournament(anna, **bad)
        assert refused.value.code == "invalid", bad
    assert not actions.Tournament.objects.exists()
    assert not OutboundEmail.objects.exists()
