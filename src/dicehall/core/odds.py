"""Tables of exact odds that games hand to interfaces.

A game computes its odds with exact fractions; an `OddsTable` is how the CLI
(`dicehall odds`) and the browser's odds panel show them, so both print the
same numbers from the same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from dicehall.core.words import name_seats

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

    def named(self, names: Sequence[str]) -> OddsTable:
        """The table with each "seat N" of its words written as that seat's name, as a person
        reads it (a game's advice names seats by number: it does not know the names)."""

        def words(cell: Cell) -> Cell:
            return name_seats(cell, names) if isinstance(cell, str) else cell

        return replace(
            self,
            title=name_seats(self.title, names),
            rows=[[words(c) for c in row] for row in self.rows],
            note=name_seats(self.note, names),
        )


def cell_json(cell: Cell) -> Any:
    if isinstance(cell, Fraction):
        return {"fraction": f"{cell.numerator}/{cell.denominator}", "value": float(cell)}
    if isinstance(cell, float):
        return {"value": cell}
    return cell


SHORT_FRACTION = 9
"""Fractions up to this many characters ("1187/7776") are shown beside the percentage."""


def show(p: Fraction | float, exact: bool = False, fractions: bool = True) -> str:
    """A probability as a percentage, with its exact fraction where that is short or
    asked for: '19.44% (7/36)', '5.32%', '0%', '100%'. An approximate chance (a
    float) is its percentage alone; so is every chance with `fractions` off and not `exact`
    (a table too wide for its screen)."""
    if isinstance(p, float):
        return f"{p * 100:.2f}%"
    if p == 0 or p == 1:
        return f"{int(p * 100)}%"
    value = float(p) * 100
    percent = f"{value:.2f}%" if value >= 0.01 else f"{value:.2g}%"
    fraction = f"{p.numerator}/{p.denominator}"
    if exact or (fractions and len(fraction) <= SHORT_FRACTION):
        return f"{percent} ({fraction})"
    return percent


# --- each legal action's value: what a game review reads ------------------------------

VALUES = "values"
"""`extra` key of an advice table: each legal action's value, in the order of the `legal`
the advice was asked with (a float, or None where the model values that action not)."""
MEASURE = "measure"
"""`extra` key: what the values are: `WIN` (a chance of winning, 0 to 1) or `COINS`
(expected gain in the game's unit, as in Tepiiku's rounds, where money is the object)."""
MODEL = "model"
"""`extra` key: the name of the model the numbers come from ("solver", "truthful model", ...)."""
MIX = "solver_mix"
"""`extra` key: the chance the solver (or the model's own player) takes each legal action."""
WIN = "win"
COINS = "coins"
MEASURES = (WIN, COINS)


@dataclass(frozen=True)
class ActionValues:
    """An advice table's numbers for one decision, in `legal`'s order: why a table carries
    them beside its rows is that rows are words for people, these are for a review."""

    values: tuple[float | None, ...] | None
    measure: str
    model: str
    mix: tuple[float, ...] | None
    note: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def rated(self) -> bool:
        """Whether the values can rate a choice: at least two legal actions valued."""
        return self.values is not None and sum(v is not None for v in self.values) >= 2


def values_table(
    table: OddsTable,
    values: list[float | None] | None,
    measure: str,
    model: str,
    mix: list[float] | None = None,
) -> OddsTable:
    """Attach the machine-readable numbers of a decision to an advice table (in place)."""
    if measure not in MEASURES:
        raise ValueError(f"measure is one of {MEASURES}; got {measure!r}")
    table.extra[MEASURE] = measure
    table.extra[MODEL] = model
    if values is not None:
        table.extra[VALUES] = [None if v is None else float(v) for v in values]
    if mix is not None:
        table.extra[MIX] = [float(p) for p in mix]
    return table


def action_values(table: OddsTable | None, actions: int) -> ActionValues | None:
    """The numbers an advice table carries for a decision of `actions` legal actions; None
    without a table. Lists of the wrong length are a game's bug, so they raise."""
    if table is None:
        return None
    extra = table.extra
    values = extra.get(VALUES)
    mix = extra.get(MIX)
    for name, got in ((VALUES, values), (MIX, mix)):
        if got is not None and len(got) != actions:
            raise ValueError(f"{table.title!r}: {name} has {len(got)} entries for {actions}")
    known = {VALUES, MEASURE, MODEL, MIX}
    return ActionValues(
        values=None if values is None else tuple(values),
        measure=str(extra.get(MEASURE, WIN)),
        model=str(extra.get(MODEL, "the game's odds")),
        mix=None if mix is None else tuple(mix),
        note=table.note,
        extra={k: v for k, v in extra.items() if k not in known},
    )
