"""League invitations by name (issue 32): the form and the API take a name as the site shows
it, chosen or derived from an address, and find exactly the person shown by it."""

from leagues.models import League
from tests.factories import client_for, make_user

FORM = {
    "name": "Autumn",
    "game": "piratz",
    "turn_hours": 48,
    "format": "round_robin",
    "group_size": 4,
    "max_running": 1,
}


def test_the_form_takes_the_names_the_site_shows(client, anna, bert, carla):
    sam = make_user("sam@one.example")
    second_sam = make_user("sam@two.example")  # shown as "sam 2"
    client.force_login(anna)
    form = client.get("/leagues/new/").content.decode()
    assert "an email address or a name as the site shows it" in form
    answer = client.post(
        "/leagues/new/", {**FORM, "players": f"{anna.email}\nbert\nCARLA\nSam 2\n"}
    )
    assert answer.status_code == 302, answer.content.decode()
    league = League.objects.get(name="Autumn")
    assert {m.user for m in league.members.all()} == {anna, bert, carla, second_sam}
    assert sam not in {m.user for m in league.members.all()}


def test_the_api_takes_a_derived_name(anna, carla):
    answer = client_for(anna).post(
        "/api/leagues/",
        {"name": "Spring", "players": [anna.email, "carla"], "max_running": 1},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert "carla" in answer.json()["members"]


def test_a_name_nobody_is_shown_by_is_refused_saying_what_is_taken(client, anna, carla):
    client.force_login(anna)
    answer = client.post("/leagues/new/", {**FORM, "players": f"{anna.email}\nNobody\n"})
    assert answer.status_code == 400
    assert "give a name as the site shows it, or an email address" in answer.content.decode()
    assert not League.objects.exists()
