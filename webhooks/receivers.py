"""Receivers of ``games.events`` (each writes the game's webhook deliveries in its
transaction) and of the webhooks' own saves."""

from . import delivery, payloads


def queue_move(sender, game, move, **kwargs):
    delivery.queue_event(game, payloads.MOVE_APPLIED, move)


def queue_end(sender, game, **kwargs):
    delivery.queue_event(game, payloads.GAME_ENDED)


def forget_no_webhooks(sender, instance, **kwargs):
    # Any save (added, or a change to an existing one): the game's moves must look again.
    delivery.forget_no_webhooks(instance.game_id)


def remember_new_game(sender, instance, created, **kwargs):
    if created:
        delivery.remember_no_webhooks(instance.id)
