"""A block keeps two people apart at every door: no invitation either way (refused in the
words of any address that cannot be invited now), no league, and the blocker no longer
reads the blocked person's table talk (API, table panel, emails)."""

from datetime import timedelta

import pytest
from django.test import TestCase
from django.urls import reverse
from django.utils import timezone

from core.errors import ServiceError
from games import actions as game_actions
from games.models import Game
from games.table_talk import talk_asked
from leagues import actions as league_actions
from leagues.models import League
from people import actions
from talk import actions as talk_actions
from tests.factories import TOY_KIND, client_for, start_toy_game

pytestmark = pytest.mark.django_db


def _refusal(host, emails) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        game_actions.do_create_game(host, emails, game=TOY_KIND)
    return refused.value


def _suspended_refusal(toy_games, host, invitee) -> ServiceError:
    invitee.suspended_at = timezone.now()
    invitee.suspended_until = timezone.now() + timedelta(days=1)
    invitee.save()
    try:
        return _refusal(host, [host.email, invitee.email])
    finally:
        invitee.suspended_at = invitee.suspended_until = None
        invitee.save()


@pytest.mark.parametrize("blocker", ["invitee", "host"])
def test_no_invitation_goes_between_two_who_blocked_either_way(toy_games, anna, bert, blocker):
    if blocker == "invitee":
        actions.do_block(bert, anna.public_id)
    else:
        actions.do_block(anna, bert.public_id)
    refused = _refusal(anna, [anna.email, bert.email])
    # Word for word the refusal of a suspended invitee: nobody learns of a block.
    actions.do_unblock(anna, bert.public_id)
    actions.do_unblock(bert, anna.public_id)
    suspended = _suspended_refusal(toy_games, anna, bert)
    assert (
        (refused.code, refused.detail)
        == (suspended.code, suspended.detail)
        == (
            "throttled",
            "One of these addresses cannot be invited right now; try again later.",
        )
    )
    assert Game.objects.count() == 0


def test_a_challenge_by_page_is_refused_alike(toy_games, anna, bert):
    actions.do_block(bert, anna.public_id)
    refused = _refusal(anna, [anna.email, f"player:{bert.public_id}"])
    assert refused.code == "throttled"
    assert Game.objects.count() == 0


def test_two_invitees_who_blocked_each_other_are_not_seated_together(anna, bert, carla):
    actions.do_block(bert, carla.public_id)
    with pytest.raises(ServiceError) as refused:
        game_actions.do_create_game(anna, [anna.email, bert.email, carla.email])
    assert refused.value.code == "throttled"


def test_unblocked_the_invitation_goes(toy_games, anna, bert):
    actions.do_block(bert, anna.public_id)
    actions.do_unblock(bert, anna.public_id)
    game = game_actions.do_create_game(anna, [anna.email, bert.email], game=TOY_KIND)
    assert game.seats.count() == 2


def test_a_league_invitation_is_refused_alike(anna, bert, carla):
    actions.do_block(carla, anna.public_id)
    with pytest.raises(ServiceError) as refused:
        league_actions.do_create_league(
            anna, name="Winter", players=[anna.email, bert.email, carla.email]
        )
    assert refused.value.code == "throttled"
    assert League.objects.count() == 0


def test_a_player_is_invited_by_their_page(toy_games, anna, bert):
    game = game_actions.do_create_game(
        anna, [anna.email, f"player:{bert.public_id}"], game=TOY_KIND
    )
    assert [s.user for s in game.seats.order_by("seat")] == [anna, bert]
    with pytest.raises(ServiceError) as unknown:
        game_actions.do_create_game(anna, [anna.email, "player:nobody0000"], game=TOY_KIND)
    assert unknown.value.code == "invalid"


def test_the_api_takes_a_player_by_page(toy_games, anna, bert):
    answer = client_for(anna).post(
        "/api/games/",
        {"game": TOY_KIND, "players": [anna.email, f"PLAYER:{bert.public_id}"]},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert [s["name"] for s in answer.json()["seats"]] == ["Anna", "Bert"]
    assert "bert@example.com" not in answer.content.decode()


@pytest.fixture
def talking_game(toy_games, anna, bert):
    """A toy game where Bert wrote twice and Anna once."""
    game = start_toy_game([anna, bert])
    with TestCase.captureOnCommitCallbacks(execute=True):
        talk_actions.post_message(game, bert, "Ahoy from Bert")
        talk_actions.post_message(game, anna, "Ahoy from Anna")
        talk_actions.post_message(game, bert, "Bert again")
    return game


def _api_texts(user, game) -> list[str]:
    answer = client_for(user).get(f"/api/games/{game.id}/messages/")
    assert answer.status_code == 200
    return [m["text"] for m in answer.json()["results"]]


def test_a_blocker_no_longer_reads_the_blocked_persons_talk(talking_game, anna, bert):
    assert _api_texts(anna, talking_game) == ["Ahoy from Bert", "Ahoy from Anna", "Bert again"]
    actions.do_block(anna, bert.public_id)
    assert _api_texts(anna, talking_game) == ["Ahoy from Anna"]
    # Bert, blocked, sees the talk as before: he is not told.
    assert _api_texts(bert, talking_game) == ["Ahoy from Bert", "Ahoy from Anna", "Bert again"]


def test_the_tables_talk_panel_leaves_them_out_too(client, talking_game, anna, bert):
    actions.do_block(anna, bert.public_id)
    client.force_login(anna)
    page = client.get(reverse("games:game", args=[talking_game.id])).content.decode()
    assert "Ahoy from Anna" in page and "Bert again" not in page and "Ahoy from Bert" not in page
    client.force_login(bert)
    page = client.get(reverse("games:game", args=[talking_game.id])).content.decode()
    assert "Bert again" in page


def test_the_emails_leave_them_out(talking_game, anna, bert):
    actions.do_block(anna, bert.public_id)
    answers = talk_asked.send(Game, game=talking_game, since=None, exclude_seat=0, limit=10)
    listed = [m["text"] for _receiver, (messages, _earlier) in answers for m in messages]
    assert listed == []
    answers = talk_asked.send(Game, game=talking_game, since=None, exclude_seat=1, limit=10)
    assert [m["text"] for _r, (messages, _e) in answers for m in messages] == ["Ahoy from Anna"]
