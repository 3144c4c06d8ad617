"""The settings page's name field: the name others see, judged by the same service as
``PATCH /api/me/settings/`` (refusals as its sentences), and then shown everywhere."""

import pytest
from django.test import Client

from accounts.api_keys import issue_api_key
from accounts.models import User
from games import actions
from notifications.models import OutboundEmail
from tests.factories import start_game

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def choose(client: Client, name: str):
    return client.post("/settings/", {"form": "display_name", "display_name": name})


def test_the_page_shows_the_name_others_see(carla):
    body = signed_in(carla).get("/settings/").content.decode()
    assert 'name="display_name"' in body
    assert "Other players see you as <strong>carla</strong>" in body


def test_a_chosen_name_is_saved_and_said(anna):
    client = signed_in(anna)
    answer = choose(client, "  Captain Flint ")
    assert answer.status_code == 302
    anna.refresh_from_db()
    assert anna.display_name == "Captain Flint"
    assert (
        "Other players now see you as Captain Flint." in client.get("/settings/").content.decode()
    )


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("anna@example.com", "cannot contain @"),
        ("x" * 41, "at most 40 characters"),
        ("BERT", "is taken; choose another"),
    ],
)
def test_a_refused_name_says_why_and_changes_nothing(anna, bert, name, sentence):
    answer = choose(signed_in(anna), name)
    assert answer.status_code == 400
    body = answer.content.decode()
    assert sentence in body and 'role="alert"' in body
    assert User.objects.get(pk=anna.pk).display_name == "Anna"


def test_an_empty_name_goes_back_to_the_address(anna):
    choose(signed_in(anna), "")
    anna.refresh_from_db()
    assert anna.display_name == "" and anna.public_name == "anna"


def test_an_operator_set_name_is_kept_when_sent_back(anna):
    # An operator gave a name the form refuses (an @): sending it back keeps it.
    issue_api_key(anna.email, display_name="Anna@Ship")
    assert choose(signed_in(anna), "Anna@Ship").status_code == 302
    assert User.objects.get(pk=anna.pk).display_name == "Anna@Ship"


def test_the_refusal_is_german_for_a_german_reader(anna, bert):
    client = signed_in(anna)
    client.cookies["django_language"] = "de"
    body = client.post(
        "/settings/",
        {"form": "display_name", "display_name": "a@b"},
        HTTP_ACCEPT_LANGUAGE="de",
    ).content.decode()
    assert "Der Anzeigename darf kein @ enthalten" in body and "Dein Name" in body


def test_the_chosen_name_shows_on_the_table_and_in_the_turn_email(anna, bert, carla):
    game = start_game([anna, bert, carla])
    assert choose(signed_in(anna), "Captain Flint").status_code == 302
    assert "Captain Flint" in signed_in(bert).get(f"/games/{game.id}/").content.decode()
    actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    actions.do_play_move(game.id, anna, 1, {"action": "end_turn"})
    email = OutboundEmail.objects.filter(to=bert.email, template="your_turn").latest("id")
    rendered = email.rendered()
    assert "Captain Flint" in rendered.body_text
