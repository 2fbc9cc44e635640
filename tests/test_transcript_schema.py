"""The transcript JSON Schema: it is valid, shipped, met by every example and every
transcript the project writes, and its errors name the JSON path."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from dicehall.cli import app
from dicehall.core.errors import TranscriptError
from dicehall.core.transcript import check_schema, schema
from dicehall.games import game_ids
from tests.sealed_play import sealed_game

DOCS = Path(__file__).parent.parent / "docs"
JSON_BLOCK = re.compile(r"```json\n(.*?)```", re.S)


def doc_transcripts() -> dict[str, Any]:
    """Every transcript in docs/: JSON blocks of the Markdown that name a game and
    list steps (not a verify report, which counts them), and docs/examples/."""
    found: dict[str, Any] = {}
    for md in sorted(DOCS.glob("*.md")):
        for n, block in enumerate(JSON_BLOCK.findall(md.read_text())):
            try:
                data = json.loads(block)
            except json.JSONDecodeError:
                continue  # several objects, one a line: not a transcript
            if isinstance(data, dict) and "game" in data and isinstance(data.get("steps"), list):
                found[f"{md.name}#{n}"] = data
    for example in sorted((DOCS / "examples").glob("*.json")):
        found[f"examples/{example.name}"] = json.loads(example.read_text())
    return found


def test_the_schema_is_valid_and_docs_show_the_shipped_file() -> None:
    Draft202012Validator.check_schema(schema())
    assert json.loads((DOCS / "transcript.schema.json").read_text()) == schema()


def test_docs_hold_an_example_of_every_game() -> None:
    games = {t["game"] for t in doc_transcripts().values()}
    assert set(game_ids()) <= games


@pytest.mark.parametrize("where", sorted(doc_transcripts()))
def test_every_docs_example_meets_the_schema(where: str) -> None:
    check_schema(doc_transcripts()[where])


def test_a_sealed_tables_transcript_meets_the_schema() -> None:
    data, _ = sealed_game("kariki", 4)
    assert data["fairness"] == "sealed" and data["openings"]
    assert any("entropy" in step for step in data["steps"])
    check_schema(data)


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DOCS / "examples" / "kariki.json").read_text())
    return data


@pytest.mark.parametrize(
    ("path", "change", "said"),
    [
        ("$.steps[2].seat", lambda d: d["steps"][2].update(seat="0"), "is not of type 'integer'"),
        ("$.seats", lambda d: d.update(seats="three"), "is not of type 'integer'"),
        ("$.steps[0].chance[0]", lambda d: d["steps"][0].update(chance=[None]), "is not of type"),
        ("$.steps[2]", lambda d: d["steps"][2].pop("action"), "'action' is a required property"),
        ("$.result.net", lambda d: d["result"].update(net="all"), "is not of type 'array'"),
        ("$", lambda d: d.pop("steps"), "'steps' is a required property"),
    ],
)
def test_a_structural_error_names_its_json_path(path: str, change: Any, said: str) -> None:
    data = example()
    first = data["steps"][2]
    assert "seat" in first and "action" in first, "the example's third step is an action"
    change(data)
    with pytest.raises(TranscriptError) as caught:
        check_schema(data)
    assert str(caught.value).startswith(f"{path}: ")
    assert said in str(caught.value)


def test_replay_reports_a_wrong_type_with_its_json_path(tmp_path: Path) -> None:
    data = example()
    data["steps"][2]["seat"] = "0"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = CliRunner().invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2
    assert "$.steps[2].seat: '0' is not of type 'integer'" in result.output
    assert "Traceback" not in result.output
