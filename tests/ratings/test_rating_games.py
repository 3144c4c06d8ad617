"""A finished game moves its players' ratings once (ratings.service via games.events);
aborted, cancelled, bot and unrated games move nothing; a resignation is a loss; the
rebuild from the game records gives the very same numbers."""

import pytest
from django.core.management import call_command

from core.errors import ServiceError
from games import actions, events
from games.models import Game, GameStatus
from ratings import skill
from ratings.models import PROVISIONAL_GAMES, Rating, RatingChange
from tests.factories import TOY_KIND, make_user, play_to_the_end, start_game, start_toy_game
from tests.ratings.helpers import finish, played, result

pytestmark = pytest.mark.django_db


def rating(user, kind="piratz") -> Rating:
    return Rating.objects.get(user=user, kind=kind)


def numbers() -> dict:
    """Every rating and change as exact numbers (floats compared bit for bit)."""
    ratings = {
        (r.user_id, r.kind): (r.mu, r.sigma, r.games, r.updated_at) for r in Rating.objects.all()
    }
    changes = {
        (c.game_id, c.user_id): (c.rank, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
        for c in RatingChange.objects.all()
    }
    return {"ratings": ratings, "changes": changes}


def test_a_game_played_to_the_end_rates_its_players(toy_games, anna, bert):
    # Any game is rated by its kind: the toy's, quick to play out.
    game = play_to_the_end(start_toy_game([anna, bert]), [anna, bert])
    assert game.status == GameStatus.FINISHED and game.rated
    winners = game.result["winners"]
    for seat, user in enumerate([anna, bert]):
        row = rating(user, TOY_KIND)
        assert row.games == 1 and row.provisional
        assert row.sigma < skill.SIGMA
        if len(winners) == 1:
            assert (row.mu > skill.MU) == (seat in winners)
    assert RatingChange.objects.filter(game=game).count() == 2


def test_a_shared_win_in_a_four_player_game(anna, bert, carla, dirk):
    game = played([anna, bert, carla, dirk], [8, 8, 5, 2])
    places = dict(RatingChange.objects.filter(game=game).values_list("user_id", "rank"))
    assert places == {anna.id: 1, bert.id: 1, carla.id: 3, dirk.id: 4}
    assert rating(anna).mu == rating(bert).mu > skill.MU > rating(carla).mu > rating(dirk).mu


def test_a_three_player_game_ranks_by_score_below_the_winner(anna, bert, carla):
    played([anna, bert, carla], [3, 9, 6])
    assert rating(bert).mu > rating(carla).mu > rating(anna).mu


def test_a_resignation_is_a_loss_whatever_the_points(anna, bert):
    game = start_game([anna, bert])
    game = actions.do_resign(game.id, anna, game.version)
    assert game.status == GameStatus.FINISHED
    assert rating(anna).mu < skill.MU < rating(bert).mu


def test_a_resigned_seat_ranks_last_in_a_bigger_game(anna, bert, carla):
    # Anna resigned with the best score; her stand-in played on: still last (P26).
    game = played([anna, bert, carla], [9, 5, 1], winners=[1], resigned=[0])
    places = dict(RatingChange.objects.filter(game=game).values_list("user_id", "rank"))
    assert places == {bert.id: 1, carla.id: 2, anna.id: 3}


def test_aborted_and_cancelled_games_are_not_rated(anna, bert):
    finish(start_game([anna, bert]), result([5, 3]), status=GameStatus.ABORTED)
    finish(start_game([anna, bert]), result([5, 3]), status=GameStatus.CANCELLED)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_game_with_a_bot_is_unrated(anna):
    game = actions.do_create_game(anna, [anna.email, "bot:careful"])
    assert game.rated is False
    finish(game, result([5, 3]))
    assert not Rating.objects.exists()


def test_a_game_with_a_bot_cannot_be_chosen_rated(anna):
    with pytest.raises(ServiceError) as refused:
        actions.do_create_game(anna, [anna.email, "bot:careful"], rated=True)
    assert refused.value.code == "invalid" and "never rated" in refused.value.detail
    with pytest.raises(ServiceError):
        actions.do_create_game(anna, [anna.email, "bert@example.com"], rated="no")


def test_the_host_may_choose_unrated(anna, bert):
    game = played([anna, bert], [5, 3], rated=False)
    assert Game.objects.get(pk=game.pk).rated is False
    assert not Rating.objects.exists()


def test_a_game_is_rated_once_however_often_its_end_is_announced(anna, bert, caplog):
    game = played([anna, bert], [5, 3])
    before = numbers()
    for _ in range(2):
        events.game_ended.send(sender=Game, game=Game.objects.get(pk=game.pk))
    assert numbers() == before
    assert rating(anna).games == 1
    assert "rating failed" not in caplog.text  # skipped, not refused by the database


def test_provisional_until_five_rated_games(anna, bert):
    for number in range(1, PROVISIONAL_GAMES + 1):
        played([anna, bert], [5, 3])
        assert rating(anna).games == number
        assert rating(anna).provisional == (number < PROVISIONAL_GAMES)


def test_each_game_kind_has_its_own_rating(anna, bert):
    played([anna, bert], [5, 3])
    played([anna, bert], [1, 4], game="rattenscharf", seed=None)
    assert rating(anna).mu > skill.MU > rating(anna, "rattenscharf").mu


def test_rebuild_ratings_gives_the_same_numbers(anna, bert, carla, dirk):
    eve = make_user("eve@example.com", display_name="Eve")
    played([anna, bert, carla, dirk], [8, 8, 5, 2])
    played([bert, carla, eve], [1, 9, 6])
    played([anna, eve], [4, 4])
    played([dirk, anna, bert], [9, 5, 1], winners=[1], resigned=[0])
    played([carla, anna], [2, 7], game="rattenscharf", seed=None)
    played([eve, dirk], [6, 3], rated=False)
    finish(start_game([anna, bert]), result([5, 3]), status=GameStatus.ABORTED)
    live = numbers()
    assert len(live["changes"]) == 4 + 3 + 2 + 3 + 2
    Rating.objects.update(mu=0, sigma=1, games=99)  # however wrong they have become
    call_command("rebuild_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert numbers() == live
