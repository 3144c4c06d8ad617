"""API tests use the people of tests/conftest.py and the builders of tests/factories.py."""

from tests.factories import client_for, make_user, start_game

__all__ = ["client_for", "make_user", "start_game"]
