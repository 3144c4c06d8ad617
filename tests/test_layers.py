"""The floors hold (docs/architecture.md "The floors"): each app stands on one floor,
import-linter's contracts pass, and no import hides inside a function without saying why."""

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "audit", "accounts", "notifications", "moderation", "games", "mailin")
PACKAGES += ("webhooks", "talk", "calendars", "ratings", "leagues", "ops", "push")
PACKAGES += ("people", "lobby", "quickmatch", "tournaments")
PACKAGES += ("piratz_site",)
# The floors, lowest first: the apps of each, as docs/architecture.md lists them.
FLOORS = [
    {"core"},
    {"audit"},
    {"notifications"},
    {"accounts"},
    {"games"},
    {"people"},
    {"talk", "calendars", "ratings", "leagues"},
    {"lobby", "quickmatch", "tournaments"},
    {"webhooks", "mailin", "moderation", "push"},
    {"ops"},
    {"piratz_site"},
]


def floors_contract() -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    importlinter = config["tool"]["importlinter"]
    [contract] = [c for c in importlinter["contracts"] if c["id"] == "floors"]
    return {"root_packages": importlinter["root_packages"], **contract}


def test_each_app_stands_on_one_floor():
    """Every layer of the contract names whole apps, independent of each other ("|"),
    every package of the service stands on exactly one, and no import is ignored: "app A is
    below app B" holds of every module of both, their admin modules too."""
    contract = floors_contract()
    lowest_first = [set(re.split(r"\s*\|\s*", layer)) for layer in reversed(contract["layers"])]
    assert lowest_first == FLOORS
    assert all(":" not in layer for layer in contract["layers"])
    named = [app for floor in lowest_first for app in floor]
    assert sorted(named) == sorted(set(named)) == sorted(contract["root_packages"])
    assert set(PACKAGES) == set(named)
    assert "ignore_imports" not in contract


def test_the_architecture_page_lists_the_floors_of_the_contract():
    """docs/architecture.md "The floors" numbers the floors lowest first, each item led by
    its apps, as the contract has them."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("## The floors", 1)[1].split("\n## ", 1)[0]
    items = re.findall(r"^\d+\. `([^`]+)`", section, flags=re.MULTILINE)
    assert [set(re.split(r"\s*\|\s*", item)) for item in items] == FLOORS


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
