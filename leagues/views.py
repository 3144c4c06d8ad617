"""League pages: the create form, the league page (standings, games), the invitation,
leaving and the weekly email switch. Thin: parse, check access, call ``leagues.actions``."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts.authenticated import AuthenticatedHttpRequest
from core.errors import ServiceError
from games.catalogue import kinds, rules_for
from leagues import actions, queries
from leagues.models import LeagueFormat, LeagueStatus
from leagues.standings import standings


class CreateLeagueForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name of the league"), max_length=80)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=())
    blind = forms.BooleanField(label=gettext_lazy("Blind mode (Piratz)"), required=False)
    turn_hours = forms.IntegerField(label=gettext_lazy("Hours per turn"), initial=72)
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=LeagueFormat.choices)
    group_size = forms.TypedChoiceField(
        label=gettext_lazy("Group size (groups format)"),
        choices=[(4, "4"), (3, "3")],
        coerce=int,
        initial=4,
    )
    max_running = forms.IntegerField(
        label=gettext_lazy("Most games running at once per player"), initial=2
    )
    players = forms.CharField(
        label=gettext_lazy("Players: one a line, an email address or a name as the site shows it"),
        help_text=gettext_lazy(
            "A name is the one on the player's page and at the table, in any case, e.g. "
            "the first part of an address for someone who chose no name."
        ),
        widget=forms.Textarea(attrs={"rows": 6}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        game_field = self.fields["game"]
        assert isinstance(game_field, forms.ChoiceField)
        game_field.choices = [(name, rules_for(name).NAME) for name in kinds()]


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def create_league(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/leagues/new/``: the form; POST creates the league and opens its page."""
    form = CreateLeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            league = actions.do_create_league(
                request.user,
                name=data["name"],
                players=[line for line in data["players"].splitlines() if line.strip()],
                game=data["game"],
                blind=data["blind"],
                turn_hours=data["turn_hours"],
                format=data["format"],
                group_size=data["group_size"],
                max_running=data["max_running"],
            )
        except ServiceError as refused:
            form.add_error(None, refused.detail)
        else:
            messages.success(request, _("The league is created; the invitations are on their way."))
            return redirect("leagues:league", league.id)
    return render(request, "leagues/new.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def my_leagues(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/leagues/``: the leagues the player organises or belongs to."""
    return render(request, "leagues/list.html", {"leagues": queries.leagues_of(request.user)})


@login_required
def league_page(request: AuthenticatedHttpRequest, league_id) -> HttpResponse:
    """``/leagues/<id>/``: standings, games and members; members, organiser and staff."""
    try:
        league = queries.visible_league(request.user, league_id)
    except ServiceError:
        raise Http404 from None
    member = league.members.filter(user=request.user).first()
    members = list(league.members.select_related("user"))
    # Each standings row with its person, whose name links to their page ({% player_link %}).
    people = {m.user_id: m.user for m in members}
    context = {
        "league": league,
        "game_name": rules_for(league.game).NAME,
        "standings": [{**row, "person": people[row["user_id"]]} for row in standings(league)],
        "games": queries.games_of(league),
        "members": members,
        "member": member,
        "can_leave": member is not None
        and member.accepted_at is not None
        and member.left_at is None
        and league.status in (LeagueStatus.INVITED, LeagueStatus.ACTIVE),
    }
    return render(request, "leagues/league.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed invitation: GET shows it (mail scanners fetch links), POST answers it.
    The token proves the visitor got the email; no login is needed."""
    try:
        member = actions.member_for_token(token)
    except ServiceError as invalid:
        return render(request, "leagues/invitation.html", {"error": invalid.detail}, status=404)
    error = None
    if request.method == "POST":
        decision = request.POST.get("decision")
        try:
            if decision in ("accept", "decline"):
                actions.do_answer_invitation(member.pk, decision == "accept")
            else:
                error = _("Choose accept or decline.")
        except ServiceError as refused:
            error = refused.detail
        member.refresh_from_db()
        member.league.refresh_from_db()
    league = member.league
    context = {
        "member": member,
        "league": league,
        "game_name": rules_for(league.game).NAME,
        "members": league.members.select_related("user"),
        "error": error,
        "can_answer": league.status == LeagueStatus.INVITED
        and member.accepted_at is None
        and member.declined_at is None,
    }
    return render(request, "leagues/invitation.html", context, status=400 if error else 200)


@login_required
@require_POST
def leave(request: AuthenticatedHttpRequest, league_id) -> HttpResponse:
    """Leave the league: scheduled games cancelled, running ones resigned."""
    try:
        actions.do_leave_league(league_id, request.user)
    except ServiceError as refused:
        messages.error(request, refused.detail)
    else:
        messages.success(request, _("You have left the league; your games there are resigned."))
    return redirect("leagues:league", league_id)


@login_required
@require_POST
def weekly_standings(request: AuthenticatedHttpRequest, league_id) -> HttpResponse:
    """Turn the weekly standings email on (``wanted=1``) or off."""
    try:
        actions.do_set_weekly_standings(league_id, request.user, request.POST.get("wanted") == "1")
    except ServiceError:
        raise Http404 from None
    messages.success(request, _("Saved."))
    return redirect("leagues:league", league_id)
