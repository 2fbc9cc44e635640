"""Where the Toplshteyner solvers and the heuristic choose differently, and what it is worth.

    python benchmarks/toplshteyner_decisions.py [--seats 2,...,8] [--games N] [--seed S]
        [--for-fun] [--sixes-end-turn] [--json]

The roller decides only whom a first 5-5 elects (P8) and whether to buy a
fourth life (P9). This plays N games of heuristic bots at each seat count
(the decisions a table of them reaches, as often as it reaches them) and at
every decision asks the heuristic and the two solvers (win and money
objectives) what they would choose, and the solved win tables what each choice is worth to the
roller: its chance to win (the game's objective: the last player with
lives wins, P10), every seat then maximising its own chance. It prints per
seat count: decisions per game, how often each solver differs from the
heuristic, and the chance to win the heuristic's choices give away against
the best choice (per decision where they differ, and per seat and game:
what a seat playing the solver could gain over the heuristic at most, in
this model). Decisions with more players in than the win tables hold
(`solve.WIN_EXACT_PLAYERS`; money's hold fewer) are beyond the tables (the
solvers choose as the heuristic there) and are counted apart.

Needs every seat count's win tables solved (they ship for two to four
seats; `benchmarks/toplshteyner_solver.py --seats 5,6,7,8 --objective win`
solves the rest into the cache); seat counts without them are skipped.
Money is compared where its tables are solved.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from dicehall.core import Action, RandomDice, Table, View
from dicehall.games import make_game
from dicehall.games.toplshteyner.bots import HeuristicBot
from dicehall.games.toplshteyner.rules import BUY_LIFE
from dicehall.games.toplshteyner.solver import policy, solve


@dataclass
class Tally:
    """What one seat count's decisions came to."""

    seats: int
    games: int = 0
    decisions: Counter[str] = field(default_factory=Counter)
    beyond: Counter[str] = field(default_factory=Counter)
    differ: Counter[str] = field(default_factory=Counter)
    """"objective:kind" -> decisions where that solver's choice is not the heuristic's
    (also where both are worth the same, as electing either of two equal players)."""
    lost: Counter[str] = field(default_factory=Counter)
    """kind -> the roller's win chance the heuristic's choices give away, summed."""
    largest: float = 0.0
    examples: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        per_game = self.games or 1
        return {
            "seats": self.seats,
            "games": self.games,
            "decisions_per_game": {k: v / per_game for k, v in self.decisions.items()},
            "beyond_tables_per_game": {k: v / per_game for k, v in self.beyond.items()},
            "differ": dict(self.differ),
            "differ_share": {
                k: v / max(1, self.decisions[k.split(":")[1]] - self.beyond[k.split(":")[1]])
                for k, v in self.differ.items()
            },
            "win_chance_given_away_per_seat_game": sum(self.lost.values()) / per_game / self.seats,
            "win_chance_given_away_by_kind": dict(self.lost),
            "mean_loss_where_they_differ": {
                kind: lost / max(1, self.differ[f"win, worth more than 1e-9:{kind}"])
                for kind, lost in self.lost.items()
            },
            "largest_single_loss": self.largest,
            "examples": self.examples[:5],
        }


def heuristic_choice(bot: HeuristicBot, view: View, legal: list[Action]) -> int | bool:
    action = bot.choose(view, legal)
    return action == BUY_LIFE if view["phase"] == "buy" else int(action["seat"])


def measure(seats: int, games: int, seed: int, options: dict[str, Any]) -> Tally | None:
    game = make_game("toplshteyner", seats, options)
    probe = game.new_state().view(0)
    engine = policy.model_of(probe, "win")
    if not engine.ready():
        return None
    money_ready = policy.model_of(probe, "money").ready()
    tally = Tally(seats)
    bots = {s: HeuristicBot(game, s, random.Random(seed + s)) for s in range(seats)}

    def look(table: Table) -> None:
        state = table.state
        if state.is_chance() or state.is_over():
            return
        for seat in state.actors():
            legal = list(state.legal_actions(seat))
            view = state.view(seat)
            if len(legal) < 2 or view["phase"] not in ("elect", "buy"):
                continue
            kind = view["phase"]
            tally.decisions[kind] += 1
            if not policy.solved(view, "win"):
                tally.beyond[kind] += 1
                continue
            mine = heuristic_choice(bots[seat], view, legal)
            win = policy.decision(view, "win")
            values = dict(win.values)
            loss = max(values.values()) - values[mine]
            tally.differ[f"win:{kind}"] += win.choice != mine
            tally.differ[f"win, worth more than 1e-9:{kind}"] += loss > 1e-9
            if money_ready and policy.solved(view, "money"):
                money = policy.decision(view, "money")
                tally.differ[f"money:{kind}"] += money.choice != mine
            tally.lost[kind] += loss
            if loss > tally.largest:
                tally.largest = loss
            if loss > 1e-9 and kind == "elect":
                equal = view["lives"][mine] == view["lives"][int(win.choice)]
                tally.differ["of which between players of equal lives:elect"] += equal
            if loss > 1e-9 and len(tally.examples) < 20:
                tally.examples.append(
                    {
                        "kind": kind,
                        "lives": list(view["lives"]),
                        "roller": view["roller"],
                        "point": view["point"],
                        "heuristic": mine,
                        "solver": win.choice,
                        "win_chances": {str(k): round(v, 6) for k, v in win.values},
                    }
                )

    for g in range(games):
        table = Table(game, RandomDice(seed * 1_000_003 + g), record=False, trusted=True)
        table.play(bots, on_step=look)
        tally.games += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", default="2,3,4,5,6,7,8")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--for-fun", action="store_true")
    parser.add_argument("--sixes-end-turn", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--exact-players",
        type=int,
        default=solve.WIN_EXACT_PLAYERS,
        help="read the win tables up to this many players in (more than the bots' tables "
        "hold: what the heuristic's estimate there costs)",
    )
    args = parser.parse_args()
    solve.WIN_EXACT_PLAYERS = args.exact_players
    options = {"for_fun": args.for_fun, "sixes_end_turn": args.sixes_end_turn}
    rows = []
    for seats in (int(s) for s in args.seats.split(",")):
        tally = measure(seats, args.games, args.seed, options)
        if tally is None:
            print(f"{seats} seats: tables not solved, skipped")
            continue
        rows.append(tally.to_json())
        if not args.json:
            row = rows[-1]
            print(
                f"{seats} seats: decisions/game {row['decisions_per_game']}, beyond tables "
                f"{row['beyond_tables_per_game']}, differ {row['differ']} "
                f"({row['differ_share']}), win chance given away per seat and game "
                f"{row['win_chance_given_away_per_seat_game']:.2e}, largest "
                f"{row['largest_single_loss']:.2e}"
            )
    if args.json:
        print(json.dumps({"options": options, "games": args.games, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
