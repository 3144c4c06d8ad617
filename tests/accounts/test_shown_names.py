"""One shown name per living person (issue 32): a chosen name may not be another person's
name derived from their address, a derived name is numbered when it is taken, and the
database holds the rule for every way a name is set."""

import pytest
from django.db import IntegrityError

from accounts import display_names
from accounts.erasure import erase_user
from accounts.forms import UserCreationForm
from accounts.models import User
from tests.factories import client_for, make_user

pytestmark = pytest.mark.django_db


def set_name(user: User, name):
    return client_for(user).patch("/api/me/settings/", {"display_name": name}, format="json")


@pytest.mark.parametrize(
    "impostor_name",
    [
        "carla",
        "Carla",
        "CARLA",
        "\uff43\uff41\uff52\uff4c\uff41",  # fullwidth "carla": NFKC folds it
        "C\u1d43rla",  # modifier small a: NFKC folds it to "a"
    ],
)
def test_nobody_can_take_the_name_derived_from_another_persons_address(anna, carla, impostor_name):
    assert carla.public_name == "carla"  # she chose no name
    answer = set_name(anna, impostor_name)
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert "is taken" in answer.json()["detail"]
    anna.refresh_from_db()
    assert anna.display_name == "Anna"
    assert User.objects.named("carla") == carla


def test_a_newcomer_whose_address_name_is_taken_is_shown_numbered(anna, carla):
    twin = make_user("anna@elsewhere.example")  # "anna" is Anna's chosen name
    other = make_user("carla@elsewhere.example")  # "carla" is Carla's derived name
    assert (twin.public_name, other.public_name) == ("anna 2", "carla 2")
    assert User.objects.named("ANNA") == anna and User.objects.named("Anna 2") == twin
    assert User.objects.named("carla") == carla and User.objects.named("carla 2") == other


def test_a_name_given_back_is_numbered_when_someone_took_it_meanwhile(anna, carla):
    assert set_name(carla, "Carlotta").status_code == 200
    assert set_name(anna, "carla").status_code == 200  # free now: nobody is shown by it
    answer = set_name(carla, None)
    assert answer.status_code == 200 and answer.json()["display_name"] is None
    carla.refresh_from_db()
    assert carla.public_name == "carla 2"
    assert User.objects.named("carla") == anna


def test_a_derived_name_stays_while_it_is_free(carla):
    make_user("carla@elsewhere.example")
    carla.save()
    carla.refresh_from_db()
    assert carla.public_name == "carla"


@pytest.mark.parametrize("name", ["former player", "FORMER  PLAYER", "Ehemaliger Spieler"])
def test_nobody_may_be_called_what_deleted_accounts_are_called(anna, name):
    answer = set_name(anna, name)
    assert answer.status_code == 400
    assert "deleted accounts" in answer.json()["detail"]


def test_an_erased_persons_name_is_free_and_erased_people_share_theirs(anna, bert, carla):
    erase_user(carla.pk)
    erase_user(bert.pk)  # a second "former player" is no clash
    carla.refresh_from_db()
    assert carla.derived_name == ""  # it came from the address
    assert User.objects.named("carla") is None and User.objects.named("former player") is None
    assert set_name(anna, "carla").status_code == 200


def test_the_database_refuses_a_second_person_with_a_shown_name(anna, carla):
    with pytest.raises(IntegrityError):
        make_user("eve@example.com", display_name="CARLA")


def test_the_user_admin_refuses_another_persons_shown_name(carla):
    form = UserCreationForm(data={"email": "eve@example.com", "display_name": "Carla"})
    assert not form.is_valid()
    assert "is taken" in str(form.errors["display_name"])


def test_a_newcomer_who_loses_the_race_for_a_name_derives_it_again(anna, monkeypatch):
    real = display_names.derived_name
    tries = []

    def stale_first(user):
        # The first try as a request that looked before Anna's row was committed.
        tries.append(user.email)
        return "anna" if len(tries) == 1 else real(user)

    monkeypatch.setattr(display_names, "derived_name", stale_first)
    twin = User.objects.get_or_create_for_email("anna@two.example")
    assert len(tries) == 2 and twin.public_name == "anna 2"
