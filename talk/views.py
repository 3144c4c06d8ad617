"""The table page's talk forms (templates/talk/_table_talk.html): write a message, report
one. POST-redirect-GET back to the table, the outcome told as a message above it.

Here, not in ``games``: the table page may show talk, but games never imports the talk
app (docs/architecture.md "The floors"); the page reads it through
``talk.templatetags.table_talk``.
"""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from games import queries
from talk import actions
from talk.models import Message

# Where the talk panel is on the table page: back to it, not to the top of the page.
PANEL_ANCHOR = "#table-talk"


def _back_to_talk(game_id) -> HttpResponse:
    return redirect(reverse("games:game", args=[game_id]) + PANEL_ANCHOR)


@require_POST
def post_message(request: HttpRequest, game_id) -> HttpResponse:
    """The talk panel's "Send": ``talk.actions.post_message``; a refusal (too long, empty,
    too many this hour, suspended, staff without a seat) is told and nothing is written.
    Outsiders get 404 like the table; a signed-out poster is sent to sign in first."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("games:game", args=[game_id]))
    try:
        game = queries.get_visible_game(request.user, game_id)
        actions.post_message(game, request.user, request.POST.get("text", ""))
    except ServiceError as refused:
        if refused.code == "not_found":
            raise Http404(refused.detail) from None
        messages.error(request, refused.detail)
    else:
        messages.success(request, _("Your message is on the table."))
    return _back_to_talk(game_id)


@require_POST
def report_message(request: HttpRequest, game_id, message_id: int) -> HttpResponse:
    """A message's "Report" (another player's): ``talk.actions.do_report_message`` with the
    optional reason; once per player and message (again changes nothing). 404 for a
    message not of this game or a game not the poster's."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("games:game", args=[game_id]))
    if not Message.objects.filter(pk=message_id, game_id=game_id).exists():
        raise Http404("No such message at this table.")
    try:
        actions.do_report_message(request.user, message_id, request.POST.get("reason", ""))
    except ServiceError as refused:
        if refused.code == "not_found":  # not at that table
            raise Http404(refused.detail) from None
        messages.error(request, refused.detail)  # a reason the rule for typed text refuses
    else:
        messages.success(
            request, _("Thank you: the moderators will look at the message you reported.")
        )
    return _back_to_talk(game_id)
