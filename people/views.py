"""The pages of people: "My people" (whom you follow and block, the games you follow) and
the POSTs of the player page's and the game page's buttons (docs/people.md).

Thin views: they parse, call ``people.actions`` and go back where the button was.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.authenticated import AuthenticatedHttpRequest
from core.errors import ServiceError
from people import actions, queries
from people.blocks import blocked_ids


@never_cache
@login_required
@require_http_methods(["GET", "HEAD"])
def my_people(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Whom the reader follows (each a link to their page and a Challenge button, unless
    either has blocked the other), whom they blocked (Unblock) and the games they follow."""
    apart = blocked_ids(request.user.pk)
    following = [
        {"player": follow.player, "can_challenge": follow.player_id not in apart}
        for follow in queries.following_of(request.user)
    ]
    context = {
        "following": following,
        "blocks": list(queries.blocks_of(request.user)),
        "followed_games": list(queries.followed_games_of(request.user)),
    }
    return render(request, "people/mine.html", context)


def _back(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """Back to "My people" when the button was there (``back=mine``), else to the player's
    page. Only these two: the destination is never an address the request names."""
    if request.POST.get("back") == "mine":
        return redirect("people:mine")
    return redirect("games:player", public_id=public_id)


def _acted(request: AuthenticatedHttpRequest, public_id: str, act, done: str) -> HttpResponse:
    try:
        act(request.user, public_id)
    except ServiceError as refused:
        messages.error(request, refused.detail)
    else:
        messages.success(request, done)
    return _back(request, public_id)


@login_required
@require_POST
def follow(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    return _acted(
        request,
        public_id,
        actions.do_follow,
        _("You follow this player now: you get an email when they start a public game."),
    )


@login_required
@require_POST
def unfollow(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    return _acted(request, public_id, actions.do_unfollow, _("You no longer follow this player."))


@login_required
@require_POST
def block(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    return _acted(
        request,
        public_id,
        actions.do_block,
        _("You have blocked this player. They are not told."),
    )


@login_required
@require_POST
def unblock(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    return _acted(request, public_id, actions.do_unblock, _("You have unblocked this player."))


def _back_to_game(request: AuthenticatedHttpRequest, game_id) -> HttpResponse:
    if request.POST.get("back") == "mine":
        return redirect("people:mine")
    return redirect("games:game", game_id=game_id)


@login_required
@require_POST
def follow_game(request: AuthenticatedHttpRequest, game_id) -> HttpResponse:
    try:
        actions.do_follow_game(request.user, game_id)
    except ServiceError as refused:
        messages.error(request, refused.detail)
    else:
        messages.success(request, _("You follow this game now: you get an email when it ends."))
    return _back_to_game(request, game_id)


@login_required
@require_POST
def unfollow_game(request: AuthenticatedHttpRequest, game_id) -> HttpResponse:
    actions.do_unfollow_game(request.user, game_id)
    messages.success(request, _("You no longer follow this game."))
    return _back_to_game(request, game_id)
