"""Reading tournaments: who may see which, the lists, and a tournament's rounds and bracket
for its page and the API."""

from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import ServiceError
from tournaments import pairing as rules
from tournaments.models import (
    Entrant,
    Pairing,
    SignUp,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)


def visible_to(user: User) -> QuerySet[Tournament]:
    """The tournaments ``user`` may see: every open one; one by invitation for its
    organiser, those invited to it and staff."""
    found = Tournament.objects.select_related("organiser")
    if user.is_staff:
        return found
    return found.filter(
        Q(signup=SignUp.OPEN) | Q(organiser=user) | Q(entrants__user=user)
    ).distinct()


def visible_tournament(user: User, tournament_id) -> Tournament:
    """The tournament if ``user`` may see it (``visible_to``); else ``not_found``."""
    try:
        found = visible_to(user).filter(id=tournament_id).first()
    except ValidationError:
        found = None
    if found is None:
        raise ServiceError("not_found", _("No such tournament."))
    return found


def listed(user: User, status: str) -> QuerySet[Tournament]:
    """One section of the list: ``signup`` soonest start first, ``running`` and the others
    newest first."""
    found = visible_to(user).filter(status=status)
    if status == TournamentStatus.SIGNUP:
        return found.order_by("starts_at", "created_at")
    return found.order_by("-starts_at", "-created_at")


def entrant_of(tournament: Tournament, user: User) -> Entrant | None:
    if not user.is_authenticated:
        return None
    return Entrant.objects.filter(tournament=tournament, user=user).first()


def signed_up(tournament: Tournament) -> list[Entrant]:
    """Who has signed up and not withdrawn, in order of sign-up (seed order once it runs)."""
    return list(
        Entrant.objects.filter(
            tournament=tournament, signed_up_at__isnull=False, withdrawn_at=None
        ).select_related("user")
    )


def _pairing_row(row: Pairing) -> dict:
    second = row.second
    return {
        "board": row.board,
        "first": row.first,
        "second": second,
        "first_name": str(row.first.user.public_name),
        "second_name": None if second is None else str(second.user.public_name),
        "first_seed": row.first.seed,
        "second_seed": None if second is None else second.seed,
        "bye": second is None,
        "game_id": row.game_id,
        "game_status": row.game.status if row.game is not None else "",
        "result": row.result,
        "result_display": row.get_result_display(),
        "decided_by": row.decided_by,
        "first_points": row.first_points(),
        "second_points": row.second_points(),
        "advances": row.advances_id,
    }


def rounds_of(tournament: Tournament) -> list[dict]:
    """Each round played or under way, first first: ``number``, ``deadline``, ``ended_at``,
    ``pairings`` (one dict per pairing: ``_pairing_row``)."""
    rows = Pairing.objects.filter(round__tournament=tournament).select_related(
        "round", "first__user", "second__user", "game"
    )
    rounds: dict[int, dict] = {}
    for row in rows:
        entry = rounds.setdefault(
            row.round.number,
            {
                "number": row.round.number,
                "deadline": row.round.deadline,
                "ended_at": row.round.ended_at,
                "pairings": [],
            },
        )
        entry["pairings"].append(_pairing_row(row))
    return [rounds[number] for number in sorted(rounds)]


def bracket(tournament: Tournament) -> list[dict]:
    """An elimination's bracket, every round of it (those not paired yet too): each
    ``number`` and ``matches``, one per place of the round in bracket order, each the
    pairing's row or None (not yet known, or nobody plays there)."""
    if tournament.format != TournamentFormat.ELIMINATION or tournament.status in (
        TournamentStatus.SIGNUP,
        TournamentStatus.CANCELLED,
    ):
        return []
    seeded = Entrant.objects.filter(tournament=tournament, seed__isnull=False).count()
    if seeded < 2:
        return []
    played = {entry["number"]: entry for entry in rounds_of(tournament)}
    size = rules.bracket_size(seeded)
    out = []
    for number in range(1, rules.rounds_of_bracket(seeded) + 1):
        places = size // 2**number
        boards = {row["board"]: row for row in played.get(number, {}).get("pairings", [])}
        out.append(
            {
                "number": number,
                "final": places == 1,
                "matches": [boards.get(board) for board in range(1, places + 1)],
            }
        )
    return out
