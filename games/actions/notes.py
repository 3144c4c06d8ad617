"""A player's private notes on a game (issue 34): read, save, delete; only ever their own.

A note is its writer's alone: the other players never see it, and neither do moderators
(no admin page, and staff without a seat get ``not_a_player`` like anyone's notes would
need a seat). Whoever holds a seat in the game may keep one, in every state of the game
(invited, running, ended: lichess and OGS keep them after the game too), also while
suspended (nobody else reads it). A note is not game state: saving one neither locks nor
changes the game and checks no version; the last save wins, as in another tab of an
editor. Its writer's row is locked instead, so that a save cannot slip past the erasure
of their account (``accounts.erasure``, which locks that row too) and outlive it.
"""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import ServiceError
from core.text import clean_typed_text
from games.models import Game, GameNote, Seat


def _check_writer(game_id, user: User) -> None:
    """Refuse unless ``user`` holds (or held) a seat in the game: ``not_found`` for a
    missing game or an outsider (as for every game they may not see), ``not_a_player``
    for staff, who may see the game but have no notes on it."""
    try:
        seated = Seat.objects.filter(game_id=game_id, user=user).exists()
        exists = seated or Game.objects.filter(id=game_id).exists()
    except ValidationError:  # not a game id at all
        seated = exists = False
    if seated:
        return
    if exists and user.is_staff:
        raise ServiceError(
            "not_a_player",
            _("Notes are private: you hold no seat in this game, so you have none on it."),
        )
    raise ServiceError("not_found", _("No such game, or you are not a player of it."))


def clean_note(text) -> str:
    """``text`` as stored (``core.text.clean_typed_text``, several lines, may be empty):
    ``ServiceError("invalid")`` when not a string, over ``GameNote.MAX_LENGTH`` characters
    after trimming, or holding control characters other than line breaks and tabs."""
    return clean_typed_text(
        text,
        field_label=_("A note"),
        max_length=GameNote.MAX_LENGTH,
        multiline=True,
        required=False,
    )


def own_note(game_id, user: User) -> GameNote | None:
    """``user``'s note on the game, None when they have written none. Raises
    ``ServiceError`` as ``do_save_game_note`` does (``not_found``, ``not_a_player``)."""
    _check_writer(game_id, user)
    return GameNote.objects.filter(game_id=game_id, user=user).first()


def do_save_game_note(game_id, user: User, text) -> GameNote | None:
    """Replace ``user``'s note on the game with ``text`` (cleaned by ``clean_note``);
    empty text deletes it (None returned). Atomic. Raises ``ServiceError``: ``not_found``
    (no such game, an outsider, an erased account), ``not_a_player`` (staff without a
    seat), ``invalid`` (see ``clean_note``). Returns the note as stored."""
    text = clean_note(text)
    with transaction.atomic():
        writer = User.objects.select_for_update().filter(pk=user.pk, erased_at=None).first()
        if writer is None:
            raise ServiceError("not_found", _("No such game, or you are not a player of it."))
        _check_writer(game_id, writer)
        if not text:
            GameNote.objects.filter(game_id=game_id, user=writer).delete()
            return None
        note = GameNote(game_id=game_id, user=writer, text=text, updated_at=timezone.now())
        # One statement (INSERT … ON CONFLICT UPDATE): two saves at once cannot both insert.
        GameNote.objects.bulk_create(
            [note],
            update_conflicts=True,
            unique_fields=["game", "user"],
            update_fields=["text", "updated_at"],
        )
    return note


def do_delete_game_note(game_id, user: User) -> None:
    """Delete ``user``'s note on the game (none written: nothing to do). Atomic; raises
    ``ServiceError`` as ``own_note`` does."""
    with transaction.atomic():
        _check_writer(game_id, user)
        GameNote.objects.filter(game_id=game_id, user=user).delete()


def notes_by_game(user: User) -> dict[str, dict]:
    """Every note ``user`` wrote, ``{game id: {"text", "updated_at"}}`` (their data export:
    ``games.personal_data``)."""
    return {
        str(note.game_id): {"text": note.text, "updated_at": note.updated_at}
        for note in GameNote.objects.filter(user=user)
    }


def erase_notes(user: User) -> None:
    """Delete every note of ``user`` (the erasure of their account: ``games.actions.erasure``)."""
    GameNote.objects.filter(user=user).delete()
