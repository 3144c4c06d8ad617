"""Open games (lobby.actions, games.actions.open_seats): creating one, taking its seats,
the start when the last is taken, the limits, blocks and suspensions, withdrawing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core.errors import ServiceError
from games.models import Game, GameStatus, Seat
from lobby import actions
from lobby.models import Closed, OpenGame
from notifications.models import OutboundEmail
from people.models import Block
from ratings.models import Rating
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _refused(call) -> ServiceError:
    with pytest.raises(ServiceError) as refusal:
        call()
    return refusal.value


def _open(host, **options) -> OpenGame:
    return actions.do_create_open_game(host, **{"game": "piratz", "seats": 2, **options})


def _rate(user, display: int, kind: str = "piratz") -> None:
    """Give ``user`` the displayed rating ``display`` at ``kind`` (sigma 0: ordinal = mu)."""
    Rating.objects.create(
        user=user, kind=kind, mu=(display - 1500) / 20, sigma=0, games=9, updated_at=timezone.now()
    )


class TestCreating:
    def test_the_host_sits_first_the_bots_next_and_the_rest_is_open(self, anna, settings):
        before = timezone.now()
        open_game = _open(anna, seats=4, bots=["careful"], turn_hours=24)
        game = open_game.game
        assert game.status == GameStatus.INVITED and game.public and not game.rated
        assert [(s.seat, s.user, s.bot, s.accepted) for s in game.seats.all()] == [
            (0, anna, "", True),
            (1, None, "careful", True),
        ]
        assert open_game.seats == 4 and open_game.is_open
        expected = before + timedelta(hours=settings.OPEN_GAME_HOURS)
        assert expected <= open_game.expires_at <= expected + timedelta(minutes=1)
        # Nobody is invited: no email at all, and the games' invitation sweep never sees it.
        assert not OutboundEmail.objects.exists()
        assert game.invitation_expires_at is None

    def test_a_lobby_game_is_rated_and_public_unless_the_host_says_not(self, anna):
        game = _open(anna).game
        assert game.rated and game.public
        game = _open(anna, rated=False, public=False).game
        assert not game.rated and not game.public

    def test_the_rating_range_is_the_hosts_rating_plus_or_minus(self, anna):
        _rate(anna, 1600)
        open_game = _open(anna, rating_spread=100)
        assert (open_game.rating_min, open_game.rating_max) == (1500, 1700)
        open_game = _open(anna, rating_min=1200, rating_max=1400, language="de")
        assert (open_game.rating_min, open_game.rating_max, open_game.language) == (
            1200,
            1400,
            "de",
        )

    @pytest.mark.parametrize(
        "options",
        [
            {"seats": 5},
            {"seats": 2, "bots": ["careful"]},  # no seat left open
            {"seats": 3, "bots": ["genius"]},
            {"game": "rattenscharf", "blind": True},
            {"seats": 3, "bots": ["careful"], "rated": True},
            {"rating_spread": 100, "rating_min": 1000},
            {"rating_min": 1600, "rating_max": 1500},
            {"language": "fr"},
            {"turn_hours": 0},
            {"clock": {"kind": "daily"}},
        ],
    )
    def test_a_bad_request_creates_nothing(self, anna, options):
        assert _refused(lambda: _open(anna, **options)).code == "invalid"
        assert not Game.objects.exists() and not OpenGame.objects.exists()

    def test_open_games_per_person_at_once(self, anna, bert, settings):
        settings.OPEN_GAMES_PER_USER = 2
        first = _open(anna)
        _open(anna)
        refusal = _refused(lambda: _open(anna))
        assert refusal.code == "conflict"
        assert Game.objects.count() == 2
        # A game that left the lobby no longer counts.
        actions.do_withdraw_open_game(first.pk, anna)
        _open(anna)

    def test_a_suspended_person_cannot_put_a_game_in_the_lobby(self, anna):
        anna.suspended_at = timezone.now()
        anna.save()
        assert _refused(lambda: _open(anna)).code == "suspended"
        assert not Game.objects.exists()


class TestJoining:
    def test_the_last_seat_starts_the_game_once_and_everyone_is_told(self, anna, bert, carla):
        open_game = _open(anna, seats=3)
        _same, started = actions.do_join_open_game(open_game.pk, bert)
        assert not started
        game = Game.objects.get(pk=open_game.pk)
        assert game.status == GameStatus.INVITED
        # Taking a seat that does not fill the table tells nobody (no noise).
        assert not OutboundEmail.objects.exists()

        _same, started = actions.do_join_open_game(open_game.pk, carla)
        assert started
        game.refresh_from_db()
        assert game.status == GameStatus.ACTIVE and game.version == 0
        assert [s.user for s in game.seats.order_by("seat")] == [anna, bert, carla]
        open_game.refresh_from_db()
        assert open_game.closed == Closed.STARTED and open_game.closed_at is not None
        started_to = set(
            OutboundEmail.objects.filter(template="game_started").values_list("to", flat=True)
        )
        assert started_to == {anna.email, bert.email, carla.email}

    def test_nobody_joins_twice_or_their_own_game(self, anna, bert):
        open_game = _open(anna, seats=3)
        assert _refused(lambda: actions.do_join_open_game(open_game.pk, anna)).code == "conflict"
        actions.do_join_open_game(open_game.pk, bert)
        assert _refused(lambda: actions.do_join_open_game(open_game.pk, bert)).code == "conflict"
        assert Seat.objects.filter(game_id=open_game.pk).count() == 2

    def test_a_started_or_unknown_game_is_not_open(self, anna, bert, carla):
        open_game = _open(anna)
        actions.do_join_open_game(open_game.pk, bert)
        refusal = _refused(lambda: actions.do_join_open_game(open_game.pk, carla))
        assert refusal.code == "not_found"
        unknown = "00000000-0000-0000-0000-000000000000"
        assert _refused(lambda: actions.do_join_open_game(unknown, carla)).code == "not_found"

    def test_a_game_past_its_time_takes_nobody_even_before_the_sweep(self, anna, bert):
        open_game = _open(anna)
        OpenGame.objects.filter(pk=open_game.pk).update(expires_at=timezone.now())
        assert _refused(lambda: actions.do_join_open_game(open_game.pk, bert)).code == "not_found"
        assert Seat.objects.filter(game_id=open_game.pk).count() == 1

    def test_the_language_asked_for(self, anna, bert, carla):
        open_game = _open(anna, seats=3, language="de")
        bert.language = "de"
        bert.save()
        actions.do_join_open_game(open_game.pk, bert)
        # Carla chose no language: the one she reads now (her browser's) decides.
        refusal = _refused(
            lambda: actions.do_join_open_game(open_game.pk, carla, reader_language="en")
        )
        assert refusal.code == "conflict" and "Deutsch" in refusal.detail
        actions.do_join_open_game(open_game.pk, carla, reader_language="de")

    def test_the_rating_range_asked_for(self, anna, bert, carla):
        _rate(anna, 1500)
        _rate(bert, 1800)
        open_game = _open(anna, seats=3, rating_spread=200)
        refusal = _refused(lambda: actions.do_join_open_game(open_game.pk, bert))
        assert refusal.code == "conflict"
        assert refusal.detail == "This game is for players rated 1300 to 1700 at it; yours is 1800."
        # A new player's rating is 1500.
        actions.do_join_open_game(open_game.pk, carla)

    def test_joins_per_hour(self, anna, bert, settings):
        settings.LOBBY_JOINS_PER_HOUR = 2
        hosts = [make_user(f"host{n}@example.com") for n in range(3)]
        games = [_open(host, seats=3) for host in hosts]
        actions.do_join_open_game(games[0].pk, bert)
        actions.do_join_open_game(games[1].pk, bert)
        assert _refused(lambda: actions.do_join_open_game(games[2].pk, bert)).code == "throttled"
        assert not Seat.objects.filter(game_id=games[2].pk, user=bert).exists()

    def test_a_suspended_person_cannot_join(self, anna, bert):
        open_game = _open(anna)
        bert.suspended_at = timezone.now()
        bert.save()
        assert _refused(lambda: actions.do_join_open_game(open_game.pk, bert)).code == "suspended"
        assert Game.objects.get(pk=open_game.pk).status == GameStatus.INVITED


class TestBlocks:
    """People who block each other never meet, and the refusal never says why."""

    @pytest.mark.parametrize("who_blocks", ["host", "joiner", "seated"])
    def test_a_blocked_person_is_told_no_such_game(self, anna, bert, carla, who_blocks):
        open_game = _open(anna, seats=3)
        actions.do_join_open_game(open_game.pk, carla)
        other = {"host": anna, "joiner": anna, "seated": carla}[who_blocks]
        if who_blocks == "joiner":
            Block.objects.create(blocker=bert, blocked=other)
        else:
            Block.objects.create(blocker=other, blocked=bert)
        refusal = _refused(lambda: actions.do_join_open_game(open_game.pk, bert))
        unknown = _refused(
            lambda: actions.do_join_open_game("00000000-0000-0000-0000-000000000000", bert)
        )
        assert (refusal.code, refusal.detail) == (unknown.code, unknown.detail)
        assert Game.objects.get(pk=open_game.pk).status == GameStatus.INVITED


class TestWithdrawing:
    def test_the_host_withdraws_and_those_who_joined_are_told(self, anna, bert):
        open_game = _open(anna, seats=3)
        actions.do_join_open_game(open_game.pk, bert)
        actions.do_withdraw_open_game(open_game.pk, anna)
        game = Game.objects.get(pk=open_game.pk)
        assert game.status == GameStatus.CANCELLED
        open_game.refresh_from_db()
        assert open_game.closed == Closed.WITHDRAWN
        emails = OutboundEmail.objects.filter(template="open_game_closed")
        assert [email.to for email in emails] == [bert.email]
        assert emails[0].rendered().subject == "Anna withdrew the open game of Piratz"
        # Twice: refused, nothing more sent.
        again = _refused(lambda: actions.do_withdraw_open_game(open_game.pk, anna))
        assert again.code == "game_not_active"
        assert emails.count() == 1

    def test_only_the_host_withdraws(self, anna, bert, carla):
        open_game = _open(anna, seats=3)
        actions.do_join_open_game(open_game.pk, bert)
        assert _refused(lambda: actions.do_withdraw_open_game(open_game.pk, bert)).code == (
            "not_host"
        )
        assert _refused(lambda: actions.do_withdraw_open_game(open_game.pk, carla)).code == (
            "not_found"
        )
        assert Game.objects.get(pk=open_game.pk).status == GameStatus.INVITED
