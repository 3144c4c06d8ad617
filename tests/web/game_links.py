"""Game links for the web tests: the site's address, and the path of a game email's link.

A test module that opens game links imports ``site_url`` (an autouse fixture: the links
then start with ``SITE``) and ``entry_path``.
"""

import pytest

from games.notify import links

SITE = "http://127.0.0.1:8000"


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = SITE


def entry_path(game, user) -> str:
    """The path of ``user``'s game link to ``game``, as the client requests it."""
    return links.game_entry_url(game, user).removeprefix(SITE)
