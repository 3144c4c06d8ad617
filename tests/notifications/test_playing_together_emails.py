"""Playing together in the emails (issue 25): a resignation in a game of three or four is
told to the others, the game-over email offers "Play again", resigned seats are named so."""

import pytest
from django.utils import translation

from games import actions
from games.models import GameStatus, Seat
from tests.factories import reveal_or_timeout, start_game
from tests.notifications.conftest import emails

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_and_clock")]


def play_out(game, users):
    """Play ``game`` to its end: people by ``reveal_or_timeout``, bots by their own moves."""
    while game.status == GameStatus.ACTIVE:
        row = Seat.objects.get(game=game, seat=game.current_seat)
        if row.bot:
            actions.do_play_bot_move(game.id, expected_version=game.version)
        else:
            actions.do_play_move(game.id, row.user, game.version, reveal_or_timeout(game))
        game.refresh_from_db()
    return game


def test_the_others_are_told_who_resigned_and_that_a_bot_plays_on(anna, bert, carla):
    carla.language = "de"
    carla.save()
    game = start_game([anna, bert, carla])
    actions.do_resign(game.id, anna, 0)
    assert emails("resigned", anna) == []  # not the one who resigned
    (to_bert,) = emails("resigned", bert)
    assert to_bert.subject == "Piratz: Anna resigned; a bot plays on"
    assert (
        "Anna resigned from your game of Piratz with carla: a careful bot plays that seat "
        "to the end, and the game goes on." in to_bert.body_text
    )
    assert "https://piratz.example/games/" in to_bert.body_text
    (to_carla,) = emails("resigned", carla)
    assert to_carla.subject == "Piratz: Anna hat aufgegeben; ein Bot spielt weiter"


def test_no_such_email_when_a_resignation_ends_a_two_player_game(anna, bert):
    game = start_game([anna, bert])
    actions.do_resign(game.id, anna, 0)
    assert emails("resigned") == []
    assert len(emails("game_over", bert)) == 1  # the game-over email says it


def test_the_game_over_email_offers_play_again_on_the_games_page(anna, bert):
    bert.language = "de"
    bert.save()
    game = start_game([anna, bert])
    actions.do_resign(game.id, anna, 0)
    page = f"https://piratz.example/games/{game.id}/"
    (to_anna,) = emails("game_over", anna)
    assert "Play again with the same players and options" in to_anna.body_text
    assert f"on the game's page: {page}\n" in to_anna.body_text
    assert f'<a href="{page}">Play again</a>' in to_anna.body_html
    (to_bert,) = emails("game_over", bert)
    assert f'<a href="{page}">Noch einmal spielen</a>' in to_bert.body_html


def test_a_resigned_seat_is_named_so_in_the_turn_and_game_over_emails(anna, bert, carla):
    game = start_game([anna, bert, carla])
    actions.do_resign(game.id, bert, 0)
    game.refresh_from_db()
    game = play_out(game, [anna, bert, carla])
    with translation.override("en"):
        resigned_name = "Bert · resigned"
    turn = emails("your_turn", carla)[-1]
    assert resigned_name in turn.body_text
    over = emails("game_over", anna)[-1]
    assert resigned_name in over.body_text
    assert "Bert resigned and could not win." in over.body_text
    assert f"{resigned_name} resigned" not in over.body_text
    assert "Winner: carla" in over.body_text
