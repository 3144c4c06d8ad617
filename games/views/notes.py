"""The table's "My notes" form (templates/games/_private_notes.html): save the reader's
private notes on the game (``games.actions.notes``), then back to the table.

A plain form POST that works without JavaScript (POST-redirect-GET, the outcome told as a
message); static/js/private_notes.js sends the same form with ``Accept: application/json``
and gets the outcome as JSON instead, so the page need not reload.
"""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from core.errors import ServiceError
from games.actions.notes import do_save_game_note


@require_POST
def save_notes(request: HttpRequest, game_id) -> HttpResponse:
    """Save the form's ``notes`` as the reader's notes on the game (empty deletes them).
    404 for outsiders (and staff without a seat: notes are private); a refusal (too long,
    control characters) changes nothing."""
    wants_json = "application/json" in request.headers.get("Accept", "")
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        if wants_json:
            return JsonResponse({"code": "not_authenticated"}, status=401)
        return redirect_to_login(reverse("games:game", args=[game_id]))
    try:
        note = do_save_game_note(game_id, user, request.POST.get("notes", ""))
    except ServiceError as refused:
        if refused.code in ("not_found", "not_a_player"):
            raise Http404(refused.detail) from None
        if wants_json:
            return JsonResponse({"code": refused.code, "detail": refused.detail}, status=400)
        messages.error(request, refused.detail)
    else:
        done = _("Your notes are saved.") if note is not None else _("Your notes are deleted.")
        if wants_json:
            return JsonResponse({"text": note.text if note else "", "detail": done})
        messages.success(request, done)
    return redirect(reverse("games:game", args=[game_id]) + "#my-notes")
