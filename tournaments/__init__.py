"""Tournaments: Swiss and single elimination on the leagues' machinery (docs/tournaments.md)."""
