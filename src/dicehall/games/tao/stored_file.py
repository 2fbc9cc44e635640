"""The solved Tao Dice strategy's file: its name and folder, without NumPy.

Kept apart from `strategies.py` (which reads and writes the arrays) so that a
command can ask whether the strategy is solved, or key a cached table by it,
without importing NumPy and the solver.
"""

from __future__ import annotations

from pathlib import Path

from dicehall.strategy.strategy_file import data_dir

MODEL_VERSION = 1
"""Bumped whenever the round model or the solver changes what a strategy means."""
FILE_NAME = f"tao-2-v{MODEL_VERSION}.npz"


def path() -> Path:
    return data_dir() / FILE_NAME
