"""``{% player_link person %}``: a person's public name, linked to their player page
(``games.players.player_link``; a deleted account's name is plain text)."""

from django import template

from games import players

register = template.Library()
register.simple_tag(players.player_link, name="player_link")
