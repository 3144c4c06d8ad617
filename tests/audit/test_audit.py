"""The audit log: one row per moderator action, written in its transaction, with a reason."""

from unittest import mock

import pytest
from django.db import IntegrityError, transaction

import audit.log
from audit.forms import ReasonForm
from audit.models import AuditAction, AuditEntry
from core.errors import ServiceError
from games import actions
from games.models import GameStatus, Move

pytestmark = pytest.mark.django_db


@pytest.mark.django_db(transaction=True)  # no test transaction around it
def test_record_outside_a_transaction_is_a_programming_error(moderator, toy_game):
    with pytest.raises(RuntimeError):
        audit.log.record(moderator, AuditAction.ABORT_GAME, reason="Spam.", game=toy_game)
    assert not AuditEntry.objects.exists()


def test_only_staff_are_recorded_as_moderators(anna, toy_game):
    with pytest.raises(ServiceError) as refused, transaction.atomic():
        audit.log.record(anna, AuditAction.ABORT_GAME, reason="Spam.", game=toy_game)
    assert refused.value.code == "not_found"


def test_the_database_refuses_an_entry_without_a_reason(moderator, toy_game):
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditEntry.objects.create(
            moderator=moderator, action="abort_game", game=toy_game, reason=""
        )


@pytest.mark.parametrize(
    ("call", "action", "extra"),
    [
        (
            lambda game, mod: actions.do_extend_deadline(
                game.id, mod, 10, version=0, reason="Bert is  ill."
            ),
            AuditAction.EXTEND_DEADLINE,
            {"hours": 10, "version": 0},
        ),
        (
            lambda game, mod: actions.do_force_automatic_move(
                game.id, mod, version=0, reason="Bert is  ill."
            ),
            AuditAction.FORCE_AUTOMATIC_MOVE,
            {"version": 0, "move": 1},
        ),
        (
            lambda game, mod: actions.do_abort_game(
                game.id, mod, version=0, reason="Bert is  ill."
            ),
            AuditAction.ABORT_GAME,
            {"version_seen": 0},
        ),
    ],
)
def test_each_game_action_writes_one_entry_with_its_details(
    toy_game, moderator, call, action, extra
):
    call(toy_game, moderator)
    entry = AuditEntry.objects.get()
    assert (entry.moderator, entry.action, entry.game_id) == (moderator, action, toy_game.id)
    assert entry.reason == "Bert is ill."
    assert extra.items() <= entry.extra.items()


@pytest.mark.parametrize(
    "call",
    [
        lambda game, mod: actions.do_extend_deadline(game.id, mod, 10, reason=" "),
        lambda game, mod: actions.do_force_automatic_move(game.id, mod, version=0, reason=""),
        lambda game, mod: actions.do_abort_game(game.id, mod, reason="\n"),
        lambda game, mod: actions.do_play_timeout(game.id, moderator=mod),
    ],
)
def test_a_game_action_without_a_reason_is_refused_and_changes_nothing(toy_game, moderator, call):
    deadline = toy_game.deadline
    with pytest.raises(ServiceError) as refused:
        call(toy_game, moderator)
    assert refused.value.code == "invalid"
    toy_game.refresh_from_db()
    assert (toy_game.status, toy_game.version, toy_game.deadline) == (
        GameStatus.ACTIVE,
        0,
        deadline,
    )
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    "call",
    [
        lambda game, mod: actions.do_force_automatic_move(game.id, mod, version=0, reason="S."),
        lambda game, mod: actions.do_abort_game(game.id, mod, version=0, reason="S."),
        lambda game, mod: actions.do_extend_deadline(game.id, mod, 5, reason="S."),
    ],
)
def test_no_action_happens_without_its_entry(toy_game, moderator, call):
    # The entry is written in the action's transaction: if writing it fails, the action
    # rolls back with it.
    deadline = toy_game.deadline
    with (
        mock.patch.object(AuditEntry.objects, "create", side_effect=IntegrityError("full")),
        pytest.raises(IntegrityError),
    ):
        call(toy_game, moderator)
    toy_game.refresh_from_db()
    assert (toy_game.status, toy_game.version, toy_game.deadline) == (
        GameStatus.ACTIVE,
        0,
        deadline,
    )
    assert not Move.objects.exists()


def test_a_stale_version_writes_no_entry(toy_game, moderator):
    with pytest.raises(ServiceError) as refused:
        actions.do_abort_game(toy_game.id, moderator, version=3, reason="Spam.")
    assert refused.value.code == "stale_version"
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("reason", ["Spam\u001b[2J.", "Spam\u0007.", "\u202e.mapS", "Sp\u200bam."])
def test_a_reason_with_control_or_invisible_characters_is_refused_and_changes_nothing(
    toy_game, moderator, reason
):
    # Some reasons reach players (a suspension's): the one rule for typed text, one line.
    deadline = toy_game.deadline
    with pytest.raises(ServiceError) as refused:
        actions.do_extend_deadline(toy_game.id, moderator, 10, reason=reason)
    assert refused.value.code == "invalid"
    assert refused.value.detail == "The reason cannot contain control or invisible characters."
    toy_game.refresh_from_db()
    assert toy_game.deadline == deadline and not AuditEntry.objects.exists()


def test_a_reason_on_several_lines_is_kept_on_one(toy_game, moderator):
    actions.do_extend_deadline(toy_game.id, moderator, 10, reason="Bert\r\nis  ill.")
    assert AuditEntry.objects.get().reason == "Bert is ill."


def test_the_reason_form_refuses_what_the_audit_log_refuses():
    form = ReasonForm({"reason": "Spam\u001b[2J."})
    assert not form.is_valid()
    assert form.errors["reason"] == ["The reason cannot contain control or invisible characters."]
    assert ReasonForm({"reason": " Spam\n and more "}).is_valid()
