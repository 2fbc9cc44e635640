"""Strategy files: round trip, a damaged file refused, a file for other options refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dicehall.strategy.strategy_file import StrategyFile, StrategyFileError, load, save


def sample() -> StrategyFile:
    return StrategyFile(
        game="kariki",
        seats=2,
        options={"pull": "exact"},
        arrays={"policy": np.arange(12, dtype=np.uint16).reshape(3, 4), "v": np.ones(3)},
        meta={"iterations": 10},
    )


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "s.npz"
    save(path, sample())
    back = load(path, "kariki", 2, {"pull": "exact"})
    assert back.meta == {"iterations": 10}
    assert np.array_equal(back.arrays["policy"], sample().arrays["policy"])
    assert back.arrays["policy"].dtype == np.uint16


def test_a_damaged_file_fails_its_checksum(tmp_path: Path) -> None:
    path = tmp_path / "s.npz"
    bad = sample()
    save(path, bad)
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["v"] = arrays["v"] * 2  # edited behind the checksum's back
    with path.open("wb") as f:
        np.savez_compressed(f, **arrays)
    with pytest.raises(StrategyFileError, match="checksum"):
        load(path)


def test_a_file_for_other_options_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.npz"
    save(path, sample())
    with pytest.raises(StrategyFileError, match="options .*'exact'.*'at-least'"):
        load(path, "kariki", 2, {"pull": "at-least"})
    with pytest.raises(StrategyFileError, match="seats 2, not 3"):
        load(path, "kariki", 3, {"pull": "exact"})


def test_not_a_strategy_file(tmp_path: Path) -> None:
    path = tmp_path / "s.npz"
    path.write_bytes(b"hello")
    with pytest.raises(StrategyFileError, match="not a strategy file"):
        load(path)
    with pytest.raises(StrategyFileError, match="no strategy file"):
        load(tmp_path / "missing.npz")
