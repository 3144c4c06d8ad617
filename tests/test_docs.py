"""The docs hold together: every citation in the code resolves, every link leads somewhere.

Code cites a page and a heading (``docs/operating.md "Faults we test"``), a rule by its id
(``P24``, ``R35``: anchors of docs/rules/), a file by its path from the repository's root
(``games/catalogue.py``) or BENCHMARKS.md by section. The API contract is stated in the
repository, in docs/api.md, and cited there, never in a file outside the repository. When
a heading is renamed, a rule renumbered or a file moved, these fail and name the stale
citation.
"""

import re
import subprocess
import tomllib
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULES = DOCS / "rules"
RULE_ID = re.compile(r"\b([PR])(\d{1,3})\b")
# docs/operating.md "Faults we test", BENCHMARKS.md ("Move path"), README "X"
SECTION_CITATION = re.compile(
    r"\b(README(?:\.md)?|BENCHMARKS(?:\.md)?|docs/[\w/-]+\.md)"
    r'[ \t]*[,(]?[ \t]*\n?[ \t#]*"([^"\n]+)"'
)
# docs/api.md#the-engines-entry-points, where code cites a section without quotes.
ANCHOR_CITATION = re.compile(r"(?<![\w./-])(docs/[\w/-]+\.md)#([\w-]+)")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
DEVELOPER_PATH = re.compile(r"(?<![\w./-])/(?:work|root|home)/")
# A Markdown file named in capitals (README.md, BENCHMARKS.md): it must be in the root.
ROOT_PAGE = re.compile(r"(?<![\w./-])([A-Z][A-Z0-9_-]*\.md)\b")
# The contract was a file outside the repository (CONTRACT.md, "CONTRACT section 2"); it is
# stated and cited in docs/api.md now, so the word in capitals names nothing here.
OUTSIDE_CONTRACT = re.compile(r"\bCONTRACT\b")
TEXT_SUFFIXES = {"", ".py", ".toml", ".cfg", ".txt", ".html", ".js", ".css", ".sh", ".json"}


@cache
def repository_files() -> tuple[Path, ...]:
    """The repository's files as git sees them: tracked, and new ones not ignored (the
    working tree's copies)."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    names = sorted({name for name in out.split("\0") if name})
    return tuple(ROOT / name for name in names if (ROOT / name).is_file())


def code_files() -> list[Path]:
    """Text files other than the docs, the translations, npm's lockfile (bench/peer/: the
    paths it names are inside the packages it pins) and this file (whose examples of
    citations are not citations)."""
    return [
        path
        for path in repository_files()
        if path.suffix in TEXT_SUFFIXES
        and "locale" not in path.parts
        and path.name != "package-lock.json"
        and path != Path(__file__)
    ]


def markdown_files() -> list[Path]:
    return [path for path in repository_files() if path.suffix == ".md"]


def text_files() -> list[Path]:
    return code_files() + markdown_files()


def where(path: Path) -> str:
    return str(path.relative_to(ROOT))


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def headings(path: Path) -> tuple[str, ...]:
    """The headings of a Markdown file, outside fenced code blocks."""
    found, fenced = [], False
    for line in path.read_text().splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.append(line.lstrip("#").strip())
    return tuple(found)


@cache
def anchors(path: Path) -> frozenset[str]:
    """Every anchor a link into ``path`` may name: the headings' and explicit ids."""
    slugs, seen = set(), {}
    for heading in headings(path):
        slug = github_slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        slugs.add(slug if count == 0 else f"{slug}-{count}")
    slugs.update(re.findall(r'<a id="([^"]+)"', path.read_text()))
    return frozenset(slugs)


# --- Rules by their ids ----------------------------------------------------------------


def cited_rule_ids() -> dict[str, list[str]]:
    """Rule id -> the files citing it, over the code and the docs."""
    cited: dict[str, list[str]] = {}
    for path in text_files():
        for letter, number in RULE_ID.findall(path.read_text()):
            cited.setdefault(f"{letter}{int(number)}", []).append(where(path))
    return cited


def test_every_cited_rule_id_has_an_anchor_in_the_rules():
    defined = anchors(RULES / "piratz.md") | anchors(RULES / "rattenscharf.md")
    cited = cited_rule_ids()
    assert len(cited) > 50, "the rule-id scan found almost nothing: is the pattern broken?"
    missing = {rule: sorted(set(files))[:3] for rule, files in cited.items() if rule not in defined}
    assert missing == {}


def test_the_rules_define_every_id_from_first_to_last():
    defined = anchors(RULES / "piratz.md") | anchors(RULES / "rattenscharf.md")
    expected = {f"P{n}" for n in range(1, 27)} | {f"R{n}" for n in range(1, 38)}
    assert expected <= defined


# --- Sections by their headings ----------------------------------------------------------


def stale_section_citations(path: Path, text: str) -> list[str]:
    stale = []
    for page, heading in SECTION_CITATION.findall(text):
        at = f"{where(path)}: {page} {heading!r}"
        if page.startswith("README"):
            stale.append(f"{at} (README has no sections to cite: cite docs/)")
            continue
        target = ROOT / (page if page.endswith(".md") else f"{page}.md")
        if not target.is_file():
            stale.append(f"{at} (no such file)")
        elif heading not in headings(target):
            stale.append(f"{at} (no such heading)")
    for page, anchor in ANCHOR_CITATION.findall(text):
        target = ROOT / page
        if not target.is_file():
            stale.append(f"{where(path)}: {page}#{anchor} (no such file)")
        elif anchor not in anchors(target):
            stale.append(f"{where(path)}: {page}#{anchor} (no such anchor)")
    return stale


def test_every_section_citation_resolves():
    stale = []
    for path in text_files():
        stale += stale_section_citations(path, path.read_text())
    assert stale == []


def test_the_citation_patterns_find_citations():
    sample = (
        '# see docs/operating.md "Faults we test" and BENCHMARKS.md ("Move path", rows),\n'
        "# docs/api.md#errors and (docs/api.md#the-engines-entry-points)."
    )
    assert SECTION_CITATION.findall(sample) == [
        ("docs/operating.md", "Faults we test"),
        ("BENCHMARKS.md", "Move path"),
    ]
    assert ANCHOR_CITATION.findall(sample) == [
        ("docs/api.md", "errors"),
        ("docs/api.md", "the-engines-entry-points"),
    ]


def test_a_stale_section_citation_is_reported():
    here = Path(__file__)
    sample = '# docs/api.md "No such heading", docs/nowhere.md "X", docs/api.md#nope'
    assert [line.split(": ", 1)[1] for line in stale_section_citations(here, sample)] == [
        "docs/api.md 'No such heading' (no such heading)",
        "docs/nowhere.md 'X' (no such file)",
        "docs/api.md#nope (no such anchor)",
    ]


# --- Links in the docs -------------------------------------------------------------------


def broken_links(path: Path, text: str) -> list[str]:
    broken = []
    for target in MARKDOWN_LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        missing_anchor = bool(anchor) and linked.suffix == ".md" and anchor not in anchors(linked)
        if not linked.exists() or missing_anchor:
            broken.append(target)
    return broken


@pytest.mark.parametrize("path", markdown_files(), ids=where)
def test_every_relative_link_leads_to_a_file_and_anchor(path):
    assert broken_links(path, path.read_text()) == []


def test_a_link_to_a_missing_anchor_is_broken():
    page = DOCS / "api.md"
    sample = "[ok](#errors) [gone](#no-such-section) [rules](rules/piratz.md#P99) [x](nope.md)"
    assert broken_links(page, sample) == ["#no-such-section", "rules/piratz.md#P99", "nope.md"]


# --- Files by their paths ----------------------------------------------------------------


@cache
def path_citation() -> re.Pattern:
    """A path from the repository's root: a top-level folder, then names, ending in a file
    name with a suffix or in "/" (a folder). Paths with placeholders (``games/kinds/<kind>/``,
    ``/api/games/{id}/``) and URL paths (a leading "/") are not citations of a file."""
    top = sorted({path.relative_to(ROOT).parts[0] for path in repository_files()} - {".git"})
    folders = [name for name in top if (ROOT / name).is_dir()]
    return re.compile(
        r"(?<![\w./<>{}*@:-])((?:" + "|".join(map(re.escape, folders)) + r")/[\w./-]*[\w/])"
        r"(?![\w<>{}*])"
    )


@cache
def template_and_static_roots() -> tuple[Path, ...]:
    """Where a template's or a static file's name is looked up (code names them so:
    ``games/game.html`` is ``templates/games/game.html``)."""
    return (
        ROOT,
        ROOT / "templates",
        ROOT / "static",
        *sorted(ROOT.glob("*/templates")),
        *sorted(ROOT.glob("*/static")),
        # Each game is an app of its own under games/kinds/.
        *sorted(ROOT.glob("games/kinds/*/templates")),
        *sorted(ROOT.glob("games/kinds/*/static")),
    )


def missing_paths(path: Path, text: str) -> list[str]:
    """The repository paths ``text`` names that do not exist. In code only file names
    count (a string like ``"games/7/"`` is a URL); in Markdown folders do too."""
    missing = []
    for cited in path_citation().findall(text):
        name = cited.rstrip("/").rsplit("/", 1)[-1]
        if cited.endswith("/"):
            if path.suffix != ".md":
                continue
        elif "." not in name.strip("."):
            continue
        if not any((root / cited).exists() for root in template_and_static_roots()):
            missing.append(cited)
    for page in ROOT_PAGE.findall(text):
        if not (ROOT / page).exists() and not (path.parent / page).exists():
            missing.append(page)
    return missing


def test_every_cited_file_exists():
    missing = []
    for path in text_files():
        missing += [f"{where(path)}: {cited}" for cited in missing_paths(path, path.read_text())]
    assert missing == []


def test_a_citation_of_a_missing_file_is_reported():
    page = DOCS / "architecture.md"
    sample = (
        "`games/errors.py` and games/kinds/piratz/rules/view.py; docs/gone.md, `ops/` and `nope/`;"
        " `games/kinds/<kind>/words.py`, /api/games/{id}/, /games/7/; CONTRACT.md and README.md."
    )
    assert missing_paths(page, sample) == ["games/errors.py", "docs/gone.md", "CONTRACT.md"]
    # In code, a folder-like string is a URL as often as a folder.
    assert missing_paths(ROOT / "games" / "urls.py", "'games/nowhere/'") == []


def test_nothing_cites_the_contract_outside_the_repository():
    """The contract is stated in docs/api.md ("The contract" and the sections it names);
    code and docs cite those sections, never the file kept outside the repository."""
    found = []
    for path in text_files():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if OUTSIDE_CONTRACT.search(line):
                found.append(f"{where(path)}:{number}: {line.strip()}")
    assert found == []


def test_the_contract_pattern_finds_outside_citations():
    for cited in ("CONTRACT.md", "CONTRACT section 2", "CONTRACT §3", "the CONTRACT's card"):
        assert OUTSIDE_CONTRACT.search(f"# as {cited} says"), cited
    for fine in ('docs/api.md "The contract"', "CONTRACT_VIEW_KEYS", "the contract"):
        assert not OUTSIDE_CONTRACT.search(fine), fine


def test_no_tracked_file_names_a_path_on_a_developers_machine():
    found = []
    for path in code_files():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if DEVELOPER_PATH.search(line):
                found.append(f"{where(path)}:{number}: {line.strip()}")
    assert found == []


# --- What the docs say of the tools -------------------------------------------------------


def test_mypy_checks_every_package():
    """docs/architecture.md says mypy checks every application package: the packages
    import-linter knows (every root package of the service) are mypy's ``files``."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = set(config["tool"]["importlinter"]["root_packages"])
    assert set(config["tool"]["mypy"]["files"]) == packages
    on_disk = {path.parent.name for path in ROOT.glob("*/apps.py")} | {"core", "piratz_site"}
    assert on_disk <= packages
