"""Webhooks: a player's chat channel or program told of every move and end of a game."""
