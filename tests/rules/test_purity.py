"""The engines (games/kinds/<kind>/rules/ and what they share, games/engine_protocol.py and
games/engine_common.py) are pure Python: no Django, services, clock, network or global
RNG (STYLE 1)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "games"
FORBIDDEN_MODULES = {
    "django",
    "celery",
    "redis",
    "requests",
    "psycopg",
    "psycopg2",
    "notifications",
    "time",
    "datetime",
    "socket",
    "urllib",
    "http",
    "asyncio",
}
FORBIDDEN_PREFIXES = (
    "games.models",
    "games.actions",
    "games.queries",
    "games.sweeps",
    "games.notify",
    "games.api",
    "games.tasks",
)
# random.Random(seed) instances are deterministic; the module-level functions share
# one hidden global generator and would make apply impure.
ALLOWED_RANDOM = {"random.Random"}


def _imported_modules(node):
    """Dotted names an import statement brings in (``from a import b`` gives a and a.b)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0:
        return [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return []  # not an import, or a relative one (inside an engine by construction)


def impurities(source, filename="<source>"):
    """Return a description of every forbidden import or global-RNG call in ``source``."""
    tree = ast.parse(source, filename)
    found = []
    random_names = {"random"}
    for node in ast.walk(tree):
        for module in _imported_modules(node):
            forbidden_random = module.startswith("random.") and module not in ALLOWED_RANDOM
            if (
                module.split(".")[0] in FORBIDDEN_MODULES
                or module.startswith(FORBIDDEN_PREFIXES)
                or forbidden_random
            ):
                found.append(f"{filename}:{node.lineno} imports {module}")
        if isinstance(node, ast.Import):
            random_names.update(a.asname for a in node.names if a.name == "random" and a.asname)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in random_names
            and f"random.{node.func.attr}" not in ALLOWED_RANDOM
        ):
            found.append(f"{filename}:{node.lineno} calls random.{node.func.attr}()")
    return found


def rules_files():
    shared = [GAMES_DIR / "engine_protocol.py", GAMES_DIR / "engine_common.py"]
    return sorted([*shared, *GAMES_DIR.glob("kinds/*/rules/**/*.py")])


def test_the_rules_package_has_python_files():
    names = {path.name for path in rules_files()}
    assert {"__init__.py", "engine.py", "view.py"} <= names


@pytest.mark.parametrize("path", rules_files(), ids=lambda path: str(path.relative_to(GAMES_DIR)))
def test_rules_module_is_pure(path):
    assert impurities(path.read_text("utf-8"), str(path)) == []


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "from django.db import models",
        "import time",
        "from datetime import datetime",
        "import urllib.request",
        "from games.models import Game",
        "from games import models",
        "import celery, os",
        "import random\nrandom.shuffle([])",
        "import random as r\nr.randint(1, 2)",
        "from random import shuffle",
        "from notifications.outbox import send",
    ],
)
def test_the_purity_check_catches_impure_code(source):
    assert impurities(source)


@pytest.mark.parametrize(
    "source",
    [
        "import random\nrng = random.Random(3)\nrng.shuffle([])",
        "from random import Random",
        "import hashlib, hmac, secrets",
        "from .engine import apply",
        "from games.kinds.piratz import rules",
        "timer = 3\ntimer.real",
    ],
)
def test_the_purity_check_allows_pure_code(source):
    assert impurities(source) == []


def test_importing_the_engine_needs_no_django_settings_and_loads_no_django():
    script = (
        "import sys\n"
        "from games.kinds.piratz import rules as piratz\n"
        "state = piratz.new_game(3, seed=1)\n"
        "state = piratz.apply(state, 0, {'action': 'reveal'})\n"
        "piratz.view(state, 0)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('django', 'celery', 'redis', 'psycopg', 'requests'))\n"
        "print(','.join(bad))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(ROOT)
    completed = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == ""
