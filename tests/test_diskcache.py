"""The disk cache for slow tables: a hit gives exactly what was stored, anything else a miss."""

from __future__ import annotations

from pathlib import Path

import pytest

from dicehall.core import diskcache
from dicehall.games.toplshteyner import odds


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DICEHALL_CACHE", str(tmp_path))
    return tmp_path


def test_a_stored_table_comes_back_for_its_key_only(cache: Path) -> None:
    diskcache.save("t", "k1", {"a": [1, 0.1]})
    assert diskcache.load("t", "k1") == {"a": [1, 0.1]}
    assert diskcache.load("t", "k2") is None
    assert diskcache.load("other", "k1") is None


def test_a_damaged_file_is_a_miss(cache: Path) -> None:
    (cache / "t.json").write_text("{not json")
    assert diskcache.load("t", "k") is None


def test_the_cache_can_be_turned_off(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DICEHALL_CACHE", "off")
    diskcache.save("t", "k", 1)
    assert diskcache.load("t", "k") is None
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_cache_only_costs_the_computation(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("DICEHALL_CACHE", str(blocker / "inside"))
    diskcache.save("t", "k", 1)  # no error
    assert diskcache.load("t", "k") is None


def test_the_key_follows_the_source(tmp_path: Path) -> None:
    source = tmp_path / "rules.py"
    source.write_text("A = 1\n")
    before = diskcache.source_key(source)
    source.write_text("A = 2\n")
    assert diskcache.source_key(source) != before


def test_toplshteyner_win_chances_from_the_cache_equal_the_solved_ones(cache: Path) -> None:
    solved = odds.WinChances(False, True)
    first = {lives: solved.chances(lives) for lives in [(2, 3), (1, 4, 2), (3, 3, 3, 3)]}
    assert any(cache.iterdir())
    cached = odds.WinChances(False, True)
    assert cached.solved_players == 4
    assert cached._turns is None  # nothing was solved again
    assert {lives: cached.chances(lives) for lives in first} == first


def test_kariki_solver_posterior_is_read_back_from_the_cache(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`dicehall odds kariki` builds the round's tree once; after that the rows come from disk."""
    from dicehall.games import make_game
    from dicehall.games.kariki.solver import odds as solver_odds

    game = make_game("kariki", 2)
    first = solver_odds.posterior_table(game)
    assert list(cache.glob("kariki-posterior-*.json"))

    def rebuilt(*args: object) -> None:
        raise AssertionError("the rows were computed again")

    monkeypatch.setattr(solver_odds, "_posterior_rows", rebuilt)
    again = solver_odds.posterior_table(game)
    assert again.rows == first.rows and again.title == first.title
