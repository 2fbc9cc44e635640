"""The documentation is real: its examples replay and run, its links lead somewhere,
its pages stay short, its measurements say how and when, and every public name of
the API reference has a docstring to show."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dicehall.core.transcript import check_schema, replay
from dicehall.games import game_ids

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
RESULTS = ROOT / "benchmarks" / "results"
TRANSCRIPTS = DOCS / "reference" / "transcripts.md"
EXAMPLE = re.compile(r"^### (\w+)\n.*?```json\n(.*?)```", re.S | re.M)
PYTHON = re.compile(r"```python\n(.*?)```", re.S)
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
LONGEST = 400
"""Lines a page may have: past it, a reader's material becomes a folder of pages."""


def examples() -> dict[str, dict[str, object]]:
    return {gid: json.loads(body) for gid, body in EXAMPLE.findall(TRANSCRIPTS.read_text())}


@pytest.mark.parametrize("gid", game_ids())
def test_every_game_has_a_replayable_example(gid: str) -> None:
    data = examples().get(gid)
    assert data is not None, f"{TRANSCRIPTS.relative_to(ROOT)} has no example for {gid}"
    assert data["game"] == gid
    check_schema(data)
    state = replay(data)
    assert state.is_over()
    assert state.result().to_json() == data["result"]


JSON = re.compile(r"```json\n(.*?)```", re.S)


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def transcript_blocks() -> list[tuple[str, int, dict[str, Any]]]:
    """Every JSON block of the docs and the README that is a transcript (it has steps)."""
    found = []
    for md in [*pages(), ROOT / "README.md"]:
        for i, body in enumerate(JSON.findall(md.read_text())):
            if '"steps"' not in body:
                continue  # a message or a report, some shown with "…" for brevity
            data = json.loads(body)
            if isinstance(data, dict) and isinstance(data.get("steps"), list):
                found.append((str(md.relative_to(ROOT)), i, data))
    return found


@pytest.mark.parametrize(
    "where,data", [(f"{p}#{i}", d) for p, i, d in transcript_blocks()], ids=lambda x: str(x)[:60]
)
def test_every_transcript_in_the_docs_replays(where: str, data: dict[str, Any]) -> None:
    """Not only the one example per game: every transcript a page shows is valid, step by
    step, and where it gives a result the game ends with exactly that result."""
    check_schema(data)
    state = replay(data)
    if "result" in data:
        assert state.is_over(), where
        assert state.result().to_json() == data["result"], where


def test_no_page_is_longer_than_a_reader_reads() -> None:
    long = {
        str(page.relative_to(ROOT)): n
        for page in pages()
        if (n := len(page.read_text().splitlines())) > LONGEST
    }
    assert not long, f"pages over {LONGEST} lines (split them into a folder): {long}"


def markdown_files() -> list[Path]:
    return [*pages(), ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted(RESULTS.glob("*.md"))]


@pytest.mark.parametrize("md", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_to_files(md: Path) -> None:
    """The site's build checks its own pages' links; this covers the README,
    CONTRIBUTING.md and the measurement logs too, as a clone reads them."""
    text = FENCE.sub("", md.read_text())
    broken = []
    for target in LINK.findall(text):
        path = target.split("#")[0]
        if not path or "://" in path or path.startswith("mailto:"):
            continue
        if not (md.parent / path).exists():
            broken.append(target)
    assert not broken, f"{md.relative_to(ROOT)} links to missing files: {broken}"


@pytest.mark.parametrize("page", ["bots.md", "researchers/batch.md"])
def test_python_examples_run(page: str) -> None:
    """The snippets of these pages run as printed (the environments' page has its own
    test, which skips the libraries that are not installed)."""
    snippets = PYTHON.findall((DOCS / page).read_text())
    assert snippets
    for snippet in snippets:
        exec(compile(snippet, str(DOCS / page), "exec"), {})


DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
COMMAND = re.compile(r"`(?:[^`]*\s)?(?:benchmarks/\w+\.py|dicehall \w+)")


@pytest.mark.parametrize(
    "log", [p for p in sorted(RESULTS.glob("*.md")) if p.name != "README.md"], ids=lambda p: p.name
)
def test_every_measurement_says_how_and_when(log: Path) -> None:
    """Each section of a results file names the date of its figures and the command
    that produced them, in the section or in the file's opening."""
    text = log.read_text()
    opening, *sections = re.split(r"^## ", text, flags=re.M)
    assert sections, f"{log.name} has no section"
    for section in sections:
        title = section.splitlines()[0]
        assert DATE.search(section) or DATE.search(opening), f"{log.name}, {title}: no date"
        assert COMMAND.search(section) or COMMAND.search(opening), (
            f"{log.name}, {title}: no command"
        )
    index = (RESULTS / "README.md").read_text()
    assert f"({log.name})" in index, f"benchmarks/results/README.md does not list {log.name}"


API = [
    "dicehall.core",
    "dicehall.games",
    "dicehall.rl.env",
    "dicehall.rl.pettingzoo",
    "dicehall.rl.gymnasium",
    "dicehall.rl.openspiel",
    "dicehall.strategy",
    "dicehall.strategy.tree",
    "dicehall.strategy.passes",
    "dicehall.strategy.cfr",
    "dicehall.strategy.strategy_file",
    "dicehall.strategy.duel",
    "dicehall.strategy.solver",
    "dicehall.strategy.progress",
    "dicehall.batch",
]
"""The modules of the site's Python API pages (docs/reference/api/)."""


def test_the_api_pages_show_every_module() -> None:
    shown = set(re.findall(r"^::: ([\w.]+)$", _api_pages(), re.M))
    assert shown == set(API)


def _api_pages() -> str:
    return "\n".join(p.read_text() for p in sorted((DOCS / "reference" / "api").glob("*.md")))


@cache
def _package() -> Any:
    """The source as griffe reads it for mkdocstrings: statically, importing nothing."""
    griffe = pytest.importorskip("griffe")
    return griffe.load(
        "dicehall", search_paths=[str(ROOT / "src")], resolve_aliases=True, resolve_external=False
    )


@pytest.mark.parametrize("module", API)
def test_every_public_name_of_the_api_has_a_docstring(module: str) -> None:
    """mkdocstrings renders a name without a docstring as a bare signature and the
    strict build does not mind, so this does: the module, and each name of its
    `__all__` (or, without one, each public function and class it defines)."""
    mod = _package()[module.removeprefix("dicehall.")]
    missing = [] if mod.docstring else [module]
    if mod.exports is not None:
        names = [str(name) for name in mod.exports]
    else:
        names = [
            name
            for name, member in mod.members.items()
            if not name.startswith("_")
            and not member.is_alias
            and (member.is_function or member.is_class)
        ]
    for name in names:
        member = mod[name]
        target = member.final_target if member.is_alias else member
        if not target.docstring:
            missing.append(f"{module}.{name}")
    assert not missing, f"no docstring: {missing}"
