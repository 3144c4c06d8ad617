"""Open games and the lobby: seats anyone may take (docs/lobby.md)."""
