"""``manage.py`` commands for games: ``simulate``."""
