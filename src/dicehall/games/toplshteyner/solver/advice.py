"""What the Toplshteyner solver tells a player: each choice's value (the odds panel).

Every number here comes from the solved model (read by `policy.py`), in which
every seat plays the solver's policy; the panel says so, as `dicehall odds`
does for a game's chances (`odds.py` here).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dicehall.core import Action, Game, View
from dicehall.core.odds import WIN, OddsTable, values_table
from dicehall.games.toplshteyner.odds import decision_advice as odds_advice
from dicehall.games.toplshteyner.solver.policy import NotSolved, decision, solved
from dicehall.games.toplshteyner.solver.solve import exact_players

MODEL_NOTE = (
    "From the exact solution (dynamic programming over lives, pot and the turn), "
    "every seat playing the solver's policy."
)


def decision_advice(game: Game, view: View, legal: Sequence[Action]) -> OddsTable | None:
    if not legal or view.get("phase") not in ("elect", "buy"):
        return None
    why = ""
    money = None
    if not solved(view, "win"):
        why = f"More than {exact_players('win')} players are in: beyond the solver's tables"
    else:
        try:
            win = decision(view, "win")
        except NotSolved:
            why = "The solver's tables for this table are not computed yet"
        else:
            try:
                if solved(view, "money"):
                    money = decision(view, "money")
            except NotSolved:
                money = None
    if why:
        table = odds_advice(game, view, legal)  # type: ignore[arg-type]
        if table is not None:
            table.note += f" {why}, so these are the heuristic's estimates."
        return table
    seat = int(view["roller"])
    sunk = 3 + 2 * int(view["bought"][seat])  # a net is K if it wins, less these
    stake = int(view.get("stake", 1))
    paying = not view["for_fun"]
    rows: list[list[Any]] = []
    values: list[float | None] = []
    for action in legal:
        key = action["seat"] if action["type"] == "elect" else action["type"] == "buy"
        chance = dict(win.values)[key]
        values.append(chance)
        mark = "◀ solver" if key == win.choice else ""
        row = [game.action_label(action), f"{chance * 100:.2f}%"]
        if money is not None:
            ev = dict(money.values)[key]
            net = (ev - sunk) if paying else (ev * 3 * len(view["lives"]) - 3)
            row.append(f"{net * stake:+.3f}")
        rows.append([*row, mark])
    note = MODEL_NOTE + (" Chance to win (the solver's objective): every seat playing for the win.")
    if money is not None:
        note += (
            " Expected net: your money at the end of the game, in the table's stake, "
            "under the model where every seat plays for money (the solver_money bot)."
        )
    epsilon = max(win.epsilon, money.epsilon if money is not None else 0.0)
    if epsilon > 1e-6:
        note += (
            f" Where best replies go round in a cycle the solver's choices are held: "
            f"a seat could gain at most {epsilon:.2g} by choosing otherwise once."
        )
    columns = ["choice", "chance to win"] + (["expected net"] if money is not None else [])
    table = OddsTable(
        title="Each choice, solved",
        columns=[*columns, "solver"],
        rows=rows,
        note=note,
    )
    mix = [1.0 if row[-1] else 0.0 for row in rows]
    return values_table(table, values, WIN, "solver", mix)
