"""Table talk: the players' messages at a game, and moderators hiding them (docs/api.md)."""
