"""Receivers of ``games.events``: each writes the game's webhook deliveries in its transaction."""

from . import delivery, payloads


def queue_move(sender, game, move, **kwargs):
    delivery.queue_event(game, payloads.MOVE_APPLIED, move)


def queue_end(sender, game, **kwargs):
    delivery.queue_event(game, payloads.GAME_ENDED)
