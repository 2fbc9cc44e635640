"""What the Tepiiku solver tells a player: each choice's expected coins, from its model.

The numbers are the solved round of `solve.py` at the seat's cap (its own
coins, at most `stored.MAX_CAP`, held by every seat), every seat playing the
solver's policy afterwards; the panel says so. The advice never solves: with
the cap's tables not computed yet it shows the heuristic's table of `bots.py`
and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dicehall.core.game import Action, View
from dicehall.core.odds import COINS, OddsTable, values_table
from dicehall.games.tepiiku.bots import advice_table
from dicehall.games.tepiiku.odds import dice_label, fish_chances, place_chances
from dicehall.games.tepiiku.solver import policy, solve, stored
from dicehall.games.tepiiku.solver.model import SCORES, TRANSITION, action_of, hand_index

MODEL_NOTE = (
    "From the solver's model: the round after the thumbs solved exactly "
    "(every seat maximising its expected coins), the thumbs at an approximate "
    "equilibrium, every seat holding {cap} coins (your own, rounded down to a solved cap) "
    "and playing the solver's policy afterwards."
)


def advice(view: View, legal: Sequence[Action]) -> OddsTable | None:
    seat = view.get("seat")
    if seat is None or not legal or view.get("dice", [None] * 3)[seat] is None:
        return None
    cap = policy.cap_of(view, seat)
    try:
        tables = stored.tables(cap)
    except stored.NotSolved:
        table = advice_table(view, legal)
        if table is not None:
            table.note += (
                f" The solver's tables for {cap} coins are not computed yet "
                "(`dicehall solve tepiiku` solves them), so these are the heuristic's."
            )
        return table
    note = MODEL_NOTE.format(cap=cap)
    phase = view.get("phase")
    if phase == "bet":
        return _thumbs(tables, view, legal, seat, note)
    if phase == "fish" and view.get("roles"):
        return _fish(tables, view, legal, seat, note)
    if phase == "forced":
        return _forced(tables, view, legal, seat, note)
    if phase == "ties":
        return _ties(tables, view, legal, seat, note)
    return None


MODEL = "solver"


def _values(legal: Sequence[Action], rows: Sequence[Sequence[Any]], value: int) -> list[float]:
    """Each row's value column (signed text) as numbers: rows are in `legal`'s order."""
    assert len(rows) == len(legal)
    return [float(row[value]) for row in rows]


def _thumbs(
    tables: stored.Tables, view: View, legal: Sequence[Action], seat: int, note: str
) -> OddsTable:
    hand = hand_index(view["dice"][seat])
    down, up = tables.thumbs_value[seat, hand]
    chance = tables.thumbs[seat, hand]
    rows: list[list[Any]] = [
        ["thumbs down", f"{down:+.3f}", float(1 - chance)],
        ["thumbs up", f"{up:+.3f}", float(chance)],
    ]
    values: list[float | None] = [float(up if a.get("up") else down) for a in legal]
    mix = [float(chance if a.get("up") else 1 - chance) for a in legal]
    thumbs = OddsTable(
        title=f"Thumbs with a score of {int(SCORES[hand])}",
        columns=["choice", "expected coins this round", "solver plays it"],
        rows=rows,
        note=note
        + f" The thumbs equilibrium's NashConv is {tables.thumbs_nash_conv:.4f} coins a round.",
    )
    return values_table(thumbs, values, COINS, MODEL, mix)


def _fish(
    tables: stored.Tables, view: View, legal: Sequence[Action], seat: int, note: str
) -> OddsTable:
    position = policy.fish_position(view)
    pot = int(view["pot"])
    values = policy.fish_choices(tables, position, pot)[:, 0]
    choice = policy.fish_choice(tables, view)
    hand = view["dice"][seat]
    scores = view["scores"]
    roles = view["roles"]
    middle, hook = scores[roles["middle"]], scores[roles["hook"]]
    rows: list[list[Any]] = [
        [
            "pay the pot",
            "",
            "",
            "",
            "",
            f"{values[0]:+.3f}",
            "◀ solver" if choice is None else "",
        ]
    ]
    worth: list[float | None] = [
        float(values[0] if a.get("type") != "reroll" else values[action_of(hand, a["dice"]) + 1])
        for a in legal
    ]
    for action in legal:
        if action.get("type") != "reroll":
            continue
        dice = tuple(action["dice"])
        k = action_of(hand, dice)
        c = fish_chances(hand, dice, middle, hook)
        value = float(values[k + 1])
        mark = "◀ solver" if choice == k and _first(hand, dice, legal) else ""
        rows.append([dice_label(dice), c.bust, c.still, c.tie, c.beat, f"{value:+.3f}", mark])
    table = OddsTable(
        title=f"Your choice as the Fish: score {SCORES[hand_index(hand)]}, middle {middle}, "
        f"Hook {hook}, pot {pot}",
        columns=["choice", "bust", "still the Fish", "tie", "beat", "expected coins", "solver"],
        rows=rows,
        note=note,
    )
    mix = [
        1.0
        if (a.get("type") != "reroll" and choice is None)
        or (
            a.get("type") == "reroll"
            and choice == action_of(hand, a["dice"])
            and _first(hand, a["dice"], legal)
        )
        else 0.0
        for a in legal
    ]
    return values_table(table, worth, COINS, MODEL, mix)


def _first(hand: Sequence[str], dice: Sequence[int], legal: Sequence[Action]) -> bool:
    """Whether `dice` is the first legal reroll taking these runes (duplicates share a row)."""
    runes = sorted(hand[i] for i in dice)
    for action in legal:
        if action.get("type") == "reroll" and sorted(hand[i] for i in action["dice"]) == runes:
            return tuple(action["dice"]) == tuple(dice)
    return False


def _forced(
    tables: stored.Tables, view: View, legal: Sequence[Action], seat: int, note: str
) -> OddsTable:
    lay = solve.layout()
    position = policy.forced_position(view)
    pot = int(view["pot"])
    after = solve.forced_after(tables.fish_value, tables.forced_value, tables.cap, pot)[
        lay.forced_gather[position]
    ]
    choice = policy.forced_choice(tables, view)
    hand = view["dice"][seat]
    moves = TRANSITION[lay.forced[position, 0]]
    rows: list[list[Any]] = []
    for action in legal:
        dice = tuple(action["dice"])
        k = action_of(hand, dice)
        value = float(moves[k] @ after[:, 0])
        mark = "◀ solver" if choice == k and _first(hand, dice, legal) else ""
        rows.append([dice_label(dice), f"{value:+.3f}", mark])
    forced = OddsTable(
        title=f"Your forced reroll (T8), pot {pot}",
        columns=["reroll", "expected coins", "solver"],
        rows=rows,
        note=note,
    )
    mix = [1.0 if row[2] else 0.0 for row in rows]
    return values_table(forced, list(_values(legal, rows, 1)), COINS, MODEL, mix)


def _ties(
    tables: stored.Tables, view: View, legal: Sequence[Action], seat: int, note: str
) -> OddsTable:
    mix = policy.tie_mix(tables, view, seat)
    hand = view["dice"][seat]
    others = [view["scores"][s] for s in range(3) if s != seat]
    rows: list[list[Any]] = []
    for action in legal:
        dice = tuple(action["dice"])
        k = action_of(hand, dice)
        share = mix[k] if _first(hand, dice, legal) else 0.0
        rows.append([dice_label(dice), *place_chances(hand, dice, others), float(share)])
    # No values: a tie's reroll is one player's part of a simultaneous equilibrium.
    mix_of = [float(row[-1]) for row in rows]
    ties = OddsTable(
        title=f"Your tie reroll (T6) against scores {others[0]} and {others[1]}",
        columns=["reroll", "lowest", "middle", "highest", "tied again", "solver plays it"],
        rows=rows,
        note=note + " Tied players choose at once: the solver plays its part of an equilibrium of "
        "the tie (mixed where no pure one exists).",
    )
    return values_table(ties, None, COINS, MODEL, mix_of)
