"""The docs hold together: every citation in the code resolves, every link leads somewhere.

Code cites a page and a heading (``docs/operating.md "Faults we test"``), a rule by its id
(``P24``, ``R35``: anchors of docs/rules/) or BENCHMARKS.md by section. When a heading is
renamed or a rule renumbered, these fail and name the stale citation.
"""

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULES = DOCS / "rules"
# Where rules are cited: the service's apps and the tests (bench/ and tools/ cite none).
RULE_CITING_DIRS = (
    "games",
    "accounts",
    "notifications",
    "mailin",
    "webhooks",
    "moderation",
    "piratz_site",
    "tests",
)
RULE_ID = re.compile(r"\b([PR])(\d{1,2})\b")
# docs/operating.md "Faults we test", BENCHMARKS.md ("Move path"), README "X"
SECTION_CITATION = re.compile(
    r"\b(README(?:\.md)?|BENCHMARKS(?:\.md)?|docs/[\w/-]+\.md)"
    r'[ \t]*[,(]?[ \t]*\n?[ \t#]*"([^"\n]+)"'
)
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
DEVELOPER_PATH = re.compile(r"(?<![\w.])/(?:work|root|home)/")
TEXT_SUFFIXES = {"", ".py", ".toml", ".cfg", ".txt", ".html", ".js", ".css", ".sh", ".json"}


@cache
def tracked_files() -> list[Path]:
    """The repository's files as git knows them (the working tree's copies)."""
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True
    ).stdout
    return [ROOT / name for name in out.split("\0") if name and (ROOT / name).is_file()]


def code_files() -> list[Path]:
    """Tracked text files other than the docs, the translations and this file (whose
    examples of citations are not citations)."""
    return [
        path
        for path in tracked_files()
        if path.suffix in TEXT_SUFFIXES
        and "locale" not in path.parts
        and path.suffix != ".md"
        and path != Path(__file__)
    ]


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", ROOT / "BENCHMARKS.md", *sorted(DOCS.rglob("*.md"))]


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


def cited_rule_ids() -> dict[str, list[str]]:
    """Rule id -> the files citing it, over the rule-citing packages' Python files."""
    cited: dict[str, list[str]] = {}
    for path in tracked_files():
        relative = path.relative_to(ROOT)
        if path.suffix == ".py" and relative.parts[0] in RULE_CITING_DIRS:
            for letter, number in RULE_ID.findall(path.read_text()):
                cited.setdefault(f"{letter}{int(number)}", []).append(str(relative))
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


def test_every_section_citation_in_the_code_resolves():
    stale = []
    for path in code_files():
        for page, heading in SECTION_CITATION.findall(path.read_text()):
            where = f"{path.relative_to(ROOT)}: {page} {heading!r}"
            if page.startswith("README"):
                stale.append(f"{where} (README has no sections to cite: cite docs/)")
                continue
            target = ROOT / (page if page.endswith(".md") else f"{page}.md")
            if not target.is_file():
                stale.append(f"{where} (no such file)")
            elif heading not in headings(target):
                stale.append(f"{where} (no such heading)")
    assert stale == []


def test_the_citation_pattern_finds_citations():
    sample = '# see docs/operating.md "Faults we test" and BENCHMARKS.md ("Move path", rows)'
    assert SECTION_CITATION.findall(sample) == [
        ("docs/operating.md", "Faults we test"),
        ("BENCHMARKS.md", "Move path"),
    ]


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_anchor(path):
    broken = []
    for target in MARKDOWN_LINK.findall(path.read_text()):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        missing_anchor = bool(anchor) and linked.suffix == ".md" and anchor not in anchors(linked)
        if not linked.exists() or missing_anchor:
            broken.append(target)
    assert broken == []


def test_no_tracked_file_names_a_path_on_a_developers_machine():
    found = []
    for path in code_files():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if DEVELOPER_PATH.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
