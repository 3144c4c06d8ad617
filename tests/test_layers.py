"""The floors hold (docs/architecture.md "The floors"): import-linter's contracts pass, and
no import hides inside a function without saying why."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "accounts", "notifications", "moderation", "games", "mailin", "webhooks")
PACKAGES += ("talk", "calendars", "ratings", "leagues", "ops", "push")
PACKAGES += ("piratz_site",)
# The one marker a deferred import carries, on its line or the comment lines just above.
MARKER = "# deferred:"


def test_import_contracts_are_kept():
    """`lint-imports` (the contracts in pyproject.toml) exits 0: no import points up, the
    engine is pure, generic code names no game."""
    lint_imports = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def deferred_imports(source: str) -> list[int]:
    """Line numbers of the imports inside a function or class body of ``source``."""
    found = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)) and nested:
                found.append(child.lineno)
            scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
            visit(child, nested or isinstance(child, scopes))

    visit(ast.parse(source), False)
    return found


def says_why(lines: list[str], lineno: int) -> bool:
    """Does the import on ``lineno`` (1-based) carry the marker, on its line or in the
    comment block right above it or above the run of imports it belongs to?"""
    if MARKER in lines[lineno - 1]:
        return True
    above = lineno - 2
    while above >= 0 and lines[above].strip().startswith(("#", "from ", "import ")):
        if lines[above].strip().startswith(MARKER):
            return True
        above -= 1
    return False


def test_every_deferred_import_says_why():
    unexplained = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            source = path.read_text()
            lines = source.splitlines()
            unexplained += [
                f"{path.relative_to(ROOT)}:{lineno}: {lines[lineno - 1].strip()}"
                for lineno in deferred_imports(source)
                if not says_why(lines, lineno)
            ]
    assert unexplained == [], "imports inside functions without '# deferred: why':\n" + "\n".join(
        unexplained
    )


def test_the_deferred_import_finder_finds_them():
    source = (
        "import os\n\ndef f():\n    # deferred: a reason\n    import json\n    import re\n"
        "\n    import csv\n"
    )
    lines = source.splitlines()
    assert deferred_imports(source) == [5, 6, 8]
    assert [says_why(lines, n) for n in (5, 6, 8)] == [True, True, False]
