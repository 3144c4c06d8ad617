"""PATCH /api/me/settings/ display_name: the name others see, its form, one per player."""

import pytest
from django.core.exceptions import ValidationError

from accounts import display_names
from accounts.api_keys import issue_api_key
from accounts.models import User
from tests.factories import client_for, make_user, start_game

URL = "/api/me/settings/"


def set_name(user: User, name, **more):
    return client_for(user).patch(URL, {"display_name": name, **more}, format="json")


def refused(response) -> str:
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid"
    return response.json()["detail"]


class TestChoosingAName:
    def test_the_name_is_what_the_other_players_see(self, anna, bert):
        game = start_game([anna, bert])
        response = set_name(anna, "  Captain Anna ")
        assert response.status_code == 200, response.json()
        assert response.json()["display_name"] == "Captain Anna"  # trimmed
        seats = client_for(bert).get(f"/api/games/{game.id}/").json()["seats"]
        assert seats[0]["name"] == "Captain Anna"
        assert client_for(anna).get(URL).json()["display_name"] == "Captain Anna"

    def test_null_goes_back_to_the_address_name(self, anna):
        response = set_name(anna, None)
        assert response.status_code == 200
        assert response.json()["display_name"] is None
        anna.refresh_from_db()
        assert (anna.display_name, anna.public_name) == ("", "anna")

    def test_her_own_name_in_another_case_is_hers(self, anna, bert):
        assert set_name(anna, "ANNA").status_code == 200

    def test_forty_characters_and_any_script_are_fine(self, anna):
        assert set_name(anna, "Ä" * 40).status_code == 200
        assert set_name(anna, "Ананас 🍍").status_code == 200


class TestRefusedForms:
    @pytest.mark.parametrize(
        "name",
        [
            "A" * 41,
            "",
            "   ",
            "anna@example.com",
            "Anna\u0007",  # a control character
            "An\u200dna",  # zero-width joiner: invisible
            "\u202eannA",  # right-to-left override
            "Anna\u2028Bert",  # line separator
        ],
    )
    def test_a_name_of_the_wrong_form_is_refused(self, anna, name):
        refused(set_name(anna, name))
        anna.refresh_from_db()
        assert anna.display_name == "Anna"

    def test_a_name_that_is_not_a_string_is_refused(self, anna):
        refused(set_name(anna, 12))

    def test_a_refusal_changes_nothing_else(self, anna):
        refused(set_name(anna, "x@y", language="de"))
        anna.refresh_from_db()
        assert anna.language == ""


class TestOneNamePerPlayer:
    @pytest.mark.parametrize(
        "name",
        [
            "Bert",
            "BERT",
            "bert",
            "\uff22\uff45\uff52\uff54",  # fullwidth "Bert": Unicode compatibility form
            "B\u1d49rt",  # modifier small e: NFKC folds it to "e"
        ],
    )
    def test_another_players_name_in_any_case_or_form_is_taken(self, anna, bert, name):
        detail = refused(set_name(anna, name))
        assert "taken" in detail
        anna.refresh_from_db()
        assert anna.display_name == "Anna"

    def test_a_name_set_in_a_compatibility_form_is_found_too(self, anna):
        make_user("dora@example.com", display_name="\ufb01nn")  # the "fi" ligature
        refused(set_name(anna, "FINN"))

    def test_ss_and_sharp_s_read_alike(self, anna):
        make_user("gross@example.com", display_name="Groß")
        refused(set_name(anna, "GROSS"))

    def test_a_name_given_up_is_free_again(self, anna, bert):
        assert set_name(bert, "Bertram").status_code == 200
        assert set_name(anna, "bert").status_code == 200


class TestOperatorNames:
    def test_a_name_an_operator_set_stays_valid(self, anna, bert):
        # The operator may give a name the form would refuse (an @), never another's.
        issue_api_key(bert.email, display_name="Crew@Ship")
        bert.refresh_from_db()
        assert bert.public_name_key == display_names.name_key("CREW@SHIP")
        response = client_for(bert).patch(URL, {"mode": "digest"}, format="json")
        assert response.status_code == 200
        assert response.json()["display_name"] == "Crew@Ship"
        # Sending back what was read keeps it.
        assert set_name(bert, "Crew@Ship").status_code == 200
        # Another player still cannot take it.
        refused(set_name(anna, "crew@ship"))

    def test_an_operator_cannot_give_another_persons_name(self, anna, carla):
        with pytest.raises(ValidationError, match="taken"):
            issue_api_key("carl@example.com", display_name="ANNA")
        with pytest.raises(ValidationError, match="taken"):
            issue_api_key("carl@example.com", display_name="Carla")  # carla's derived name
        assert not User.objects.filter(email="carl@example.com").exists()


def test_name_key_folds_case_compatibility_and_spaces():
    key = display_names.name_key
    assert key("\uff21\uff4e\uff4e\uff41  \uff22") == key("anna b") == "anna b"
    assert key("") == ""
