"""The game's JSON as the API answers it, built as a plain dict (no serializer per request).

Every move POST and game GET answers a game, so its JSON is built here by plain code, as
healthchecks' ``Check.to_dict()`` does: building and binding DRF fields for each answer
cost about as much again as the rest of a game GET. ``GameSerializer`` and
``SeatSerializer`` (``games.api.serializers``) describe the same shape for the schema;
``tests/api/test_game_representation.py`` holds the two equal, key for key and in order.
"""

from django.contrib.auth.models import AnonymousUser
from rest_framework import serializers

from accounts.models import User
from games import fairness, queries, seat_names
from games.chair import chair_seat
from games.clocks import clock_json
from games.models import Game, Seat

# Formats a datetime as DRF's DateTimeField does (ISO 8601 in the current time zone, UTC
# as "Z"), through its public to_representation: the schema documents that field.
_DATETIME = serializers.DateTimeField()


def datetime_json(value) -> str | None:
    """``value`` (an aware datetime, or None) as the API writes it."""
    return None if value is None else _DATETIME.to_representation(value)


def seat_bot_json(seat: Seat) -> dict | None:
    """The bot playing ``seat``, or None while its player plays."""
    if not seat.bot:
        return None
    return {"level": seat.bot, "standing_in": seat.user_id is not None}


def seat_vacation_until(seat: Seat) -> str | None:
    """The end of the seat's player's vacation running now, or None.

    Seats read through ``queries.SEATS_WITH_USERS`` carry it: no query per seat.
    """
    if hasattr(seat, "on_vacation_until"):
        until = seat.on_vacation_until
    elif seat.user_id is None:
        until = None  # a bot's own seat: nobody to be on vacation (the query finds none)
    else:
        until = queries.vacation_until(seat.user_id)
    return datetime_json(until)


def seat_json(seat: Seat) -> dict:
    """One seat as every player of the game may see it."""
    return {
        "seat": seat.seat,
        # docs/api.md fixes ``name``'s form (it says the bot's level); the short label the
        # pages show and the seat's role stand beside it.
        "name": seat_names.full_name(seat),
        "label": str(seat.public_name),
        "role": seat_names.seat_role(seat),
        "accepted": seat.accepted,
        "client_seed": fairness.public_client_seed(seat),
        "bot": seat_bot_json(seat),
        "on_vacation_until": seat_vacation_until(seat),
        "resigned": seat.resigned,
        "bank_seconds": seat.bank_seconds,
    }


def game_json(game: Game, viewer: User | AnonymousUser) -> dict:
    """``game`` as ``viewer`` may see it: ``state`` is the engine's view for their seat
    (for anyone without one, a spectator's: staff, or a watcher of a public game).

    Reads ``game.seats.all()`` (prefetch them, e.g. with ``queries.SEATS_WITH_USERS``).
    Hidden information is the engine's business: ``table_view`` strips what the viewer's
    seat may not see (and shows an aborted game as ended); null before the game starts.
    """
    seats = list(game.seats.all())
    # A person's own seat; never a bot's (no person), whatever an anonymous viewer's id says.
    you = next((s.seat for s in seats if s.user_id is not None and s.user_id == viewer.id), None)
    return {
        "id": str(game.id),
        "game": str(game.game),
        "status": str(game.status),
        "version": game.version,
        "seats": [seat_json(seat) for seat in seats],
        "you": you,
        "turn_hours": game.turn_hours,
        "clock": clock_json(game),
        "blind": game.blind,
        "stand_in_bots": game.stand_in_bots,
        "rated": game.rated,
        "public": game.public,
        "talk_public": game.talk_public,
        "deadline": datetime_json(game.deadline),
        "state": game.table_view(you),
        "created_at": datetime_json(game.created_at),
        "updated_at": datetime_json(game.updated_at),
        "end_reason": str(game.end_reason),
        "shuffle_commitment": game.seed_commitment or None,
        "server_seed": fairness.public_server_seed(game),
        "host": host_seat(game, seats),
        "paused": game.is_paused,
        "paused_until": datetime_json(game.paused_until),
        "rematch": None if game.rematch_id is None else str(game.rematch_id),
    }


def host_seat(game: Game, seats: list[Seat]) -> int | None:
    """The seat among ``game``'s ``seats`` that holds the host's chair (``games.chair``):
    the host's, or after the host left the game the next person's still in it; None
    when nobody holds it (or the host holds no seat)."""
    holder = chair_seat(game, seats)
    return None if holder is None else holder.seat
