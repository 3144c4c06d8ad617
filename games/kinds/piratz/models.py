"""Piratz's own records beside the generic game, seats and move log (``games.models``)."""

from django.db import models


class BuriedCard(models.Model):
    """A card a player buried under their spade (rules P13), one row per burial.

    Written by ``record_burial`` (the spec's ``after_move``) in the move's transaction.
    Its table is still ``games_buriedcard``: the model moved here from ``games`` without
    moving data (migrations ``games.0014`` and ``piratz.0001``)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="burials")
    move = models.OneToOneField("games.Move", on_delete=models.CASCADE, related_name="burial")
    round = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    card = models.PositiveSmallIntegerField(help_text="The card's id in the deck.")

    class Meta:
        db_table = "games_buriedcard"
        ordering = ["game_id", "id"]

    def __str__(self) -> str:
        return f"card {self.card} buried by seat {self.seat} in round {self.round}"


def record_burial(game, move, effects: dict) -> None:
    """``GameSpec.after_move``: a move that buried a card (``effects["buried"]``) gets its
    row, in the round the move was played."""
    if effects["buried"] is not None:
        BuriedCard.objects.create(
            game=game, move=move, round=move.round, seat=move.seat, card=effects["buried"]
        )
