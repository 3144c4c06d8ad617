"""Receivers of ``games.events`` and ``talk.events`` (each writes the game's webhook
deliveries in its transaction) and of the webhooks' own saves and deletes (each keeps the
game's ``has_webhooks`` in that transaction)."""

from games.models import Game

from . import delivery, payloads


def queue_move(sender, game, move, **kwargs):
    delivery.queue_event(game, payloads.MOVE_APPLIED, move)


def queue_end(sender, game, **kwargs):
    delivery.queue_event(game, payloads.GAME_ENDED)


def queue_clock(sender, game, event, **kwargs):
    # The host paused, resumed or extended (docs/api.md "Playing together"): "game_paused", ...
    delivery.queue_event(game, payloads.CLOCK_EVENTS[event])


def queue_message(sender, message, **kwargs):
    # The game as it is now: the caller's instance may be older (has_webhooks, the turn).
    game = Game.objects.get(pk=message.game_id)
    delivery.queue_event(game, payloads.MESSAGE, message=message)


def refresh_after_save(sender, instance, **kwargs):
    # Any save: added, enabled or disabled (a change of game would leave the old game's
    # flag set, which only costs its moves a query; nothing moves a webhook).
    delivery.refresh_has_webhooks(instance.game_id)


def lock_before_delete(sender, instance, **kwargs):
    # Before the webhook's rows are touched: the game row first, as a move takes it
    # (``delivery.lock_games``). Whoever deletes (the owner, or a cascade from their
    # account or the game) does so in the collector's transaction, which holds it.
    delivery.lock_games([instance.game_id])


def refresh_after_delete(sender, instance, **kwargs):
    delivery.refresh_has_webhooks(instance.game_id)
