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


def show(p: Fraction | float) -> str:
    """A probability as exact fraction and percentage: '7/36 (19.44%)'; '0' and '1' plain.

    An approximate chance (a float) is its percentage alone."""
    if isinstance(p, float):
        return f"{p * 100:.2f}%"
    if p.denominator == 1:
        return str(p.numerator)
    return f"{p.numerator}/{p.denominator} ({float(p) * 100:.2f}%)"
