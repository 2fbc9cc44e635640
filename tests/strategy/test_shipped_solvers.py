"""Every solver at strength from the install: shipped files checked, no silent fallback.

The shipped files are the ones measured (their SHA-256 is in the code); a
file that differs, or was solved for another seat count, options or cap, is
refused with a message saying what is wrong; and where a solver bot cannot
play at strength (no strategy for a seat count or an option set, a missing
file) `duel`, `ladder`, `sim` and a table say so in words, and `Game.bots()`
does not list it first.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.cli import app
from dicehall.games import make_game
from dicehall.games.tao.solver import stored as tao_stored
from dicehall.games.tepiiku.solver import stored as tepiiku_stored
from dicehall.strategy.strategy_file import (
    StrategyFile,
    StrategyFileError,
    check_shipped,
    file_sha256,
    save,
)

runner = CliRunner()


def test_the_shipped_tao_strategy_is_the_measured_one() -> None:
    shipped = tao_stored.SHIPPED / tao_stored.FILE_NAME
    assert file_sha256(shipped) == tao_stored.SHIPPED_SHA256
    assert tao_stored.found_path() == shipped  # read before any file the user solved


@pytest.mark.parametrize("cap", tepiiku_stored.CAPS)
def test_the_shipped_tepiiku_tables_are_the_measured_ones(cap: int) -> None:
    shipped = tepiiku_stored.shipped_file(cap)
    assert file_sha256(shipped) == tepiiku_stored.SHIPPED_SHA256[cap]
    assert tepiiku_stored.found_file(cap) == shipped


def test_a_changed_shipped_file_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "tepiiku-cap1-v1.npz"
    shutil.copy(tepiiku_stored.shipped_file(1), copy)
    check_shipped(copy, tepiiku_stored.SHIPPED_SHA256[1])
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 1
    copy.write_bytes(bytes(data))
    with pytest.raises(StrategyFileError, match="fails its SHA-256 checksum.*reinstall"):
        check_shipped(copy, tepiiku_stored.SHIPPED_SHA256[1])


def test_tepiiku_tables_of_another_cap_are_refused(tmp_path: Path) -> None:
    wrong = tmp_path / "tepiiku-cap2-v1.npz"
    shutil.copy(tepiiku_stored.shipped_file(1), wrong)
    with pytest.raises(tepiiku_stored.TablesError, match="cap of 1 coins .* not of 2 coins"):
        tepiiku_stored.read(wrong, 2)


def test_a_tao_strategy_solved_for_another_seat_count_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(tao_stored, "SHIPPED", tmp_path / "none")
    monkeypatch.setenv("DICEHALL_STRATEGIES", str(tmp_path))
    other = StrategyFile("tao", 3, {}, {"stage1": np.zeros(3, dtype=np.uint8)}, {})
    save(tao_stored.path(), other)
    with pytest.raises(StrategyFileError, match="solved for seats 3, not 2"):
        tao_stored.stored()


def without_tao_strategy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tao_stored, "SHIPPED", tmp_path / "none")
    monkeypatch.setenv("DICEHALL_STRATEGIES", str(tmp_path / "empty"))


def test_a_tao_solver_without_its_strategy_says_so_and_is_not_listed_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = make_game("tao", 2)
    assert game.bot_warning("solver") is None and next(iter(game.bots())) == "solver"
    without_tao_strategy(monkeypatch, tmp_path)
    assert "plays as the heuristic" in (game.bot_warning("solver") or "")
    assert next(iter(game.bots())) == "heuristic"
    assert game.bot_warning("heuristic") is None


def test_a_tepiiku_solver_without_its_tables_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = make_game("tepiiku")
    assert game.bot_warning("solver") is None and next(iter(game.bots())) == "solver"
    monkeypatch.setattr(tepiiku_stored, "SHIPPED", tmp_path)
    monkeypatch.setenv("DICEHALL_CACHE", "off")
    assert "1, 2, 4, 8, 20 coins are missing" in (game.bot_warning("solver") or "")
    assert next(iter(game.bots())) == "heuristic"


@pytest.mark.parametrize(
    "args",
    [
        ["duel", "tao", "--bots", "solver,heuristic", "--seats", "2", "--games", "1"],
        ["sim", "tao", "--bots", "solver,heuristic", "--seats", "2", "--games", "1"],
        ["ladder", "tao", "--bots", "solver,heuristic", "--seats", "2", "--games", "1"],
    ],
)
def test_a_duel_a_sim_and_a_ladder_whose_solver_fell_back_say_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str]
) -> None:
    without_tao_strategy(monkeypatch, tmp_path)
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "warning: solver: Tao Dice's two-seat strategy is missing" in result.output
    assert "plays as the heuristic" in result.output


def test_a_duel_at_a_seat_count_without_equilibrium_says_what_the_solver_plays() -> None:
    result = runner.invoke(
        app, ["duel", "tao", "--bots", "solver,heuristic", "--seats", "3", "--games", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "no equilibrium at 3 seats: it plays the bet reader" in result.output


def test_a_duel_at_strength_warns_of_nothing() -> None:
    result = runner.invoke(
        app, ["duel", "kariki", "--bots", "solver,heuristic", "--seats", "2", "--games", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output


def test_a_table_whose_solver_fell_back_says_so(tmp_path: Path) -> None:
    from tests.server.helpers import create, running

    with running(tmp_path / "db.sqlite", games=None) as client:
        table = create(client, "tao", seats=3, bots={1: "solver", 2: "heuristic"})
        seats = client.get(f"/api/tables/{table['table_id']}").json()["seats"]
        tao = next(g for g in client.get("/api/games").json() if g["id"] == "tao")
    assert "no equilibrium at 3 seats" in seats[1]["bot_warning"]
    assert seats[0]["bot_warning"] is None and seats[2]["bot_warning"] is None
    assert "no equilibrium at 4 seats" in tao["bot_warnings"]["solver"]  # default seats


def test_tepiiku_exploitability_per_cap() -> None:
    result = runner.invoke(app, ["exploitability", "tepiiku", "--bot", "solver", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["seats"] == 3 and data["unit"] == "coins a round" and "NashConv" in data["note"]
    caps = [row["cap"] for row in data["details"]]
    assert caps == list(tepiiku_stored.CAPS)
    assert data["exploitability"] == max(row["exploitability"] for row in data["details"])
    assert 0 < data["exploitability"] < 1e-4  # the thumbs at an approximate equilibrium
    heuristic = runner.invoke(app, ["exploitability", "tepiiku", "--bot", "heuristic", "--json"])
    assert json.loads(heuristic.output)["exploitability"] > 0.5  # its thumbs at 20 coins


def test_toplshteyner_exploitability_of_the_solver_and_of_random() -> None:
    result = runner.invoke(
        app, ["exploitability", "toplshteyner", "--bot", "solver", "-n", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["exploitability"] == pytest.approx(0.0, abs=1e-9)
    assert [row["seat"] for row in data["details"]] == [1, 2]
    refused = runner.invoke(app, ["exploitability", "toplshteyner", "--bot", "random"])
    assert refused.exit_code == 2 and "not measured" in refused.output
