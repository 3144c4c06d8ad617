"""The games, one Django app each: ``games.kinds.<kind>`` holds everything about one game
(its pure engine in ``rules/``, its spec, pages, templates, static files, template tags,
self-play, models and migrations). Generic code never imports a package of here; it asks
``games.catalogue`` (docs/adding-a-game.md)."""
