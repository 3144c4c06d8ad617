"""Tournament pages: the list, the create form, a tournament (sign up, withdraw, standings,
rounds, bracket) and the emailed invitation. Thin: parse, check access, call
``tournaments.actions``."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts.authenticated import AuthenticatedHttpRequest
from accounts.preferences import settings_for
from core.errors import ServiceError
from games.catalogue import rules_for
from games.describe import format_moment
from games.forms import ClockFields
from tournaments import actions, queries
from tournaments.models import SignUp, TournamentFormat, TournamentStatus
from tournaments.standings import standings

# The finished tournaments the list shows (the newest).
FINISHED_LISTED = 20


class CreateTournamentForm(ClockFields):
    name = forms.CharField(label=gettext_lazy("Name of the tournament"), max_length=80)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=())
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=TournamentFormat.choices)
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds (Swiss)"),
        initial=5,
        min_value=1,
        max_value=actions.MAX_SWISS_ROUNDS,
        help_text=gettext_lazy(
            "Fewer are played when everyone has met everyone. An elimination plays as many "
            "rounds as its bracket needs."
        ),
    )
    starts_at = forms.DateTimeField(
        label=gettext_lazy("Start (your time zone)"),
        input_formats=["%Y-%m-%dT%H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=gettext_lazy("Sign-up is open until then; round 1 is paired at that time."),
    )
    round_days = forms.IntegerField(
        label=gettext_lazy("Days per round"),
        initial=14,
        min_value=actions.MIN_ROUND_DAYS,
        max_value=actions.MAX_ROUND_DAYS,
    )
    turn_hours = forms.IntegerField(label=gettext_lazy("Hours per turn"), initial=72)
    max_entrants = forms.IntegerField(
        label=gettext_lazy("Most players"),
        initial=32,
        min_value=actions.MIN_ENTRANTS,
        max_value=actions.MAX_ENTRANTS,
    )
    rated = forms.BooleanField(label=gettext_lazy("Rated games"), required=False, initial=True)
    blind = forms.BooleanField(label=gettext_lazy("Blind mode (Piratz)"), required=False)
    signup = forms.ChoiceField(label=gettext_lazy("Who may sign up"), choices=SignUp.choices)
    invitees = forms.CharField(
        label=gettext_lazy(
            "By invitation: one a line, an email address or a name as the site shows it"
        ),
        help_text=gettext_lazy("Your own address too if you play."),
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        game_field = self.fields["game"]
        assert isinstance(game_field, forms.ChoiceField)
        game_field.choices = [(kind, rules_for(kind).NAME) for kind in actions.two_player_kinds()]


@login_required
def tournament_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/tournaments/``: those signing up, under way and the latest finished."""
    user = request.user
    zone = settings_for(user).zone

    def rows(found) -> list[dict]:
        return [
            {
                "tournament": t,
                "game_name": rules_for(t.game).NAME,
                "starts": format_moment(t.starts_at, zone),
            }
            for t in found
        ]

    context = {
        "signing_up": rows(queries.listed(user, TournamentStatus.SIGNUP)),
        "running": rows(queries.listed(user, TournamentStatus.RUNNING)),
        "finished": rows(queries.listed(user, TournamentStatus.FINISHED)[:FINISHED_LISTED]),
    }
    return render(request, "tournaments/list.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def create_tournament(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/tournaments/new/``: the form; POST creates the tournament and opens its page."""
    form = CreateTournamentForm(request.POST or None)
    # The start is read in the organiser's own time zone.
    with timezone.override(settings_for(request.user).zone):
        valid = request.method == "POST" and form.is_valid()
    if valid:
        data = form.cleaned_data
        try:
            tournament = actions.do_create_tournament(
                request.user,
                name=data["name"],
                game=data["game"],
                format=data["format"],
                rounds=data["rounds"],
                starts_at=data["starts_at"],
                round_days=data["round_days"],
                turn_hours=data["turn_hours"],
                clock=form.clock_request(),
                max_entrants=data["max_entrants"],
                rated=data["rated"],
                blind=data["blind"],
                signup=data["signup"],
                invitees=(
                    [line for line in data["invitees"].splitlines() if line.strip()]
                    if data["signup"] == SignUp.INVITATION
                    else []
                ),
            )
        except ServiceError as refused:
            form.add_error(None, refused.detail)
        else:
            messages.success(request, _("The tournament is created."))
            return redirect("tournaments:tournament", tournament.id)
    return render(
        request, "tournaments/new.html", {"form": form}, status=400 if form.errors else 200
    )


@login_required
def tournament_page(request: AuthenticatedHttpRequest, tournament_id) -> HttpResponse:
    """``/tournaments/<id>/``: the tournament, who is in, standings, rounds, bracket."""
    try:
        tournament = queries.visible_tournament(request.user, tournament_id)
    except ServiceError:
        raise Http404 from None
    entrant = queries.entrant_of(tournament, request.user)
    signing_up = (
        tournament.status == TournamentStatus.SIGNUP and tournament.starts_at > timezone.now()
    )
    zone = settings_for(request.user).zone
    rounds = queries.rounds_of(tournament)
    current = rounds[-1] if rounds else None
    context = {
        "tournament": tournament,
        "game_name": rules_for(tournament.game).NAME,
        "starts": format_moment(tournament.starts_at, zone),
        "deadline": (
            format_moment(current["deadline"], zone)
            if current and tournament.status == TournamentStatus.RUNNING
            else ""
        ),
        "entrant": entrant,
        "entrants": queries.signed_up(tournament),
        "can_sign_up": signing_up
        and (entrant is None or not entrant.is_in)
        and (tournament.signup == SignUp.OPEN or entrant is not None),
        "can_withdraw": entrant is not None
        and entrant.is_in
        and tournament.status in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING),
        "standings": standings(tournament),
        "rounds": list(reversed(rounds)),
        "bracket": queries.bracket(tournament),
        "is_swiss": tournament.format == TournamentFormat.SWISS,
    }
    return render(request, "tournaments/tournament.html", context)


@login_required
@require_POST
def sign_up(request: AuthenticatedHttpRequest, tournament_id) -> HttpResponse:
    try:
        queries.visible_tournament(request.user, tournament_id)
        actions.do_sign_up(tournament_id, request.user)
    except ServiceError as refused:
        if refused.code == "not_found":
            raise Http404 from None
        messages.error(request, refused.detail)
    else:
        messages.success(request, _("You are signed up. Round 1 is paired at the start."))
    return redirect("tournaments:tournament", tournament_id)


@login_required
@require_POST
def withdraw(request: AuthenticatedHttpRequest, tournament_id) -> HttpResponse:
    try:
        queries.visible_tournament(request.user, tournament_id)
        actions.do_withdraw(tournament_id, request.user)
    except ServiceError as refused:
        if refused.code == "not_found":
            raise Http404 from None
        messages.error(request, refused.detail)
    else:
        messages.success(
            request, _("You have withdrawn; a game of yours still running there is resigned.")
        )
    return redirect("tournaments:tournament", tournament_id)


@require_http_methods(["GET", "HEAD", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed invitation: GET shows it (mail scanners fetch links), POST answers it.
    The token proves the visitor got the email; no login is needed."""
    try:
        entrant = actions.entrant_for_token(token)
    except ServiceError as invalid:
        return render(request, "tournaments/invitation.html", {"error": invalid.detail}, status=404)
    error = None
    if request.method == "POST":
        decision = request.POST.get("decision")
        try:
            if decision == "accept":
                actions.do_sign_up(entrant.tournament_id, entrant.user)
            elif decision == "decline":
                actions.do_decline_invitation(entrant.pk)
            else:
                error = _("Choose sign up or decline.")
        except ServiceError as refused:
            error = refused.detail
        entrant.refresh_from_db()
        entrant.tournament.refresh_from_db()
    tournament = entrant.tournament
    open_now = (
        tournament.status == TournamentStatus.SIGNUP and tournament.starts_at > timezone.now()
    )
    context = {
        "entrant": entrant,
        "tournament": tournament,
        "game_name": rules_for(tournament.game).NAME,
        "starts": format_moment(tournament.starts_at, settings_for(entrant.user).zone),
        "error": error,
        "can_answer": open_now and entrant.signed_up_at is None and entrant.declined_at is None,
        "open_now": open_now,
    }
    return render(request, "tournaments/invitation.html", context, status=400 if error else 200)
