"""The quick match page: the seek form and the player's seeks, withdrawing one. Thin:
parse, call ``quickmatch.actions``, show."""

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts.authenticated import AuthenticatedHttpRequest
from core.errors import ServiceError
from games.actions import MAX_TURN_HOURS, MIN_TURN_HOURS
from games.catalogue import kinds, rules_for
from quickmatch import actions, pairing
from quickmatch.models import Seek, SeekStatus

# How many of a player's seeks that wait no more the page lists (the API lists them all).
RECENT_SEEKS = 10


class SeekForm(forms.Form):
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=())
    players = forms.TypedChoiceField(
        label=gettext_lazy("Players at the table, you too"), choices=(), coerce=int
    )
    turn_hours_min = forms.IntegerField(
        label=gettext_lazy("Fewest hours per turn"),
        initial=24,
        min_value=MIN_TURN_HOURS,
        max_value=MAX_TURN_HOURS,
    )
    turn_hours_max = forms.IntegerField(
        label=gettext_lazy("Most hours per turn"),
        initial=72,
        min_value=MIN_TURN_HOURS,
        max_value=MAX_TURN_HOURS,
    )
    rated = forms.BooleanField(label=gettext_lazy("Rated"), required=False, initial=True)
    rating_range = forms.IntegerField(
        label=gettext_lazy("Opponents within this many rating points of yours"),
        help_text=gettext_lazy(
            "The range grows the longer your seek waits, so a seek nobody fits at first "
            "reaches further."
        ),
        initial=actions.DEFAULT_RATING_RANGE,
        min_value=actions.MIN_RATING_RANGE,
        max_value=actions.MAX_RATING_RANGE,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        game_field = self.fields["game"]
        players_field = self.fields["players"]
        assert isinstance(game_field, forms.ChoiceField)
        assert isinstance(players_field, forms.ChoiceField)
        game_field.choices = [(kind, rules_for(kind).NAME) for kind in kinds()]
        # Every count some game seats; one the chosen game does not is refused by the action.
        counts = sorted({n for kind in kinds() for n in rules_for(kind).PLAYER_COUNTS})
        players_field.choices = [(n, str(n)) for n in counts]


def _seek_rows(seeks: list[Seek]) -> list[dict]:
    """Each seek with what the page shows of it: the game's name, the window it reaches."""
    now = timezone.now()
    return [
        {
            "seek": seek,
            "game_name": rules_for(seek.kind).NAME if seek.kind in kinds() else seek.kind,
            "window": pairing.window(
                actions.candidate(seek), now, settings.SEEK_WIDENING_PER_MINUTE
            ),
        }
        for seek in seeks
    ]


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def quickmatch_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/quickmatch/``: the seek form and the player's seeks; POST posts a seek."""
    form = SeekForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            actions.do_post_seek(request.user, **form.cleaned_data)
        except ServiceError as refusal:
            form.add_error(None, refusal.detail)
        else:
            messages.success(
                request,
                _("Your seek is posted. When it finds a game, you get the usual email."),
            )
            return redirect("quickmatch:page")
    mine = Seek.objects.filter(user=request.user).select_related("game")
    context = {
        "form": form,
        "waiting": _seek_rows(list(mine.filter(status=SeekStatus.WAITING))),
        "recent": _seek_rows(list(mine.exclude(status=SeekStatus.WAITING)[:RECENT_SEEKS])),
        "ratings": [
            (rules_for(kind).NAME, actions.rating_of(request.user, kind)) for kind in kinds()
        ],
    }
    return render(request, "quickmatch/page.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def withdraw(request: AuthenticatedHttpRequest, seek_id) -> HttpResponse:
    """Withdraw one of the player's waiting seeks."""
    try:
        actions.do_withdraw_seek(request.user, seek_id)
    except ServiceError as refusal:
        messages.error(request, refusal.detail)
    else:
        messages.success(request, _("Your seek is withdrawn."))
    return redirect("quickmatch:page")
