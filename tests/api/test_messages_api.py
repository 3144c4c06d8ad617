"""/api/games/{id}/messages/: table talk read by players and staff, written by players."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from rest_framework.pagination import PageNumberPagination

from audit.models import AuditAction, AuditEntry
from core.errors import ServiceError
from games.models import Game
from talk import actions
from talk.models import Message, MessageReport
from tests.factories import client_for


def url(game) -> str:
    return f"/api/games/{game.id}/messages/"


def write(user, game, text):
    return client_for(user).post(url(game), {"text": text}, format="json")


def refused(response, status: int, code: str) -> str:
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    return response.json()["detail"]


class TestTalking:
    def test_players_write_and_read_oldest_first(self, toy_game, anna, bert):
        first = write(anna, toy_game, "  Ahoy!\r\nGood luck. ")
        assert first.status_code == 201, first.json()
        assert first.json() == {
            "id": first.json()["id"],
            "seat": 0,
            "name": "Anna",
            "text": "Ahoy!\nGood luck.",
            "at": first.json()["at"],
            "hidden": False,
        }
        assert write(bert, toy_game, "Arr.").status_code == 201
        body = client_for(bert).get(url(toy_game)).json()
        assert body["count"] == 2
        assert [(m["seat"], m["name"], m["text"]) for m in body["results"]] == [
            (0, "Anna", "Ahoy!\nGood luck."),
            (1, "Bert", "Arr."),
        ]

    def test_a_thousand_characters_are_fine(self, toy_game, anna):
        assert write(anna, toy_game, "x" * 1000).status_code == 201

    def test_an_ended_games_players_may_still_write(self, toy_game, anna):
        Game.objects.filter(id=toy_game.id).update(status="finished", current_seat=None)
        assert write(anna, toy_game, "Well played").status_code == 201

    def test_staff_read_any_game_talk(self, toy_game, anna, moderator):
        write(anna, toy_game, "hello")
        assert client_for(moderator).get(url(toy_game)).json()["count"] == 1

    def test_the_list_is_paginated(self, toy_game, anna, monkeypatch):
        monkeypatch.setattr(PageNumberPagination, "page_size", 2)
        for number in range(3):
            write(anna, toy_game, f"message {number}")
        client = client_for(anna)
        first = client.get(url(toy_game)).json()
        assert [m["text"] for m in first["results"]] == ["message 0", "message 1"]
        assert [m["text"] for m in client.get(first["next"]).json()["results"]] == ["message 2"]
        assert client.get(url(toy_game) + "?page=9").status_code == 404


class TestRefusals:
    @pytest.mark.parametrize("text", ["x" * 1001, "", "   \n ", "bell\u0007", 12, None])
    def test_a_bad_text_is_refused(self, toy_game, anna, text):
        refused(write(anna, toy_game, text), 400, "invalid")
        assert not Message.objects.exists()

    @pytest.mark.parametrize("text", ["x" * 1001, " \t ", "nul\u0000", "esc\u001b[31m", "\ud800"])
    def test_the_service_refuses_bad_text_whoever_calls_it(self, toy_game, anna, text):
        with pytest.raises(ServiceError) as refusal:
            actions.post_message(toy_game, anna, text)
        assert refusal.value.code == "invalid"

    @pytest.mark.parametrize("text", ["\u202eevil.example", "a\u2066b\u2069"])
    def test_a_direction_override_is_refused(self, toy_game, anna, text):
        # It shows text in another order than it is stored: the one rule for typed text.
        response = write(anna, toy_game, text)
        refused(response, 400, "invalid")
        assert response.json()["detail"] == "A message cannot contain control characters."
        assert not Message.objects.exists()

    def test_emoji_joined_by_zero_width_joiners_are_text(self, toy_game, anna):
        pirate_flag = "\U0001f3f4\u200d\u2620\ufe0f"
        assert write(anna, toy_game, f"Ahoy {pirate_flag}").status_code == 201

    def test_spaces_around_do_not_count_against_the_length(self, toy_game, anna):
        assert write(anna, toy_game, "  " + "x" * 1000 + "\n").status_code == 201

    def test_an_unknown_field_is_refused(self, toy_game, anna):
        response = client_for(anna).post(url(toy_game), {"text": "hi", "to": 1}, format="json")
        refused(response, 400, "invalid")

    def test_a_non_player_gets_not_found(self, toy_game, outsider):
        refused(write(outsider, toy_game, "let me in"), 404, "not_found")
        refused(client_for(outsider).get(url(toy_game)), 404, "not_found")
        assert not Message.objects.exists()

    def test_staff_without_a_seat_may_read_not_write(self, toy_game, moderator):
        refused(write(moderator, toy_game, "moderator here"), 403, "not_a_player")

    def test_a_suspended_writer_is_refused(self, toy_game, anna):
        client = client_for(anna)
        anna.suspended_at = timezone.now()
        anna.save()
        response = client.post(url(toy_game), {"text": "hi"}, format="json")
        refused(response, 403, "suspended")
        # The service refuses too, whoever calls it (the game page, mail-in).
        with pytest.raises(ServiceError) as refusal:
            actions.post_message(toy_game, anna, "hi")
        assert refusal.value.code == "suspended"
        assert not Message.objects.exists()

    def test_too_many_messages_in_an_hour_are_throttled(self, toy_game, anna, bert, settings):
        settings.TALK_MESSAGES_PER_HOUR = 3
        with time_machine.travel(timezone.now(), tick=False) as clock:
            for number in range(3):
                assert write(anna, toy_game, f"spam {number}").status_code == 201
            refused(write(anna, toy_game, "one more"), 429, "throttled")
            assert write(bert, toy_game, "my own budget").status_code == 201
            clock.shift(timedelta(minutes=61))
            assert write(anna, toy_game, "an hour later").status_code == 201


class TestHiding:
    @pytest.fixture
    def rude(self, toy_game, bert):
        return Message.objects.get(pk=write(bert, toy_game, "you all stink").json()["id"])

    def test_a_hidden_message_shows_no_text_to_players(self, toy_game, anna, bert, moderator, rude):
        MessageReport.objects.create(message=rude, reporter=anna)
        actions.do_hide_message(moderator, rude.pk, "insults")
        for player in (anna, bert):
            shown = client_for(player).get(url(toy_game)).json()["results"][0]
            assert (shown["text"], shown["hidden"]) == (None, True)
        assert "stink" not in client_for(anna).get(url(toy_game)).content.decode()
        staff_view = client_for(moderator).get(url(toy_game)).json()["results"][0]
        assert (staff_view["text"], staff_view["hidden"]) == ("you all stink", True)
        entry = AuditEntry.objects.get()
        assert (entry.action, entry.reason, entry.game_id) == (
            AuditAction.HIDE_MESSAGE,
            "insults",
            toy_game.id,
        )
        assert entry.extra == {"message": rude.pk}
        assert MessageReport.objects.get().resolved_at is not None

    def test_hiding_needs_a_reason_and_a_moderator(self, bert, rude):
        with pytest.raises(ServiceError):
            actions.do_hide_message(bert, rude.pk, "I do not like it")
        with pytest.raises(ServiceError):
            actions.do_hide_message(bert, rude.pk, "")
        rude.refresh_from_db()
        assert not rude.is_hidden
        assert not AuditEntry.objects.exists()

    def test_a_moderator_can_show_it_again(self, toy_game, anna, moderator, rude):
        actions.do_hide_message(moderator, rude.pk, "insults")
        actions.do_unhide_message(moderator, rude.pk, "a joke among friends")
        shown = client_for(anna).get(url(toy_game)).json()["results"][0]
        assert (shown["text"], shown["hidden"]) == ("you all stink", False)
        assert AuditEntry.objects.count() == 2

    def test_the_admin_action_hides_with_a_reason(self, moderator_client, moderator, rude):
        response = moderator_client.post(
            "/admin/talk/message/",
            {
                "action": "hide_messages",
                "_selected_action": [rude.pk],
                "confirm": "1",
                "reason": "insults",
            },
        )
        assert response.status_code == 302
        rude.refresh_from_db()
        assert rude.is_hidden and rude.hidden_by == moderator
        assert AuditEntry.objects.get().action == AuditAction.HIDE_MESSAGE
