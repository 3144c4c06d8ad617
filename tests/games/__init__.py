"""Tests of the games app outside the API: the simulate command and its statistics."""
