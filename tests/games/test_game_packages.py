"""A game is one folder: generic modules ask the catalogue (games.catalogue) and never
import a game's package or engine (docs/adding-a-game.md)."""

import ast
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Every game lives under one parent package (engine included): the parent names them all.
GAME_MODULES = ("games.kinds",)
# Where a game's own code lives, or code about one game by design: the games (each a
# Django app with its engine, template tags, models and admin), the engine benchmarks, and
# the tests.
ALLOWED = (
    "games/kinds/",
    "bench/",
    "tests/",
)
APPS = ("games", "mailin", "accounts", "notifications", "webhooks", "moderation", "core")


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def _is_game(name: str) -> bool:
    return any(name == game or name.startswith(game + ".") for game in GAME_MODULES)


def test_no_generic_module_imports_a_game():
    offenders = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative.startswith(ALLOWED):
                continue
            found = sorted(name for name in _imports(path) if _is_game(name))
            if found:
                offenders.append(f"{relative}: {', '.join(found)}")
    assert offenders == []


def test_the_game_packages_are_listed_in_one_place():
    from django.conf import settings

    from games import catalogue

    # The catalogue holds exactly the games the setting lists, whatever they are.
    kinds = sorted(import_module(path).SPEC.kind for path in settings.GAME_PACKAGES)
    assert catalogue.kinds() == kinds
