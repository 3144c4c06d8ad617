"""A person's page address (/people/<public id>/, issue 32): it never changes, never passes
to another, and a deleted person has no page and no link on My games, league pages or the
leaderboard."""

import pytest
from django.test import Client, TestCase

from accounts.erasure import erase_user
from accounts.models import User
from leagues import actions as league_actions
from ratings.models import PROVISIONAL_GAMES
from tests.factories import client_for, make_user, start_game
from tests.ratings.helpers import played

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(user) -> str:
    return f"/people/{user.public_id}/"


def test_renaming_keeps_the_page_address(anna, bert):
    start_game([anna, bert])
    before = page(anna)
    answer = client_for(anna).patch(
        "/api/me/settings/", {"display_name": "Captain Anna"}, format="json"
    )
    assert answer.status_code == 200
    anna.refresh_from_db()
    assert page(anna) == before
    assert "<h1>Captain Anna</h1>" in signed_in(bert).get(before).content.decode()
    assert f'href="{before}">Captain Anna</a>' in signed_in(bert).get("/games/").content.decode()
    # The old address by name led to whoever is shown by that name: now nobody.
    assert signed_in(bert).get("/players/Anna/").status_code == 404


def test_every_person_has_an_address_of_their_own(anna, bert, carla):
    addresses = set(User.objects.values_list("public_id", flat=True))
    assert len(addresses) == 3 and all(len(address) == 10 for address in addresses)


def test_a_deleted_persons_page_is_gone_and_never_anybody_elses(anna, bert, carla):
    address = page(carla)
    erase_user(carla.pk)
    carla.refresh_from_db()
    assert page(carla) == address  # the row keeps it: no newcomer can be given it
    answer = signed_in(bert).get(address)
    assert answer.status_code == 410
    assert "This player deleted their account" in answer.content.decode()
    assert signed_in(bert).get("/players/former player/").status_code == 404
    newcomer = make_user("carla@example.org")  # may now be shown as "carla"
    assert newcomer.public_name == "carla" and page(newcomer) != address


def test_a_deleted_person_has_no_link_on_my_games(anna, bert, carla):
    start_game([anna, bert, carla])
    erase_user(carla.pk)
    carla.refresh_from_db()
    body = signed_in(anna).get("/games/").content.decode()
    assert f'href="{page(bert)}">Bert</a>' in body
    assert page(carla) not in body and "former%20player" not in body
    assert "former player" in body  # named, as plain text


def test_a_deleted_person_has_no_link_on_the_league_page(anna, bert, carla):
    league = league_actions.do_create_league(
        anna, name="Spring", players=[anna.email, bert.email, carla.email], max_running=1
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        for member in league.members.filter(accepted_at=None):
            league_actions.do_answer_invitation(member.pk, True)
    body = signed_in(anna).get(f"/leagues/{league.id}/").content.decode()
    assert f'href="{page(bert)}">Bert</a>' in body and f'href="{page(carla)}">carla</a>' in body
    erase_user(carla.pk)
    carla.refresh_from_db()
    body = signed_in(anna).get(f"/leagues/{league.id}/").content.decode()
    assert f'href="{page(bert)}">Bert</a>' in body
    assert page(carla) not in body and "former%20player" not in body


def test_a_deleted_person_has_no_link_on_the_leaderboard(anna, carla):
    for _ in range(PROVISIONAL_GAMES):
        played([anna, carla], [5, 3])
    assert page(carla) in signed_in(anna).get("/leaderboard/piratz/").content.decode()
    erase_user(carla.pk)
    carla.refresh_from_db()
    body = signed_in(anna).get("/leaderboard/piratz/").content.decode()
    assert f'href="{page(anna)}">Anna</a>' in body
    assert page(carla) not in body and "former%20player" not in body
