"""The host's choices about spectators: whether anyone may watch the game (``Game.public``) and
whether watchers read its table talk too (``Game.talk_public``); docs/players.md "Watching
games".

Host's actions, as the pause is (``games.actions.together``): only the player who holds
the host's chair (``games.chair``) decides, while the game waits for acceptances or is
played; no audit entry (no moderator acts). One transaction on the locked game row; a
refused request changes nothing, and asking for what is already so changes nothing either.
Neither choice is a move: the version stays, but a ``version`` the host chose from is
checked, so a decision made on an old table is refused as ``stale_version``.
"""

import logging

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import ServiceError, status_word
from games import live
from games.actions.common import check_seen_version, lock_game_with_seats
from games.actions.together import player_row, refuse_unless_chair
from games.models import Game, GameStatus

logger = logging.getLogger(__name__)

# While the host may still change who watches: before the start and during play.
_DECIDED_WHILE = (GameStatus.INVITED, GameStatus.ACTIVE)


def _lock_for_the_chair(game_id, user: User, version: int | None) -> Game:
    """The locked game, refused unless ``user`` holds its host's chair and it has not ended,
    and unless ``version`` (None: not checked) is still its version."""
    game = lock_game_with_seats(game_id)
    refuse_unless_chair(game, player_row(game, user))
    if game.status not in _DECIDED_WHILE:
        raise ServiceError(
            "game_not_active",
            _("This game is %(status)s; who may watch it is decided before it ends.")
            % {"status": status_word(game.status)},
        )
    check_seen_version(game, version)
    return game


def do_set_spectators(
    game_id,
    user: User,
    *,
    public: bool | None = None,
    talk_public: bool | None = None,
    version: int | None = None,
) -> Game:
    """The host decides who watches: ``public`` (anyone may watch the game and find it among
    the public games; false: only its players and staff see it, and watchers' pages and
    streams end) and ``talk_public`` (watchers read its table talk too; they never write).
    None leaves a choice as it is; making the game private closes its talk to spectators.
    Both in one transaction: a refusal changes neither.

    Raises ``ServiceError``: ``invalid`` (neither given, or not booleans), ``not_found``,
    ``not_a_player``, ``suspended``, ``not_host``, ``conflict`` (the host resigned; or
    opening the talk of a game that is not public), ``game_not_active`` (ended),
    ``stale_version``. Returns the game, seats prefetched.
    """
    if public is None and talk_public is None:
        raise ServiceError("invalid", _("Give public, talk_public or both."))
    for name, value in (("public", public), ("talk_public", talk_public)):
        if value is not None and type(value) is not bool:
            raise ServiceError("invalid", _("%(name)s must be true or false.") % {"name": name})
    with transaction.atomic():
        game = _lock_for_the_chair(game_id, user, version)
        now_public = game.public if public is None else public
        # Left as it is, the talk stays open only while the game stays public.
        now_talk = (game.talk_public and now_public) if talk_public is None else talk_public
        if now_talk and not now_public:
            raise ServiceError(
                "conflict",
                _(
                    "Only a public game's table talk can be open to spectators: make it "
                    "public first."
                ),
            )
        if (now_public, now_talk) == (game.public, game.talk_public):
            return game  # asked for what is so already: nothing to change or announce
        what = live.CLOCK if now_public != game.public else live.TALK
        game.public, game.talk_public = now_public, now_talk
        game.save(update_fields=["public", "talk_public", "updated_at"])
        # The open tables show the change (the chair's forms, the note about watchers); a
        # watcher's stream ends when it reads the game private (games.views.live).
        live.announce_on_commit(game, what)
        logger.info(
            "game %s: public %s, talk public %s, by its host %s",
            game.id,
            now_public,
            now_talk,
            user.id,
        )
    return game
