"""A suspended player: links and API key refused, no games or invitations, their turns
played for them at once (P24) while the games go on; unsuspending restores everything."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.login_links import request_login_link
from audit.models import AuditAction, AuditEntry
from core.errors import ServiceError
from games import actions, sweeps
from games.models import Actor, GameStatus, Move
from games.notify.links import game_entry_url
from moderation import actions as moderation
from notifications.models import OutboundEmail
from tests.factories import TOY_KIND, client_for, start_game
from tests.moderation.conftest import last_login_link

pytestmark = pytest.mark.django_db


def test_the_api_key_of_a_suspended_player_gets_403_suspended(anna, suspend):
    api = client_for(anna)
    assert api.get("/api/games/").status_code == 200
    suspend(anna)
    response = api.get("/api/games/")
    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "suspended"
    assert "suspended this account" in body["detail"]


def test_a_browser_session_begun_before_the_suspension_is_refused_too(client, anna, suspend):
    client.force_login(anna)
    assert client.get("/api/games/").status_code == 200
    suspend(anna)
    response = client.get("/api/games/")
    assert response.status_code == 403
    assert response.json()["code"] == "suspended"


def test_a_login_link_sent_before_the_suspension_stops_working(client, anna, suspend):
    request_login_link(anna.email)
    path = last_login_link(anna.email)
    suspend(anna)
    assert client.get(path).status_code == 403  # the page before the button says so too
    response = client.post(path)
    assert response.status_code == 403
    assert b"suspended this account" in response.content
    assert "_auth_user_id" not in client.session


def test_no_login_link_is_sent_to_a_suspended_player(anna, suspend):
    suspend(anna)
    assert request_login_link(anna.email) is False
    assert last_login_link(anna.email) is None


def test_the_game_link_of_an_email_does_not_sign_a_suspended_player_in(
    client, toy_game, anna, suspend
):
    url = game_entry_url(toy_game, anna).removeprefix("http://127.0.0.1:8000")
    suspend(anna)
    response = client.post(url)
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session


def test_a_suspended_player_cannot_create_a_game(toy_games, anna, bert, suspend):
    suspend(anna)
    with pytest.raises(ServiceError) as refused:
        actions.do_create_game(anna, [anna.email, bert.email], game=TOY_KIND)
    assert refused.value.code == "suspended"


def test_a_suspended_player_cannot_be_invited_and_the_host_is_not_told_why(
    toy_games, anna, bert, suspend
):
    suspend(bert)
    api = client_for(anna)
    response = api.post(
        "/api/games/", {"game": TOY_KIND, "players": [anna.email, bert.email]}, format="json"
    )
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled"
    assert body["detail"] == "One of these addresses cannot be invited right now; try again later."
    assert "suspend" not in response.content.decode().lower()


def test_a_suspended_player_cannot_accept_an_invitation(toy_games, anna, bert, suspend):
    game = actions.do_create_game(anna, [anna.email, bert.email], game=TOY_KIND)
    suspend(bert)
    with pytest.raises(ServiceError) as refused:
        actions.do_accept_invitation(game.id, bert)
    assert refused.value.code == "suspended"
    game.refresh_from_db()
    assert game.status == GameStatus.INVITED


def test_a_game_waiting_on_the_suspended_player_is_played_by_the_sweep_at_once(
    toy_game, anna, bert, suspend
):
    assert toy_game.deadline > timezone.now() + timedelta(hours=1)  # Anna's normal 72 hours
    turn_emails = OutboundEmail.objects.filter(to=anna.email, template="your_turn").count()
    suspend(anna, reason="Spam in the game chat.")
    toy_game.refresh_from_db()
    assert toy_game.deadline <= timezone.now()
    assert toy_game.next_reminder_at is None

    assert sweeps.play_due_timeouts() == 1

    toy_game.refresh_from_db()
    move = Move.objects.get(game=toy_game)
    assert (move.seat, move.automatic, move.actor) == (0, True, Actor.SERVICE)
    assert toy_game.status == GameStatus.ACTIVE and toy_game.version == 1
    # The game goes on with Bert, on his normal clock.
    assert toy_game.current_seat == 1
    assert toy_game.deadline > timezone.now() + timedelta(hours=71)
    assert OutboundEmail.objects.filter(to=anna.email, template="your_turn").count() == turn_emails


def play_turn(game, user):
    """``user`` plays a whole turn: the pass the rules would play for them (P24)."""
    game.refresh_from_db()
    action = game.rules.timeout_action(game.load_state())
    actions.do_play_move(game.id, user, game.version, action)
    game.refresh_from_db()


def test_a_new_turn_of_a_suspended_player_times_out_at_once(toy_game, anna, bert, suspend):
    suspend(bert)
    toy_game.refresh_from_db()
    assert toy_game.deadline > timezone.now() + timedelta(hours=1)  # Anna is not suspended
    play_turn(toy_game, anna)
    assert toy_game.current_seat == 1
    assert toy_game.deadline <= timezone.now()
    assert toy_game.next_reminder_at is None
    # No "your turn" email with a link that would not work: the move is played for him.
    assert not OutboundEmail.objects.filter(to=bert.email, template="your_turn").exists()
    assert sweeps.play_due_timeouts() == 1


def test_a_suspension_until_a_date_ends_by_itself(toy_games, anna, bert, suspend, time_machine):
    time_machine.move_to(timezone.now(), tick=False)
    suspend(anna, until=timezone.now() + timedelta(days=3))
    api = client_for(anna)
    assert api.get("/api/games/").status_code == 403
    time_machine.shift(timedelta(days=3, seconds=1))
    assert api.get("/api/games/").status_code == 200
    game = actions.do_create_game(anna, [anna.email, bert.email], game=TOY_KIND)
    assert game.status == GameStatus.INVITED


def test_unsuspending_restores_the_key_links_games_and_the_turn_clock(
    toy_game, anna, bert, moderator, suspend
):
    api = client_for(anna)
    suspend(anna)
    moderation.do_unsuspend_user(moderator, anna, "Apologised by email.")

    assert api.get("/api/games/").status_code == 200
    assert request_login_link(anna.email) is True
    toy_game.refresh_from_db()
    assert toy_game.deadline > timezone.now() + timedelta(hours=71)  # her turn's clock again
    assert sweeps.play_due_timeouts() == 0
    new_game = actions.do_create_game(anna, [anna.email, bert.email], game=TOY_KIND)
    assert new_game.status == GameStatus.INVITED
    entries = AuditEntry.objects.filter(target_user=anna).order_by("at", "id")
    assert [(e.action, e.moderator, e.reason) for e in entries] == [
        (AuditAction.SUSPEND_USER, moderator, "Insulted other players."),
        (AuditAction.UNSUSPEND_USER, moderator, "Apologised by email."),
    ]


@pytest.mark.parametrize(
    ("reason", "until", "message"),
    [
        ("  ", None, "Give a reason"),
        ("Spam.", timedelta(minutes=-1), "must end in the future"),
    ],
)
def test_bad_suspensions_change_nothing(toy_game, anna, moderator, reason, until, message):
    deadline = toy_game.deadline
    with pytest.raises(ServiceError) as refused:
        moderation.do_suspend_user(
            moderator, anna, reason, until=timezone.now() + until if until else None
        )
    assert refused.value.code == "invalid" and message in refused.value.detail
    anna.refresh_from_db()
    toy_game.refresh_from_db()
    assert not anna.is_suspended() and toy_game.deadline == deadline
    assert not AuditEntry.objects.exists()


def test_unsuspending_a_player_who_is_not_suspended_is_refused(anna, moderator):
    with pytest.raises(ServiceError) as refused:
        moderation.do_unsuspend_user(moderator, anna, "Mistake.")
    assert refused.value.code == "invalid"
    assert not AuditEntry.objects.exists()


def test_a_game_of_four_keeps_going_with_a_suspended_player_in_it(players, suspend):
    # Piratz's game: the toy seats three at most.
    carla = players[2]
    game = start_game(players)
    suspend(carla)
    for _ in range(3):
        game.refresh_from_db()
        seat = game.current_seat
        if seat == 2:
            assert game.deadline <= timezone.now()
            assert sweeps.play_due_timeouts() == 1
        else:
            play_turn(game, players[seat])
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert Move.objects.filter(game=game, seat=2, automatic=True).count() == 1


def test_a_suspension_between_reading_and_redeeming_a_link_wins(anna, suspend, monkeypatch):
    from accounts import login_links

    request_login_link(anna.email)
    token = last_login_link(anna.email).removeprefix("/accounts/login/").removesuffix("/")
    claim = login_links.read_login_link(token)  # read while she was not suspended yet
    suspend(anna)
    monkeypatch.setattr(login_links, "read_login_link", lambda token: claim)
    with pytest.raises(login_links.LoginLinkError) as refused:
        login_links.consume_login_link(token)
    assert refused.value.problem == login_links.LinkProblem.SUSPENDED
    assert login_links.LoginLink.objects.get().used_at is None  # the link is not spent


def test_a_moderator_cannot_suspend_themselves(moderator):
    with pytest.raises(ServiceError) as refused:
        moderation.do_suspend_user(moderator, moderator, "Testing.")
    assert refused.value.code == "invalid" and "yourself" in refused.value.detail
    moderator.refresh_from_db()
    assert not moderator.is_suspended()
