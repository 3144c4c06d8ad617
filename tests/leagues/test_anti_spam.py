"""A league's invitations are emails to addresses a person typed: they count against the
same anti-spam limits as a game's (games.invitation_limits), both ways, and the league's
name, which every invitation carries, is cleaned by the one rule for typed text."""

import pytest

from accounts.models import User
from core.errors import ServiceError
from games import actions as game_actions
from games.models import Game
from leagues import actions
from leagues.models import League, LeagueMember
from notifications.models import OutboundEmail
from tests.concurrency import at_once
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _league(organiser, emails, name="Winter league"):
    return actions.do_create_league(organiser, name=name, players=[organiser.email, *emails])


def _refused(call) -> ServiceError:
    with pytest.raises(ServiceError) as refusal:
        call()
    return refusal.value


class TestUnansweredInvitationsPerAddress:
    def test_an_address_with_five_unanswered_invitations_gets_no_league_invitation(
        self, anna, settings
    ):
        assert settings.PENDING_INVITATIONS_PER_ADDRESS == 5
        for number in range(5):
            host = make_user(f"host{number}@example.com")
            game_actions.do_create_game(host, [host.email, "busy@example.com"])
        emails_before = OutboundEmail.objects.count()
        refusal = _refused(lambda: _league(anna, ["busy@example.com", "new@example.com"]))
        assert refusal.code == "throttled"
        assert refusal.detail == (
            "One of these addresses cannot be invited right now; try again later."
        )
        # Nothing created: no league, no member, no account for the new address, no email.
        assert not League.objects.exists() and not LeagueMember.objects.exists()
        assert not User.objects.filter(email="new@example.com").exists()
        assert OutboundEmail.objects.count() == emails_before

    def test_unanswered_league_invitations_count_for_a_game_invitation(self, anna, bert, settings):
        settings.PENDING_INVITATIONS_PER_ADDRESS = 1
        _league(anna, ["busy@example.com", "other@example.com"])
        refusal = _refused(
            lambda: game_actions.do_create_game(bert, [bert.email, "busy@example.com"])
        )
        assert refusal.code == "throttled"
        assert not Game.objects.exists()

    def test_an_answered_league_invitation_no_longer_counts(self, anna, bert, settings):
        settings.PENDING_INVITATIONS_PER_ADDRESS = 1
        league = _league(anna, ["busy@example.com", "other@example.com"])
        member = league.members.get(user__email="busy@example.com")
        actions.do_answer_invitation(member.pk, False)
        assert game_actions.do_create_game(bert, [bert.email, "busy@example.com"])


class TestInvitationsPerAccountPerDay:
    def test_an_account_near_its_daily_invitations_cannot_invite_a_league_past_them(
        self, anna, settings
    ):
        settings.INVITATIONS_PER_USER_PER_DAY = 4
        game_actions.do_create_game(anna, [anna.email, "a@example.com", "b@example.com"])
        strangers = [f"stranger{n}@example.com" for n in range(3)]
        refusal = _refused(lambda: _league(anna, strangers, name="FREE PRIZES at evil.example"))
        assert refusal.code == "throttled"
        assert refusal.detail == "You can invite at most 4 players a day."
        assert not League.objects.exists()
        assert not OutboundEmail.objects.filter(template="league_invitation").exists()
        # What is left of the day's invitations still goes.
        assert _league(anna, strangers[:2])

    def test_a_leagues_invitations_count_against_the_games_of_the_day(self, anna, settings):
        settings.INVITATIONS_PER_USER_PER_DAY = 4
        _league(anna, ["a@example.com", "b@example.com", "c@example.com"])
        refusal = _refused(
            lambda: game_actions.do_create_game(
                anna, [anna.email, "d@example.com", "e@example.com"]
            )
        )
        assert refusal.code == "throttled"
        assert not Game.objects.exists()


@pytest.mark.postgres("row locks: the organiser's row orders two requests at once")
@pytest.mark.django_db(transaction=True)
def test_a_league_and_a_game_at_once_cannot_both_slip_under_the_daily_invitations(anna, settings):
    settings.INVITATIONS_PER_USER_PER_DAY = 3
    results = at_once(
        [
            lambda: _attempt(lambda: _league(anna, ["a@example.com", "b@example.com"])),
            lambda: _attempt(
                lambda: game_actions.do_create_game(
                    anna, [anna.email, "c@example.com", "d@example.com"]
                )
            ),
        ]
    )
    assert sorted(results) == ["created", "throttled"]


def _attempt(call) -> str:
    try:
        call()
    except ServiceError as refusal:
        return refusal.code
    return "created"


class TestLeagueNames:
    @pytest.mark.parametrize(
        "name",
        [
            "Winter\u001b[31m league",  # an escape sequence
            "Winter\u0007 league",  # a bell
            "\u202eeugael retniW",  # a right-to-left override
            "Winter\u200b league",  # zero-width space: invisible
            "Winter\nNow it is Anna's turn.",  # a second line
            "x" * 81,
            "   ",
        ],
    )
    def test_a_name_the_rule_for_typed_text_refuses_creates_nothing(self, anna, name):
        refusal = _refused(lambda: _league(anna, ["b@example.com"], name=name))
        assert refusal.code == "invalid"
        assert refusal.detail.startswith("The league's name ")
        assert not League.objects.exists() and not OutboundEmail.objects.exists()

    def test_a_name_is_stored_trimmed(self, anna):
        league = _league(anna, ["b@example.com"], name="  Winterliga 🏆 Ä ")
        assert league.name == "Winterliga 🏆 Ä"
