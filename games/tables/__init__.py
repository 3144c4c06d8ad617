"""Per-game table modules, one per game name (``games.tables.<game>``): found by
``games.table.module_for``; each builds its table template's context and reads its move
forms."""
