"""Players as others see them: found by page address or name, their record, their partners.

Read-only queries for the player page (``games.views.players``), its report form
(``moderation.views``) and the create form's suggestions (``games.views.lobby``). Nothing
here returns an address except ``partners_of``, and that only the addresses of people who
sat at a started game with the one asking.
"""

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Exists, Max, OuterRef, Q
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts.models import User
from games.catalogue import kinds, rules_for
from games.models import Actor, Game, GameStatus, Move, Seat

# Games that got past their invitations: everyone at them accepted to play together. A
# declined or expired invitation never makes its people partners (nor shows an address).
_STARTED = (GameStatus.ACTIVE, GameStatus.FINISHED, GameStatus.ABORTED)
# The newest started games ``recent_groups`` looks through for groups.
RECENT_GAMES = 50


def player_link(person: User | None) -> SafeString:
    """``person``'s public name as a link to ``/people/<public id>/``; only the name (never
    a link) once they deleted their account; nothing for no person.

    Every page that names people links them through here (``{% player_link %}`` in the
    templates), so every link uses the address that stays theirs (``User.public_id``)."""
    if person is None:
        return format_html("")
    if person.erased_at is not None:
        return format_html("{}", person.public_name)
    url = reverse("games:player", args=[person.public_id])
    return format_html('<a href="{}">{}</a>', url, person.public_name)


def player_named(name: str) -> User | None:
    """The living person the site shows as ``name``, or None (``User.objects.named``:
    a chosen or derived name in any case or look-alike form; one person at most, as no
    two living people are shown by names that read alike). Never by address."""
    return User.objects.named(name)


def player_with_page(public_id: str) -> User | None:
    """The person whose page address is ``public_id`` (``User.public_id``), erased or
    not, or None."""
    return User.objects.filter(public_id=public_id).first()


@dataclass
class GameRecord:
    """A person's finished games and wins in one game kind."""

    kind: str
    name: str
    finished: int = 0
    won: int = 0


@dataclass
class PlayerRecord:
    """What the player page shows: finished games and wins per game kind, and how often
    the deadline played for them (``timed_out`` of ``turns`` moves they owed)."""

    games: list[GameRecord] = field(default_factory=list)
    turns: int = 0
    timed_out: int = 0

    @property
    def finished(self) -> int:
        return sum(record.finished for record in self.games)

    @property
    def won(self) -> int:
        return sum(record.won for record in self.games)

    @property
    def timed_out_percent(self) -> int | None:
        """The share of their moves the deadline played, in whole percent; None before
        their first move."""
        if not self.turns:
            return None
        return round(100 * self.timed_out / self.turns)


def record_of(user: User) -> PlayerRecord:
    """``user``'s record, from public facts only (results, who moved and how).

    A win is a seat among a finished game's ``result["winners"]`` (a resigned seat never
    is, P26/R37). Their moves are the log rows of their seats that they played or that
    the deadline played for them (``Actor.SERVICE``, automatic); a bot standing in, a
    moderator forcing a move, count neither way. Three queries.
    """
    finished: Counter[str] = Counter()
    won: Counter[str] = Counter()
    rows = Seat.objects.filter(user=user, game__status=GameStatus.FINISHED).values_list(
        "game__game", "seat", "game__result"
    )
    for kind, seat, result in rows:
        finished[kind] += 1
        if seat in (result or {}).get("winners", []):
            won[kind] += 1
    known = kinds()
    order = known + sorted(set(finished) - set(known))
    games = [
        GameRecord(
            kind=kind,
            name=rules_for(kind).NAME if kind in known else kind,
            finished=finished[kind],
            won=won[kind],
        )
        for kind in order
        if finished[kind]
    ]
    theirs = Move.objects.filter(
        Exists(Seat.objects.filter(game=OuterRef("game"), seat=OuterRef("seat"), user=user)),
        Q(actor=Actor.PLAYER) | Q(actor=Actor.SERVICE, automatic=True),
    )
    turns = theirs.count()
    timed_out = theirs.filter(actor=Actor.SERVICE).count() if turns else 0
    return PlayerRecord(games=games, turns=turns, timed_out=timed_out)


def games_together(viewer: User, player: User, *, limit: int = 20) -> list[Game]:
    """The games both ``viewer`` and ``player`` hold a seat in, newest first (at most
    ``limit``): what the viewer may report the player about."""
    return list(
        Game.objects.filter(seats__user=viewer)
        .filter(seats__user=player)
        .defer("state")
        .order_by("-created_at")[:limit]
    )


@dataclass(frozen=True)
class Partner:
    """Someone ``viewer`` played with: their id, public name and address."""

    id: int
    name: str
    email: str


@dataclass(frozen=True)
class Group:
    """The people of one of the viewer's recent games, in its seat order (the viewer
    included, as the create form takes them), and that game."""

    game: Game
    emails: tuple[str, ...]
    names: tuple[str, ...]


def partners_of(viewer: User, *, limit: int = 30, games=None) -> list[Partner]:
    """The people ``viewer`` sat with at a started game (``_STARTED``), the most recent
    game first, at most ``limit``; never the viewer, never a bot's seat.

    ``games``: every game of the viewer, already read with its seats and users (My games'
    list when it is not cut off); the partners are then found in it instead of in a query.
    """
    if games is not None:
        return _partners_in(viewer, games, limit)
    together = Seat.objects.filter(user=viewer, game__status__in=_STARTED).values("game")
    people = (
        User.objects.filter(seats__game__in=together, erased_at__isnull=True)
        .exclude(pk=viewer.pk)
        .annotate(last_game=Max("seats__game__created_at"))
        .order_by("-last_game", "email")
    )
    return [Partner(id=p.id, name=p.public_name, email=p.email) for p in people[:limit]]


def _partners_in(viewer: User, games, limit: int) -> list[Partner]:
    """``partners_of`` over ``games`` (with their seats and users) instead of a query."""
    last_game: dict[int, tuple] = {}
    for game in games:
        if game.status not in _STARTED:
            continue
        for seat in game.seats.all():
            person = seat.user
            if person is None or person.pk == viewer.pk or person.erased_at is not None:
                continue
            if person.pk not in last_game or game.created_at > last_game[person.pk][0]:
                last_game[person.pk] = (game.created_at, person)
    # As the query orders them: the latest game first, then by address.
    people = sorted(last_game.values(), key=lambda found: found[1].email)
    people.sort(key=lambda found: found[0], reverse=True)
    return [Partner(id=p.id, name=p.public_name, email=p.email) for _, p in people[:limit]]


def recent_groups(viewer: User, *, limit: int = 3, games=None) -> list[Group]:
    """The viewer's last ``limit`` distinct groups of people (bots left out) from started
    games with at least one other person, newest first: "play again with them".

    ``games``: every game of the viewer with its seats and users, as ``partners_of``
    takes it; the groups are then found in it instead of in a query."""
    if games is None:
        games = (
            Game.objects.filter(seats__user=viewer, status__in=_STARTED)
            .defer("state")
            .prefetch_related("seats__user")
            .order_by("-created_at")[:RECENT_GAMES]
        )
    else:
        started = (game for game in games if game.status in _STARTED)
        games = sorted(started, key=lambda game: game.created_at, reverse=True)[:RECENT_GAMES]
    groups: list[Group] = []
    seen: set[frozenset[str]] = set()
    for game in games:
        seats = sorted(game.seats.all(), key=lambda s: s.seat)
        # An erased account has no address to invite ("former player" cannot play again).
        people = [s.user for s in seats if s.user and s.user.erased_at is None]
        emails = tuple(person.email for person in people)
        if len(emails) < 2 or frozenset(emails) in seen:
            continue
        seen.add(frozenset(emails))
        groups.append(Group(game=game, emails=emails, names=tuple(p.public_name for p in people)))
        if len(groups) == limit:
            break
    return groups
