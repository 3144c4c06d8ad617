"""The player page (/people/<public id>/): finished games and wins per game, reliability
(the share of their moves the deadline played), member since; signed-in players only; the
old address by name (/players/<name>/) leading there; and its report button, which files a
moderation report as the API does."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import actions
from games.models import Game
from moderation.models import Report
from tests.factories import make_user, play_to_the_end, start_game, start_toy_game

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(user) -> str:
    return f"/people/{user.public_id}/"


def test_signed_out_visitors_are_sent_to_sign_in(anna):
    for address in (page(anna), "/players/Anna/"):
        answer = Client().get(address)
        assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


def test_an_unknown_name_or_page_is_not_found(anna, bert):
    assert signed_in(bert).get("/players/Nobody/").status_code == 404
    assert signed_in(bert).get("/players/anna@example.com/").status_code == 404
    assert signed_in(bert).get("/people/nobody2345/").status_code == 404


def test_an_old_address_by_name_leads_to_the_page(anna, bert, carla):
    answer = signed_in(bert).get("/players/anna/")  # case folded
    assert answer.status_code == 302 and answer["Location"] == page(anna)
    assert signed_in(bert).get("/players/carla/")["Location"] == page(carla)  # derived name
    body = signed_in(bert).get(page(carla)).content.decode()
    assert "<h1>carla</h1>" in body
    assert "carla@example.com" not in body  # the address stays private


def test_two_people_of_one_address_name_have_a_name_each(bert):
    first = make_user("sam@one.example")
    second = make_user("sam@two.example")
    assert (first.public_name, second.public_name) == ("sam", "sam 2")
    assert signed_in(bert).get("/players/sam/")["Location"] == page(first)
    assert signed_in(bert).get("/players/SAM 2/")["Location"] == page(second)


def test_finished_games_wins_and_reliability(toy_games, anna, bert):
    # The toy game: the record per game is the platform's, for any game.
    game = play_to_the_end(start_toy_game([anna, bert]), [anna, bert])
    winners = game.result["winners"]
    running = start_toy_game([anna, bert])
    Game.objects.filter(pk=running.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    actions.do_play_timeout(running.id)  # anna's turn played by the deadline
    body = signed_in(bert).get(page(anna)).content.decode()
    assert 'data-kind="tictactoe"' in body
    won = 1 if 0 in winners else 0
    assert f"<td>Tic-tac-toe</td><td>1</td><td>{won}</td>" in body
    answer = signed_in(bert).get(page(anna))
    record = answer.context["record"]
    assert record.timed_out >= 1 and record.turns > record.timed_out
    assert f'data-reliability="{record.timed_out_percent}"' in body
    assert "Member since" in body


def test_the_report_button_files_a_report(anna, bert):
    game = start_game([anna, bert])
    client = signed_in(bert)
    body = client.get(page(anna)).content.decode()
    assert 'action="/reports/player/"' in body and str(game.id) in body
    assert f'name="player" value="{anna.public_id}"' in body
    answer = client.post(
        "/reports/player/",
        {"player": anna.public_id, "game": game.id, "category": "abuse", "text": "rude"},
    )
    assert answer.status_code == 302 and answer["Location"] == page(anna)
    report = Report.objects.get()
    assert (report.reporter, report.reported_user, report.game_id) == (bert, anna, game.id)
    assert "your report went to the moderators" in client.get(page(anna)).content.decode()


def test_no_report_without_a_game_together(anna, outsider):
    start_game([anna, make_user("x@example.com")])
    client = signed_in(outsider)
    assert "/reports/player/" not in client.get(page(anna)).content.decode()
    some_game = Game.objects.get()
    client.post(
        "/reports/player/",
        {"player": anna.public_id, "game": some_game.id, "category": "abuse", "text": "hm"},
    )
    assert not Report.objects.exists()


def test_a_refused_report_says_why(anna, bert):
    game = start_game([anna, bert])
    client = signed_in(bert)
    client.post(
        "/reports/player/", {"player": anna.public_id, "game": game.id, "category": "abuse"}
    )
    assert not Report.objects.exists()
    assert "Say in a few words what happened." in client.get(page(anna)).content.decode()


def test_reports_are_limited(anna, bert, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "reports": "1/hour",
        },
    }
    game = start_game([anna, bert])
    client = signed_in(bert)
    data = {"player": anna.public_id, "game": game.id, "category": "spam", "text": "again"}
    client.post("/reports/player/", data)
    client.post("/reports/player/", data)
    assert Report.objects.count() == 1


def test_names_on_my_games_link_to_the_player_page(anna, bert):
    start_game([anna, bert])
    assert f'href="{page(bert)}"' in signed_in(anna).get("/games/").content.decode()


def test_the_page_is_german_for_a_german_reader(anna, bert):
    body = signed_in(bert).get(page(anna), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Mitglied seit" in body and "Zuverlässigkeit" in body
