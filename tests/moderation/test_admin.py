"""Moderator actions through the admin, as a moderator (signed in with TOTP) and as a
player (refused); the audit log, read-only for everybody; the reports queue."""

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditAction, AuditEntry
from games.models import Actor, GameStatus, Move
from moderation import actions as moderation
from moderation.models import Report, ReportCategory
from notifications.models import OutboundEmail
from tests.factories import start_toy_game

pytestmark = pytest.mark.django_db


def run_action(client, changelist: str, action: str, rows, **answers):
    """Select ``rows`` on ``changelist``, pick ``action``, then confirm with ``answers``.

    Returns (the confirmation page, the response to confirming, redirects followed).
    """
    selected = [str(row.pk) for row in rows]
    page = client.post(changelist, {"action": action, "_selected_action": selected})
    form = {"action": action, "_selected_action": selected, "confirm": "yes", **answers}
    if action in GAME_ACTIONS:
        form.update({f"version_{row.pk}": str(row.version) for row in rows})
    return page, client.post(changelist, form, follow=True)


GAME_ACTIONS = {
    "extend_deadline_24h": AuditAction.EXTEND_DEADLINE,
    "force_automatic_move": AuditAction.FORCE_AUTOMATIC_MOVE,
    "abort_games": AuditAction.ABORT_GAME,
}


@pytest.fixture
def player_client(client, anna):
    """A signed-in player who is not staff."""
    client.force_login(anna)
    return client


# --- Game actions ---------------------------------------------------------------------------


@pytest.mark.parametrize("action", list(GAME_ACTIONS))
def test_a_game_action_in_the_admin_writes_its_audit_entry(
    moderator_client, moderator, toy_game, action
):
    page, done = run_action(
        moderator_client, "/admin/games/game/", action, [toy_game], reason="Carla  asked."
    )
    assert page.status_code == 200 and b'name="reason"' in page.content
    assert done.status_code == 200
    entry = AuditEntry.objects.get()
    assert (entry.moderator, entry.action, entry.game_id, entry.reason) == (
        moderator,
        GAME_ACTIONS[action],
        toy_game.id,
        "Carla asked.",
    )
    assert entry.extra["version" if action != "abort_games" else "version_seen"] == 0
    toy_game.refresh_from_db()
    if action == "extend_deadline_24h":
        assert entry.extra["hours"] == 24
    elif action == "force_automatic_move":
        move = Move.objects.get(game=toy_game)
        assert (move.actor, move.actor_user) == (Actor.MODERATOR, moderator)
        assert OutboundEmail.objects.filter(template="auto_moved").exists()
    else:
        assert toy_game.status == GameStatus.ABORTED
        assert OutboundEmail.objects.filter(template="game_ended").count() == 2  # each player


@pytest.mark.parametrize("action", list(GAME_ACTIONS))
def test_a_player_cannot_run_a_game_action_in_the_admin(player_client, toy_game, action):
    deadline = toy_game.deadline
    page, _ = run_action(player_client, "/admin/games/game/", action, [toy_game], reason="Me.")
    assert page.status_code == 302 and "/admin/login/" in page["Location"]
    toy_game.refresh_from_db()
    assert (toy_game.status, toy_game.version, toy_game.deadline) == (
        GameStatus.ACTIVE,
        0,
        deadline,
    )
    assert not AuditEntry.objects.exists()


def test_the_game_page_shows_its_audit_entries_and_never_the_secret_state(
    moderator_client, moderator, game
):
    # A Piratz game (through the catalogue, game.rules): its state holds a secret key (every
    # shuffle derives from it); the toy game has no secret to leak.
    from games import actions

    actions.do_extend_deadline(game.id, moderator, 5, reason="Anna is travelling.")
    response = moderator_client.get(f"/admin/games/game/{game.id}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "audit log (moderator actions)" in page.lower()
    assert "Anna is travelling." in page
    assert game.rules.dump(game.load_state())["key"] not in page


# --- The audit log is read-only ------------------------------------------------------------


@pytest.fixture
def entry(toy_game, moderator) -> AuditEntry:
    from games import actions

    actions.do_extend_deadline(toy_game.id, moderator, 5, reason="Anna is travelling.")
    return AuditEntry.objects.get()


def test_moderators_can_read_the_audit_log(moderator_client, entry):
    listing = moderator_client.get("/admin/audit/auditentry/")
    assert listing.status_code == 200 and b"Anna is travelling." in listing.content
    assert moderator_client.get(f"/admin/audit/auditentry/{entry.pk}/change/").status_code == 200


def test_an_audit_entry_cannot_be_changed_through_the_admin_even_by_a_superuser(
    moderator_client, moderator, entry
):
    assert moderator.is_superuser
    url = f"/admin/audit/auditentry/{entry.pk}/change/"
    response = moderator_client.post(url, {"reason": "Nothing happened.", "action": "x"})
    assert response.status_code == 403
    entry.refresh_from_db()
    assert (entry.reason, entry.action) == ("Anna is travelling.", AuditAction.EXTEND_DEADLINE)


def test_an_audit_entry_cannot_be_deleted_or_added_through_the_admin(moderator_client, entry):
    url = f"/admin/audit/auditentry/{entry.pk}/delete/"
    assert moderator_client.get(url).status_code == 403
    assert moderator_client.post(url, {"post": "yes"}).status_code == 403
    bulk = moderator_client.post(
        "/admin/audit/auditentry/",
        {"action": "delete_selected", "_selected_action": [str(entry.pk)], "post": "yes"},
    )
    assert bulk.status_code == 200  # the list again: no such action here
    added = moderator_client.post(
        "/admin/audit/auditentry/add/",
        {"moderator": entry.moderator_id, "action": "abort_game", "reason": "Forged."},
    )
    assert added.status_code == 403
    assert list(AuditEntry.objects.values_list("reason", flat=True)) == ["Anna is travelling."]


def test_the_game_page_offers_no_way_to_change_its_audit_entries(moderator_client, entry, toy_game):
    page = moderator_client.get(f"/admin/games/game/{toy_game.id}/change/").content.decode()
    assert 'name="audit_entries-0-reason"' not in page  # shown as text, not a field
    response = moderator_client.post(
        f"/admin/games/game/{toy_game.id}/change/",
        {
            "audit_entries-TOTAL_FORMS": "1",
            "audit_entries-INITIAL_FORMS": "1",
            "audit_entries-0-id": str(entry.pk),
            "audit_entries-0-reason": "Forged.",
            "audit_entries-0-DELETE": "on",
        },
    )
    assert response.status_code == 403
    entry.refresh_from_db()
    assert entry.reason == "Anna is travelling."


# --- Suspensions ------------------------------------------------------------------------------


def test_suspend_a_player_in_the_admin(moderator_client, moderator, toy_game, anna):
    until = timezone.now() + timedelta(days=7)
    page, done = run_action(
        moderator_client,
        "/admin/accounts/user/",
        "suspend_users",
        [anna],
        reason="Abusive  messages.",
        until=until.strftime("%Y-%m-%d %H:%M:%S"),
    )
    assert page.status_code == 200 and b'name="until"' in page.content
    assert "Reason: Abusive messages." in done.content.decode()
    anna.refresh_from_db()
    assert anna.is_suspended()
    assert abs(anna.suspended_until - until) < timedelta(seconds=1)
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.target_user, entry.reason) == (
        AuditAction.SUSPEND_USER,
        anna,
        "Abusive messages.",
    )
    toy_game.refresh_from_db()
    assert toy_game.deadline <= timezone.now()  # Anna's turn: the sweep plays it at once


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        ({"reason": " "}, "This field is required."),
        (
            {"reason": "Spam.", "until": "2001-01-01 10:00:00"},
            "The suspension must end in the future.",
        ),
    ],
)
def test_a_bad_suspension_in_the_admin_asks_again_and_changes_nothing(
    moderator_client, toy_game, anna, answers, message
):
    deadline = toy_game.deadline
    _, done = run_action(
        moderator_client, "/admin/accounts/user/", "suspend_users", [anna], **answers
    )
    assert done.status_code == 200 and message in done.content.decode()
    anna.refresh_from_db()
    toy_game.refresh_from_db()
    assert not anna.is_suspended() and toy_game.deadline == deadline
    assert not AuditEntry.objects.exists()


def test_unsuspend_a_player_in_the_admin(moderator_client, moderator, anna):
    moderation.do_suspend_user(moderator, anna, "Spam.")
    _, done = run_action(
        moderator_client, "/admin/accounts/user/", "unsuspend_users", [anna], reason="Cleared."
    )
    assert "Reason: Cleared." in done.content.decode()
    anna.refresh_from_db()
    assert not anna.is_suspended()
    assert AuditEntry.objects.filter(action=AuditAction.UNSUSPEND_USER, target_user=anna).exists()


def test_unsuspending_a_player_who_is_not_suspended_names_them_as_spelled(moderator_client, anna):
    _, done = run_action(
        moderator_client, "/admin/accounts/user/", "unsuspend_users", [anna], reason="Cleared."
    )
    # Not "Anna@example.com": the admin capitalises the first letter of a message.
    assert f"Not done for {anna.email}: This player is not suspended." in done.content.decode()
    assert not AuditEntry.objects.exists()


def test_a_player_cannot_suspend_anybody_through_the_admin(player_client, bert):
    page, _ = run_action(
        player_client, "/admin/accounts/user/", "suspend_users", [bert], reason="x"
    )
    assert page.status_code == 302 and "/admin/login/" in page["Location"]
    bert.refresh_from_db()
    assert not bert.is_suspended()
    assert not AuditEntry.objects.exists()


# --- Reports ----------------------------------------------------------------------------------


def test_the_queue_shows_open_reports_first(moderator_client, moderator, toy_game, anna, bert):
    old = moderation.do_file_report(anna, toy_game.id, ReportCategory.SPAM, "Old and handled.")
    moderation.do_resolve_report(moderator, old.pk, "Looked at it.")
    moderation.do_file_report(bert, toy_game.id, ReportCategory.CHEATING, "Still open.", seat=0)
    # The newest report is the resolved one, yet the open one comes first.
    Report.objects.filter(pk=old.pk).update(created_at=timezone.now() + timedelta(minutes=1))
    response = moderator_client.get("/admin/moderation/report/")
    queue = list(response.context["cl"].result_list)
    assert [(r.text, r.status) for r in queue] == [
        ("Still open.", Report.Status.OPEN),
        ("Old and handled.", Report.Status.RESOLVED),
    ]


def test_resolve_a_report_in_the_admin_tells_the_reporter_it_was_handled_not_how(
    moderator_client, moderator, report, bert, anna
):
    _, done = run_action(
        moderator_client,
        "/admin/moderation/report/",
        "resolve_reports",
        [report],
        reason="Warned Anna by email.",
    )
    assert "Reason: Warned Anna by email." in done.content.decode()
    report.refresh_from_db()
    assert (report.status, report.resolved_by) == (Report.Status.RESOLVED, moderator)
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.reason, entry.target_user, entry.extra["report"]) == (
        AuditAction.RESOLVE_REPORT,
        "Warned Anna by email.",
        anna,
        report.pk,
    )
    email = OutboundEmail.objects.get(template="report_handled").rendered()
    assert email.to == bert.email
    assert "handled" in email.subject and "handled" in email.body_text
    for text in (email.subject, email.body_text, email.body_html):
        assert "Warned" not in text and "Anna" not in text


def test_a_report_resolved_twice_is_refused_the_second_time(moderator_client, moderator, report):
    moderation.do_resolve_report(moderator, report.pk, "Done.")
    _, done = run_action(
        moderator_client, "/admin/moderation/report/", "resolve_reports", [report], reason="Again."
    )
    assert "already been resolved" in done.content.decode()
    assert AuditEntry.objects.count() == 1
    assert OutboundEmail.objects.filter(template="report_handled").count() == 1


def test_resolving_without_a_note_asks_again(moderator_client, report):
    _, done = run_action(
        moderator_client, "/admin/moderation/report/", "resolve_reports", [report], reason=""
    )
    assert "This field is required." in done.content.decode()
    report.refresh_from_db()
    assert report.status == Report.Status.OPEN
    assert not OutboundEmail.objects.filter(template="report_handled").exists()


def test_a_player_cannot_resolve_reports(player_client, report):
    page, _ = run_action(
        player_client, "/admin/moderation/report/", "resolve_reports", [report], reason="x"
    )
    assert page.status_code == 302
    report.refresh_from_db()
    assert report.status == Report.Status.OPEN


def test_two_games_are_acted_on_independently(moderator_client, toy_game, anna, bert):
    other = start_toy_game([bert, anna])
    run_action(
        moderator_client, "/admin/games/game/", "abort_games", [toy_game, other], reason="Spam."
    )
    assert AuditEntry.objects.filter(action=AuditAction.ABORT_GAME).count() == 2
