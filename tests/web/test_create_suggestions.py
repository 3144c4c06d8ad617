"""The create form suggests the people one played with (name and address) and recent groups;
ticked people are merged into the player fields by the server, so it works without script."""

import pytest
from django.test import Client

from games import actions
from games.models import Game
from tests.factories import make_user, start_game

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def create(client: Client, **fields):
    data = {"form": "create", "game": "piratz", "turn_hours": "72", "stand_in_bots": "unknown"}
    data.update(fields)
    return client.post("/games/", data)


def test_people_played_with_are_suggested_with_their_address(anna, bert, carla, outsider):
    start_game([anna, bert])
    body = signed_in(anna).get("/games/").content.decode()
    assert f'name="with" value="{bert.id}" data-email="bert@example.com"' in body
    assert "Bert &lt;bert@example.com&gt;" in body
    # Nobody else's address: not a stranger's, not one only invited.
    actions.do_create_game(anna, [anna.email, carla.email])
    body = signed_in(anna).get("/games/").content.decode()
    assert "carla@example.com" not in body and "olga@example.com" not in body


def test_a_game_declined_shows_no_address(anna, bert, carla):
    game = actions.do_create_game(bert, [bert.email, anna.email, carla.email])
    actions.do_accept_invitation(game.id, anna)
    body = signed_in(anna).get("/games/").content.decode()
    assert "carla@example.com" not in body and 'name="with"' not in body


def test_ticked_people_fill_the_empty_places_without_script(anna, bert, carla):
    start_game([anna, bert, carla])
    answer = create(signed_in(anna), player_1=anna.email, **{"with": [bert.id, carla.id]})
    assert answer.status_code == 302
    game = Game.objects.order_by("-created_at").first()
    seated = [s.user.email for s in game.seats.order_by("seat")]
    assert seated == [anna.email, bert.email, carla.email]


def test_a_ticked_person_already_typed_is_not_added_twice(anna, bert):
    start_game([anna, bert])
    answer = create(
        signed_in(anna), player_1=anna.email, player_2="BERT@example.com", **{"with": [bert.id]}
    )
    assert answer.status_code == 302
    game = Game.objects.order_by("-created_at").first()
    assert game.seats.count() == 2


def test_only_people_played_with_can_be_ticked(anna, bert, outsider):
    start_game([anna, bert])
    answer = create(signed_in(anna), player_1=anna.email, **{"with": [outsider.id, bert.id]})
    game = Game.objects.order_by("-created_at").first()
    assert answer.status_code == 302
    assert [s.user for s in game.seats.order_by("seat")] == [anna, bert]


def test_too_many_ticked_is_refused(anna, bert, carla, dirk):
    eve = make_user("eve@example.com")
    start_game([anna, bert, carla, dirk])
    start_game([anna, eve])
    before = Game.objects.count()
    answer = create(
        signed_in(anna),
        player_1=anna.email,
        **{"with": [bert.id, carla.id, dirk.id, eve.id]},
    )
    assert answer.status_code == 400
    assert "Too many players" in answer.content.decode()
    assert Game.objects.count() == before


def test_the_same_group_again_in_one_click(anna, bert, carla):
    old = start_game([bert, anna, carla])
    client = signed_in(anna)
    body = client.get("/games/").content.decode()
    assert f'href="?group={old.id}#create"' in body
    assert "Play with the same group as Piratz" in body
    form = client.get(f"/games/?group={old.id}").context["form"]
    assert [form.initial.get(f"player_{n}") for n in (1, 2, 3)] == [
        bert.email,
        anna.email,
        carla.email,
    ]
    # Somebody else's game is no group of hers.
    other = start_game([bert, carla])
    form = client.get(f"/games/?group={other.id}").context["form"]
    assert form.initial["player_1"] == anna.email and "player_2" not in form.initial
