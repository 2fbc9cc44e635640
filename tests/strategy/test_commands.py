"""`dicehall solve` and `dicehall exploitability`: their JSON, and clear refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.cli import app
from dicehall.strategy.strategy_file import load

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "kariki", "--seats", "3"], "solved for two seats"),
        (["exploitability", "kariki", "--seats", "3", "--bot", "nobody"], "unknown bot 'nobody'"),
        (
            [
                "exploitability",
                "kariki",
                "--seats",
                "3",
                "--bot",
                "random",
                "-o",
                "high_rollers=true",
            ],
            "emergency berries",
        ),
        (["solve", "kariki", "--iterations", "5", "--target", "0.1"], "not both"),
        (["exploitability", "kariki", "--bot", "nobody"], "unknown bot 'nobody'"),
        (["exploitability", "kariki", "--bot", "random", "-o", "pull=maybe"], "pull"),
        (["solve", "tao", "--seats", "4"], "solved for two seats"),
        (["exploitability", "tao", "--bot", "random", "-o", "length=round"], "length=single"),
        (["exploitability", "tao", "--bot", "nobody"], "unknown bot 'nobody'"),
    ],
)
def test_bad_input_is_refused_clearly(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DICEHALL_STRATEGIES", str(tmp_path))  # nothing solved
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output


@pytest.mark.slow
def test_solve_writes_a_strategy_and_prints_its_json(tmp_path: Path) -> None:
    out = tmp_path / "k.npz"
    args = ["solve", "kariki", "--iterations", "3", "--out", str(out), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"game", "iterations", "exploitability", "unit", "seconds"} <= set(data)
    assert data["iterations"] == 3 and data["unit"] == "win probability"
    assert 0 < data["exploitability"] < 0.5
    options = {"pull": "exact", "after_kariki": "roller", "high_rollers": False}
    assert load(out, "kariki", 2, options).meta["exploitability"] == data["exploitability"]


@pytest.mark.slow
def test_exploitability_of_the_random_bot() -> None:
    result = runner.invoke(app, ["exploitability", "kariki", "--bot", "random", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["bot"] == "random" and data["unit"] == "win probability"
    assert 0.4 < data["exploitability"] <= 0.5


def test_exploitability_at_three_seats_per_position() -> None:
    """One seat's best response against two random bots, one round and one throw a round."""
    args = ["exploitability", "kariki", "--seats", "3", "--bot", "random"]
    small = ["-o", "one_round=true", "-o", "throws=1"]
    result = runner.invoke(app, [*args, *small, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["seats"] == 3 and data["fair"] == pytest.approx(2 / 3)
    wins = [p["win"] for p in data["by_position"]]
    assert [p["after_first_roller"] for p in data["by_position"]] == [0, 1, 2]
    assert data["win"] == pytest.approx(sum(wins) / 3)
    assert data["gain"] == pytest.approx(data["win"] - 2 / 3) and data["gain"] > 0
    text = runner.invoke(app, [*args, *small])
    assert text.exit_code == 0 and "roll-off" in text.output


def test_the_plot_is_a_png(tmp_path: Path) -> None:
    from dicehall.strategy.solver import plot

    path = tmp_path / "curve.png"
    plot([(25, 0.02), (50, 0.008), (100, 0.002)], "win probability", path, "Kariki, 2 seats")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_tao_solver_exploitability_needs_a_solved_strategy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dicehall.games.tao.solver import stored

    monkeypatch.setattr(stored, "SHIPPED", tmp_path / "none")
    monkeypatch.setenv("DICEHALL_STRATEGIES", str(tmp_path))
    result = runner.invoke(app, ["exploitability", "tao", "--bot", "solver", "-o", "length=single"])
    assert result.exit_code == 2 and "dicehall solve tao" in result.output


def test_tao_solve_writes_its_strategy_and_measures_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command's wiring, on the small two-stone match of test_tao_solver (seconds, not
    the full game's tens of minutes)."""
    from dicehall.games.tao.solver import commands
    from dicehall.games.tao.solver.solve import Model
    from tests.strategy.test_tao_solver import DICE

    monkeypatch.setattr(commands, "Model", lambda: Model(DICE))
    out = tmp_path / "tao.npz"
    args = ["solve", "tao", "--iterations", "10", "-o", "length=single", "--out", str(out)]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["unit"] == "win probability" and 0 <= data["exploitability"] < 0.05
    assert load(out, "tao", 2, {}).meta["iterations"] >= 10
