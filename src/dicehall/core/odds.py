"""Tables of exact odds that games hand to interfaces.

A game computes its odds with exact fractions; an `OddsTable` is how the CLI
(`dicehall odds`) and the browser's odds panel show them, so both print the
same numbers from the same code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

Cell = str | int | Fraction | float
"""A float is a chance known only approximately (a solved strategy's); a Fraction is exact."""


@dataclass
class OddsTable:
    title: str
    columns: list[str]
    rows: list[list[Cell]]
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "columns": self.columns,
            "rows": [[cell_json(c) for c in row] for row in self.rows],
            "note": self.note,
            **self.extra,
        }


def cell_json(cell: Cell) -> Any:
    if isinstance(cell, Fraction):
        return {"fraction": f"{cell.numerator}/{cell.denominator}", "value": float(cell)}
    if isinstance(cell, float):
        return {"value": cell}
    return cell


SHORT_FRACTION = 9
"""Fractions up to this many characters ("1187/7776") are shown beside the percentage."""


def show(p: Fraction | float, exact: bool = False) -> str:
    """A probability as a percentage, with its exact fraction where that is short or
    asked for: '19.44% (7/36)', '5.32%', '0%', '100%'. An approximate chance (a
    float) is its percentage alone."""
    if isinstance(p, float):
        return f"{p * 100:.2f}%"
    if p == 0 or p == 1:
        return f"{int(p * 100)}%"
    value = float(p) * 100
    percent = f"{value:.2f}%" if value >= 0.01 else f"{value:.2g}%"
    fraction = f"{p.numerator}/{p.denominator}"
    if exact or len(fraction) <= SHORT_FRACTION:
        return f"{percent} ({fraction})"
    return percent
