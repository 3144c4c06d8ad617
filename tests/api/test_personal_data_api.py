"""A player's personal data through the API (issue 26): GET /api/me/export/ (a zip of JSON
files, nothing hidden, no credential) and POST /api/me/delete/ with its emailed
confirmation link (refused when bad, expired or used; an erasure happens once)."""

import io
import json
import re
import zipfile
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.utils import timezone, translation

from accounts import erasure
from accounts.models import ApiToken, ErasureLink, NotificationSettings, User, Vacation
from core.redaction import redact_tokens
from games import actions, players
from games.actions.together import do_resign
from games.models import EndReason, Game, GameStatus, SeatChange
from moderation.actions import do_file_report
from notifications.models import OutboundEmail
from talk.actions import post_message
from tests.api.secrets_scan import assert_no_secrets
from tests.factories import client_for, make_user, start_game
from webhooks.models import Webhook

EXPORT, DELETE = "/api/me/export/", "/api/me/delete/"
LINK_RE = re.compile(re.escape(settings.SITE_URL.rstrip("/")) + r"(/accounts/delete/[^/\s\"<]+/)")
FILES = {
    "account.json",
    "settings.json",
    "games.json",
    "messages.json",
    "emails.json",
    "reports.json",
    "webhooks.json",
    "calendar_feed.json",
    "push_subscriptions.json",
    "ratings.json",
    "people.json",
    "quickmatch_seeks.json",
    "substitutes.json",
    "tournaments.json",
}


def export_of(user: User) -> dict[str, str]:
    """``user``'s export through the API: each file's text by name."""
    response = client_for(user).get(EXPORT)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == 'attachment; filename="piratz-personal-data.zip"'
    assert "no-store" in response["Cache-Control"]
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        return {name: archive.read(name).decode() for name in archive.namelist()}


def test_export_holds_the_players_data_and_nothing_hidden(anna, bert, carla):
    game = start_game([anna, bert, carla], blind=True)
    actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    post_message(game, anna, "Ahoy, Bert!")
    do_file_report(anna, game.id, "spam", "Bert spams.", seat=1)
    Vacation.objects.create(
        user=anna,
        starts_at=timezone.now() + timedelta(days=3),
        ends_at=timezone.now() + timedelta(days=5),
    )
    files = export_of(anna)
    assert set(files) == FILES
    account = json.loads(files["account.json"])
    assert account["email"] == "anna@example.com" and account["display_name"] == "Anna"
    games = json.loads(files["games.json"])
    assert [entry["game"]["id"] for entry in games] == [str(game.id)]
    assert games[0]["game"]["you"] == 0 and games[0]["moves"][0]["action"] == {"action": "reveal"}
    messages = json.loads(files["messages.json"])["messages"]
    assert [m["text"] for m in messages] == ["Ahoy, Bert!"]
    assert json.loads(files["reports.json"])[0]["text"] == "Bert spams."
    assert len(json.loads(files["settings.json"])["vacations"]) == 1
    assert json.loads(files["emails.json"]), "the game's emails to Anna"
    game.refresh_from_db()
    state = game.load_state()
    for name, text in files.items():
        # The draw order and the shuffle key never; another player's address never.
        assert_no_secrets(text, state, server_seed=game.server_seed)
        assert "bert@example.com" not in text and "carla@example.com" not in text, name
        # No live credential: no signed link, no API key (nor a key's hash).
        assert redact_tokens(text) == text, name
        assert ApiToken.objects.get(user=anna).key_hash not in text, name


def test_export_needs_a_signed_in_player(db):
    assert client_for(None).get(EXPORT).status_code == 401


@pytest.mark.parametrize("query", ["?format=", "?format=json", "?format=zip", "?what=all"])
def test_export_takes_no_query_parameters(anna, query):
    # The schema names none: DRF's ?format= override is refused like any other (schemathesis
    # found ?format= answered 200).
    answer = client_for(anna).get("/api/me/export/" + query)
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "invalid"


def ask_to_delete(user: User, captured) -> str:
    """POST /api/me/delete/ as ``user``; the path of the emailed confirmation link."""
    with captured(execute=True):
        response = client_for(user).post(DELETE)
    assert response.status_code == 202, response.content
    assert "emailed you a link" in response.json()["detail"]
    found = LINK_RE.search(mail.outbox[-1].body)
    assert found, mail.outbox[-1].body
    # Once sent, the outbox's row keeps no live link.
    row = OutboundEmail.objects.filter(template="erasure_link").latest("id")
    assert found.group(1) not in row.body_text and "/accounts/delete/[redacted]/" in row.body_text
    return found.group(1)


def test_deleting_through_the_emailed_link(
    anna, bert, carla, client, mailoutbox, django_capture_on_commit_callbacks
):
    game = start_game([anna, bert, carla])
    NotificationSettings.objects.create(user=anna, mode="digest")
    Webhook.objects.create(game=game, owner=anna, kind="json", url="https://hooks.example/x")
    post_message(game, anna, "Good luck")
    key_client = client_for(anna)
    path = ask_to_delete(anna, django_capture_on_commit_callbacks)
    assert mailoutbox[-1].to == ["anna@example.com"]
    assert path in mailoutbox[-1].body
    # Asking changes nothing; neither does opening the link (mail scanners open links).
    assert client.get(path).status_code == 200
    anna.refresh_from_db()
    assert anna.erased_at is None and anna.is_active

    assert client.post(path).status_code == 200
    anna.refresh_from_db()
    assert anna.erased_at is not None and not anna.is_active
    assert anna.email == f"erased-{anna.pk}@invalid" and anna.display_name == "former player"
    assert not anna.has_usable_password()
    assert not ApiToken.objects.filter(user=anna).exists()
    assert not NotificationSettings.objects.filter(user=anna).exists()
    assert not Webhook.objects.filter(owner=anna).exists()
    assert not OutboundEmail.objects.filter(to="anna@example.com").exists()
    assert key_client.get("/api/games/").status_code == 401
    # The game goes on: a stand-in bot plays seat 0 for good; the others see "former player".
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    change = SeatChange.objects.get(game=game, seat=0)
    assert change.why == "erased" and change.kind == SeatChange.Kind.STAND_IN
    seen = client_for(bert).get(f"/api/games/{game.id}/").json()
    assert seen["seats"][0]["name"] == "former player (a careful bot stands in)"
    assert seen["seats"][0]["bot"] == {"level": "careful", "standing_in": True}
    talk = client_for(bert).get(f"/api/games/{game.id}/messages/").json()
    assert [(m["name"], m["text"]) for m in talk["results"]] == [("former player", "Good luck")]
    with translation.override("de"):  # the name is shown in the reader's language
        assert anna.public_name == "ehemaliger Spieler"


def test_a_used_expired_or_bad_link_is_refused(anna, client, django_capture_on_commit_callbacks):
    path = ask_to_delete(anna, django_capture_on_commit_callbacks)
    bad = path[:-6] + "xxxxx/"
    answer = client.post(bad)
    assert answer.status_code == 400 and b"not valid" in answer.content
    with time_machine.travel(timezone.now() + timedelta(minutes=erasure.LINK_MINUTES + 1)):
        answer = client.post(path)
    assert answer.status_code == 400 and b"expired" in answer.content
    anna.refresh_from_db()
    assert anna.erased_at is None, "a refused link changes nothing"
    assert client.post(path).status_code == 200
    answer = client.post(path)
    assert answer.status_code == 400 and b"already been used" in answer.content


def test_erasure_happens_once(anna, django_capture_on_commit_callbacks):
    ask_to_delete(anna, django_capture_on_commit_callbacks)
    second = ask_to_delete(anna, django_capture_on_commit_callbacks)
    erased = erasure.erase_user(anna.pk)
    again = erasure.erase_user(anna.pk)
    assert again.session_generation == erased.session_generation
    assert again.erased_at == erased.erased_at
    # A link asked for before is spent with the erasure; none is sent to an erased account.
    assert not ErasureLink.objects.filter(user=anna, used_at=None).exists()
    assert erasure.request_erasure(anna) is False
    with pytest.raises(erasure.ErasureLinkError):
        erasure.do_erase_account(second.removeprefix("/accounts/delete/").removesuffix("/"))


def test_a_game_with_no_other_player_left_ends_for_the_deletion(anna, bert, carla):
    game = start_game([anna, bert, carla])
    do_resign(game.id, bert, 0)
    do_resign(game.id, carla, 1)
    erasure.erase_user(anna.pk)
    game.refresh_from_db()
    # Named for what happened: nobody timed out (not P25's "abandoned").
    assert (game.status, game.end_reason) == (GameStatus.ABORTED, EndReason.ERASED)
    told = OutboundEmail.objects.get(template="game_ended", to=bert.email).rendered()
    assert "a player has deleted their account, and nobody is left to play on" in told.body_text


def test_a_pending_invitation_is_cancelled_for_the_deletion(anna, bert):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    erasure.erase_user(bert.pk)
    game = Game.objects.get(pk=game.pk)
    # Not "an invitee declined": Bert never did.
    assert (game.status, game.end_reason) == (GameStatus.CANCELLED, EndReason.ERASED)


def test_the_asking_is_capped_and_needs_a_player(anna, django_capture_on_commit_callbacks):
    for _ in range(erasure.LINKS_PER_HOUR):
        assert erasure.request_erasure(anna)
    assert not erasure.request_erasure(anna)
    assert client_for(anna).post(DELETE).status_code == 202  # the same answer
    assert client_for(None).post(DELETE).status_code == 401
    assert make_user("x@example.com").erasure_links.count() == 0


def test_an_erased_player_has_no_page_and_is_suggested_to_nobody(anna, bert, carla):
    start_game([anna, bert, carla])
    erasure.erase_user(bert.pk)
    assert players.player_named("former player") is None
    assert players.player_named("Bert") is None
    assert [p.email for p in players.partners_of(anna)] == ["carla@example.com"]
    assert [g.emails for g in players.recent_groups(anna)] == [
        ("anna@example.com", "carla@example.com")
    ]
