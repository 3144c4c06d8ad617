"""The player's own pages around the table: my games (with the create form) and the replay.

Thin views: they parse, check access, call ``games.actions`` (which validate and change
state) and render. The table itself is ``games.views.table.game_page`` (and its successors).
"""

import functools

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Case, F, IntegerField, Q, Value, When
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import format_lazy
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.authenticated import AuthenticatedHttpRequest
from accounts.models import User
from accounts.preferences import settings_for
from games import actions, bots, describe, players, queries, seat_names, watching
from games.actions.invitations import player_counts_text
from games.catalogue import kinds, rules_for, spec_for
from games.forms import ClockFields
from games.models import Game, GameStatus
from games.movelog import log_to_describe, moves_at_version
from games.replay import ReplayRequest, any_game_page

# More than anyone plays at once; older finished games stay reachable by their links.
MY_GAMES_LIMIT = 100
# Ended games (finished, cancelled, aborted) the list shows at first, newest first; the
# rest wait behind a link (?ended=all). The games to play come first and stay in full.
ENDED_GAMES_SHOWN = 10
# The list's groups (``_my_games``' ``group``), in its order.
_RUNNING, _INVITED, _ENDED = 1, 2, 3


def _all_bot_levels() -> list[str]:
    """Every bot level some registered game offers (``games.bots.levels_of``), weakest
    first as each game lists them; which game takes which is ``do_create_game``'s call."""
    levels: list[str] = []
    for name in kinds():
        for level in bots.levels_of(rules_for(name)):
            if level not in levels:
                levels.append(level)
    return levels


def _bot_field(number: int) -> forms.ChoiceField:
    """The choice to give seat ``number`` to a bot instead of a person (``games.bots``),
    by level, weakest first."""
    return forms.ChoiceField(
        label=format_lazy(gettext_lazy("…or a bot as player {number}"), number=number),
        choices=lambda: (
            [("", gettext_lazy("no bot"))]
            + [(level, seat_names.LEVEL_WORDS.get(level, level)) for level in _all_bot_levels()]
        ),
        required=False,
    )


def game_choices() -> list[tuple[str, str]]:
    """The games a host may start: each registered rules package by its ``NAME``."""
    return [(name, rules_for(name).NAME) for name in kinds()]


def games_offered() -> list[dict]:
    """What each game allows, for the create form's notes and its script: the player
    counts, whether it has a blind mode, and its bot levels (all from the rules)."""
    offered = []
    for name, title in game_choices():
        rules = rules_for(name)
        offered.append(
            {
                "game": name,
                "name": title,
                "players": player_counts_text(rules),
                "max_players": max(rules.PLAYER_COUNTS),
                "blind": "blind" in rules.OPTIONS,
                "bots": list(bots.levels_of(rules)),
            }
        )
    return offered


class CreateGameForm(ClockFields):
    """The create form's fields, parsed only: ``actions.do_create_game`` decides what is
    allowed (player count, distinct players, the host among them, turn length, limits)
    and its ``ServiceError.detail`` is shown as the form's error."""

    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=game_choices, required=False)
    player_1 = forms.EmailField(label=gettext_lazy("Player 1 (starts)"), max_length=254)
    player_2 = forms.EmailField(label=gettext_lazy("Player 2"), max_length=254, required=False)
    bot_2 = _bot_field(2)
    player_3 = forms.EmailField(label=gettext_lazy("Player 3"), max_length=254, required=False)
    bot_3 = _bot_field(3)
    player_4 = forms.EmailField(label=gettext_lazy("Player 4"), max_length=254, required=False)
    bot_4 = _bot_field(4)
    turn_hours = forms.IntegerField(
        label=gettext_lazy("Hours per turn"),
        initial=72,
        widget=forms.NumberInput(
            attrs={"min": actions.MIN_TURN_HOURS, "max": actions.MAX_TURN_HOURS}
        ),
    )
    blind = forms.BooleanField(
        label=gettext_lazy("Blind mode: nobody sees collected cards before the end"),
        required=False,
    )
    # The host's share of the shuffle key (games.fairness); static/js/client_seed.js fills it.
    client_seed = forms.RegexField(
        r"^[A-Za-z0-9_-]{1,64}$",
        label=gettext_lazy(
            "Your seed for the shuffle (optional: your browser picked one at random; "
            "letters, digits, - and _)"
        ),
        required=False,
        max_length=64,
        widget=forms.TextInput(attrs={"data-client-seed": "", "autocomplete": "off"}),
    )

    stand_in_bots = forms.NullBooleanField(
        label=gettext_lazy("A bot stands in for a player who keeps timing out"),
        widget=forms.Select(
            choices=[
                ("unknown", gettext_lazy("as recommended: with 3 or 4 players")),
                ("true", gettext_lazy("yes")),
                ("false", gettext_lazy("no")),
            ]
        ),
        required=False,
    )
    # Rated unless the host says not (a game with a bot is never rated: the service's rule).
    unrated = forms.BooleanField(
        label=gettext_lazy("Unrated: the result moves nobody's rating"),
        required=False,
    )
    # Anyone may watch (games.watching); its table talk stays the players' unless opened.
    public = forms.BooleanField(
        label=gettext_lazy("Public: anyone may watch the game, but not read its table talk"),
        required=False,
    )
    # A challenge from a player's page (people's button: ?challenge=<public id>): that
    # person takes the first empty player place by their page, their address never shown.
    challenge = forms.RegexField(
        r"^[a-z0-9]{1,16}$", required=False, max_length=16, widget=forms.HiddenInput
    )

    def clean_game(self) -> str:
        # A form without the field (older pages, scripts) starts the first game listed.
        return self.cleaned_data.get("game") or kinds()[0]

    def clean(self):
        cleaned = super().clean()
        assert cleaned is not None  # forms.Form.clean returns cleaned_data
        for number in (2, 3, 4):
            if cleaned.get(f"player_{number}") and cleaned.get(f"bot_{number}"):
                self.add_error(
                    f"bot_{number}",
                    _("Choose a person or a bot for player %(number)d, not both.")
                    % {"number": number},
                )
        if cleaned.get("challenge") and self._free_place() is None:
            self.add_error(None, _("Too many players: a game has at most 4 seats."))
        return cleaned

    def _free_place(self) -> int | None:
        """The first of player places 2-4 with neither an address nor a bot: where the
        challenged person sits."""
        return next(
            (
                number
                for number in (2, 3, 4)
                if not self.cleaned_data.get(f"player_{number}")
                and not self.cleaned_data.get(f"bot_{number}")
            ),
            None,
        )

    def players(self) -> list[str]:
        """The seats in order, as ``do_create_game`` takes them: an address,
        ``"bot:<level>"`` for a seat given to a bot, ``"player:<public id>"`` for the
        challenged person in the first empty place (other empty seats left out)."""
        entries = [self.cleaned_data["player_1"]]
        challenged = self._free_place() if self.cleaned_data.get("challenge") else None
        for number in (2, 3, 4):
            if level := self.cleaned_data.get(f"bot_{number}"):
                entries.append(f"bot:{level}")
            elif email := self.cleaned_data.get(f"player_{number}"):
                entries.append(email)
            elif number == challenged:
                entries.append(f"player:{self.cleaned_data['challenge']}")
        return entries


def _with_partners(
    data: QueryDict, partners: list[players.Partner]
) -> tuple[QueryDict, str | None]:
    """The create form's POST ``data`` with the people ticked in "played with" (``with``:
    ids among ``partners``, the only addresses the form may take this way) placed in the
    empty player fields 2-4 (a seat given to a bot is not empty), in the order ticked, each
    once (an address typed already, by hand or by the page's script, is not added again).
    Returns the data and None, or the data unchanged and why they do not fit."""
    ticked = data.getlist("with")
    if not ticked:
        return data, None
    by_id = {str(partner.id): partner for partner in partners}
    merged = data.copy()
    present = {merged.get(f"player_{n}", "").strip().lower() for n in (1, 2, 3, 4)}
    free = [
        n
        for n in (2, 3, 4)
        if not merged.get(f"player_{n}", "").strip() and not merged.get(f"bot_{n}")
    ]
    for partner_id in ticked:
        partner = by_id.get(partner_id)
        if partner is None or partner.email.lower() in present:
            continue
        if not free:
            return data, _("Too many players: a game has at most 4 seats.")
        merged[f"player_{free.pop(0)}"] = partner.email
        present.add(partner.email.lower())
    return merged, None


def _group_initial(request: AuthenticatedHttpRequest, groups: list[players.Group]) -> dict:
    """The create form filled from ``?group=<game id>`` (one of ``groups``, the reader's
    recent ones): that game's kind and its people in its seat order. Empty otherwise."""
    wanted = request.GET.get("group", "")
    group = next((g for g in groups if str(g.game.id) == wanted), None)
    if group is None:
        return {}
    initial: dict = {"game": group.game.game}
    for number, email in enumerate(group.emails, start=1):
        initial[f"player_{number}"] = email
    return initial


def _challenged(public_id: str | None, reader) -> User | None:
    """The person a challenge names (``?challenge=`` or the form's field), for the form's
    chip (their name and page address: never their address). None for nobody, a deleted
    account or the reader; whether the two may meet is ``do_create_game``'s call."""
    person = players.player_with_page(public_id) if public_id else None
    if person is None or person.erased_at is not None or person.pk == reader.pk:
        return None
    return person


def _created_message(game: Game) -> str:
    """What the host is told after creating ``game``: invitations went out only if some
    seat waits for a person; with bots alone every seat has accepted and play has begun."""
    if game.status == GameStatus.INVITED:
        return _("The game is created; the invitations are on their way.")
    return _("The game is created and has begun: the bots took their seats at once.")


def _my_games(user):
    """The user's games, those waiting for them first (their turn, then their unanswered
    invitations, soonest deadline first), then other running games, then the rest newest first.

    ``my_seat`` and ``my_accepted_at`` are the user's own seat: the filter's join on seats
    is the one the annotations read (filter before annotate), so no second join.
    """
    games = (
        # The list names the people at each game: their settings and vacations stay unread.
        queries.games_of(user, seats=queries.SEATS_WITH_PEOPLE)
        # The list never shows the table: leave the engine state (the largest column) unread.
        .defer("state")
        .annotate(my_seat=F("seats__seat"), my_accepted_at=F("seats__accepted_at"))
        .annotate(
            waiting_for_me=Case(
                When(status=GameStatus.ACTIVE, current_seat=F("my_seat"), then=Value(1)),
                When(
                    Q(status=GameStatus.INVITED, my_accepted_at__isnull=True),
                    then=Value(1),
                ),
                default=Value(0),
                output_field=IntegerField(),
            ),
            group=Case(
                When(status=GameStatus.ACTIVE, then=Value(_RUNNING)),
                When(status=GameStatus.INVITED, then=Value(_INVITED)),
                default=Value(_ENDED),
                output_field=IntegerField(),
            ),
        )
        .order_by("-waiting_for_me", "group", F("deadline").asc(nulls_last=True), "-created_at")
    )
    return list(games[:MY_GAMES_LIMIT])


def _shown_games(listed: list, *, every_ended: bool) -> tuple[list, int]:
    """The games My games shows of ``listed`` (``_my_games``' order), and how many ended
    games it leaves out: the newest ``ENDED_GAMES_SHOWN`` ended games unless
    ``every_ended``. Ended games come last, so the ones left out are the list's tail."""
    ended = sum(1 for game in listed if game.group == _ENDED)
    hidden = 0 if every_ended else max(0, ended - ENDED_GAMES_SHOWN)
    return listed[: len(listed) - hidden], hidden


def _row_links(game: Game) -> dict[str, str]:
    """A listed game's links, "" where the row shows none: its table, its replay (once a
    move was played), its rematch's table, or the form that asks for one (a finished or
    aborted game without a rematch). Made in the view: the template's ``{% url %}`` costs
    several times as much a link, and a list shows dozens (issue 36's goal for My games)."""
    # Played to an end (not cancelled, unlike the list's ``_ENDED`` group): what
    # ``do_rematch`` follows.
    played = game.status in (GameStatus.FINISHED, GameStatus.ABORTED)
    return {
        "url": reverse("games:game", args=[game.id]),
        "replay_url": reverse("games:replay", args=[game.id]) if game.version else "",
        "rematch_url": reverse("games:game", args=[game.rematch_id]) if game.rematch_id else "",
        "play_again_url": (
            reverse("games:rematch", args=[game.id]) if played and not game.rematch_id else ""
        ),
    }


def _deadline_line(game: Game, zone) -> str:
    """A running game's deadline as the list says it, in the reader's ``zone`` as the
    table and the emails say it; "" for a game without one (ended, paused, invited)."""
    if not (game.is_active and game.deadline):
        return ""
    return _("Deadline %(moment)s (in %(left)s).") % {
        "moment": describe.format_moment(game.deadline, zone),
        "left": timeuntil(game.deadline),
    }


def _status_line(game, names: describe.Names) -> str:
    """Where a game stands, as the list shows it to this player."""
    if game.status == GameStatus.ACTIVE:
        if game.current_seat == game.my_seat:
            return _("Your turn")
        # The person ("Carla's turn"), not the short label: the line goes on to say a bot
        # is about to move when one is.
        return _("%(name)s's turn") % {"name": names.person(game.current_seat)}
    if game.status == GameStatus.INVITED:
        if game.my_accepted_at is None:
            return _("You are invited: accept or decline")
        return _("Waiting for the others to accept")
    if game.status == GameStatus.FINISHED:
        winners = [names.subject(seat) for seat in (game.result or {}).get("winners", [])]
        if game.my_seat in (game.result or {}).get("winners", []):
            return _("Finished: you won")
        return _("Finished: won by %(names)s") % {"names": ", ".join(winners)}
    if game.status == GameStatus.CANCELLED:
        return _("Cancelled")
    return _("Aborted")


def _answer_invitation(request: AuthenticatedHttpRequest) -> HttpResponse:
    """POST from the list: accept or decline one of the user's invitations, then back."""
    decision = request.POST.get("decision")
    try:
        game_id = forms.UUIDField().clean(request.POST.get("game"))
        if decision == "accept":
            actions.do_accept_invitation(game_id, request.user)
            messages.success(request, _("You accepted the invitation."))
        elif decision == "decline":
            actions.do_decline_invitation(game_id, request.user)
            messages.success(request, _("You declined the invitation; the game is cancelled."))
        else:
            messages.error(request, _("Choose accept or decline."))
    except forms.ValidationError:
        messages.error(request, _("No such game, or you are not a player of it."))
    except actions.ServiceError as refused:
        messages.error(request, refused.detail)
    return redirect("games:my-games")


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def my_games(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The signed-in player's games (those waiting for them first) and the create form.

    POST creates a game (``form=create``) or answers an invitation (``form=answer``);
    a refused creation shows the form again with the action's reason and changes nothing.
    """
    if request.method == "POST" and request.POST.get("form") == "answer":
        return _answer_invitation(request)
    listed = _my_games(request.user)
    # Unless the list was cut off, it holds every game of the reader with its seats and
    # people: the partners and groups the form suggests are found there, not read again.
    every_game = listed if len(listed) < MY_GAMES_LIMIT else None
    partners = players.partners_of(request.user, games=every_game)
    groups = players.recent_groups(request.user, games=every_game)
    form = CreateGameForm(
        initial={
            "game": kinds()[0],
            "player_1": request.user.email,
            "turn_hours": 72,
            **_group_initial(request, groups),
        }
    )
    challenged = _challenged(request.GET.get("challenge"), request.user)
    if challenged is not None:
        form.initial["challenge"] = challenged.public_id
    status = 200
    if request.method == "POST":
        data, too_many = _with_partners(request.POST, partners)
        form = CreateGameForm(data)
        challenged = _challenged(request.POST.get("challenge"), request.user)
        if too_many is not None:
            form.is_valid()
            form.add_error(None, too_many)
        elif form.is_valid():
            try:
                game = actions.do_create_game(
                    request.user,
                    form.players(),
                    game=form.cleaned_data["game"],
                    turn_hours=form.cleaned_data["turn_hours"],
                    blind=form.cleaned_data["blind"],
                    stand_in_bots=form.cleaned_data["stand_in_bots"],
                    rated=False if form.cleaned_data["unrated"] else None,
                    clock=form.clock_request(),
                    client_seed=form.cleaned_data["client_seed"] or None,
                    public=form.cleaned_data["public"],
                )
            except actions.ServiceError as refused:
                form.add_error(None, refused.detail)
            else:
                messages.success(request, _created_message(game))
                return redirect("games:game", game_id=game.id)
        status = 400
    zone = settings_for(request.user).zone
    # The same few people sit at many of the listed games: each link is made once.
    link_to = functools.cache(players.player_link)
    shown, ended_hidden = _shown_games(listed, every_ended=request.GET.get("ended") == "all")
    rows = []
    for game in shown:
        seats = sorted(game.seats.all(), key=lambda s: s.seat)
        public_names = [s.public_name for s in seats]
        names = describe.Names(
            public_names,
            game.my_seat,
            [seat_names.person_name(s) for s in seats],
        )
        rows.append(
            {
                "game": game,
                **_row_links(game),
                # Resigned players whose names do not say so already (a bot plays a
                # resigned seat on, P26).
                "resigned": [
                    s.user.public_name for s in seats if s.resigned and not s.bot and s.user
                ],
                # The row's sentences are made here, not by {% blocktranslate %} in the
                # loop: a few times cheaper each, the same words (issue 36's goal).
                "title": _("%(game)s with %(players)s")
                % {"game": game.rules.NAME, "players": ", ".join(public_names)},
                # The other people at it, each a link to their player page (player_link: a
                # deleted account's name is no link), made once a page for each person.
                "people": [
                    link_to(s.user)
                    for s in seats
                    if s.user is not None and s.user_id != request.user.pk
                ],
                "status": _status_line(game, names),
                "waiting_for_me": bool(game.waiting_for_me),
                # A bot's turn has a deadline minutes away (games.bots.bot_deadline) that
                # means nothing to a reader: the list says the bot is about to move.
                "bot_to_move": game.is_active
                and any(s.seat == game.current_seat and s.bot for s in seats),
                "deadline": _deadline_line(game, zone),
                # Slow games with the same people run side by side: the day tells them apart.
                "created": _("created %(day)s")
                % {"day": describe.format_moment(game.created_at, zone)},
                "answer": game.status == GameStatus.INVITED and game.my_accepted_at is None,
            }
        )
    offered = games_offered()
    context = {
        "rows": rows,
        "ended_hidden": ended_hidden,
        "form": form,
        "games_offered": offered,
        "partners": partners,
        "groups": groups,
        "challenged": challenged,
    }
    return render(request, "games/my_games.html", context, status=status)


@never_cache
@require_http_methods(["GET", "HEAD"])
def replay(request: HttpRequest, game_id) -> HttpResponse:
    """Step through a game's public move log: the table after move ``?step=n``.

    Built from ``public_log`` for the reader's seat and the reader's own table view
    only (``games.replay``), never from the secret state, so it shows what was public
    at that moment (in a blind game still running, less). The last step is the table
    as the reader sees it now; for a finished game it comes with the scoring explained.
    404 for outsiders, as the game page (a sign-in first for anonymous visitors); anyone
    may replay a public game once it has ended, and is sent to its table while it runs.
    """
    try:
        viewing = watching.get_viewing(request.user, game_id)
    except actions.ServiceError:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise Http404("No such game, or you are not a player of it.") from None
    game, seat = viewing.game, viewing.seat
    if viewing.watcher and game.is_active:
        # A watcher follows a running game at its table, which tells each move as it comes.
        return redirect("games:game", game_id=game.id)
    now = game.table_view(seat)
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    context = {"game": game, "seats": seats}
    if now is None:
        return render(request, "games/replay_base.html", {**context, "frame": None})
    context["zone"] = (
        settings_for(request.user).zone.key if request.user.is_authenticated else "UTC"
    )
    moves = moves_at_version(game)
    replay = ReplayRequest(
        game=game,
        seat=seat,
        moves=moves,
        entries=log_to_describe(game, seat, moves),
        now=now,
        names=describe.Names(
            [s.public_name for s in seats], seat, [seat_names.person_name(s) for s in seats]
        ),
        step_param=request.GET.get("step"),
    )
    spec = spec_for(game.game)
    if spec.replay_page is None:  # the fallback: the moves in words (games.replay)
        context.update(any_game_page(replay, describe.words_for(game.game)))
        return render(request, "games/any_game/replay.html", context)
    context.update(spec.replay_page(replay))
    return render(request, spec.replay_template, context)
