"""What `dicehall odds toplshteyner` prints: one turn's odds, and a game's from the solver.

The turn's outcomes are exact and need no solver (`odds.turn_table`). A
game's win chances, given --seats or --lives, come from the solver's exact
model up to `solve.EXACT_PLAYERS` players (every seat playing for the win)
and beyond from games simulated with heuristic bots. The solver (and NumPy)
is imported only when a game's table is asked for.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from dicehall.core import OptionError, RandomDice
from dicehall.core.odds import OddsTable
from dicehall.games.toplshteyner.bots import HeuristicBot
from dicehall.games.toplshteyner.odds import Lives, turn_table
from dicehall.games.toplshteyner.rules import (
    BUY,
    BUY_LIFE,
    MAX_LIVES,
    START_LIVES,
    TURN,
    Toplshteyner,
)

SIMULATED_GAMES = 4000
"""Games simulated for a game's table beyond the solver's."""


def odds_tables(query: Mapping[str, str]) -> list[OddsTable]:
    known = {"seats", "lives", "for_fun", "sixes_end_turn"}
    unknown = sorted(set(query) - known)
    if unknown:
        raise OptionError(
            f"unknown odds parameter {unknown[0]!r} for toplshteyner; "
            f"it takes: {', '.join(sorted(known))}"
        )
    for_fun = _flag(query, "for_fun")
    sixes_end_turn = _flag(query, "sixes_end_turn")
    tables = [turn_table(sixes_end_turn)]
    if "seats" in query and "lives" in query:
        raise OptionError("give either seats or lives, not both")
    if "seats" in query:
        seats = _seats(query["seats"])
        tables.append(game_table((START_LIVES,) * seats, for_fun, sixes_end_turn))
    elif "lives" in query:
        tables.append(game_table(_lives(query["lives"]), for_fun, sixes_end_turn))
    return tables


def _flag(query: Mapping[str, str], name: str) -> bool:
    text = query.get(name, "false").strip().lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise OptionError(f"odds parameter {name!r} must be true or false; got {text!r}")


def _seats(text: str) -> int:
    try:
        seats = int(text)
    except ValueError:
        seats = 0
    if not 2 <= seats <= 8:
        raise OptionError(f"seats must be a whole number from 2 to 8; got {text!r}")
    return seats


def _lives(text: str) -> Lives:
    try:
        lives = tuple(int(x) for x in text.split(","))
    except ValueError:
        lives = ()
    if not 2 <= len(lives) <= 8 or not all(1 <= x <= MAX_LIVES for x in lives):
        raise OptionError(
            f"lives must list 2 to 8 players' lives, each 1 to {MAX_LIVES}, "
            f"the roller first (e.g. 3,2,1); got {text!r}"
        )
    return lives


def game_table(lives: Lives, for_fun: bool, sixes_end_turn: bool) -> OddsTable:
    from dicehall.games.toplshteyner.solver.solve import EXACT_PLAYERS

    if for_fun and sum(lives) > START_LIVES * len(lives):
        raise OptionError(
            "on a for-fun table every fourth life comes from the pot: these lives "
            f"({','.join(map(str, lives))}) would need more than the lives lost so far"
        )
    if len(lives) <= EXACT_PLAYERS:
        chances = win_chances(lives, for_fun, sixes_end_turn)
        how = (
            "From the solver's exact model (dynamic programming over lives, pot and the "
            "turn, to 1e-10): every seat elects and buys to raise its own chance to win. "
            "The pot holds the lives lost so far and nobody is out"
            + (" (for fun: a 6-6 gives no life while the pot is empty)." if for_fun else ".")
        )
    else:
        chances = simulate_chances(lives, for_fun, sixes_end_turn, SIMULATED_GAMES)
        worst = max((c * (1 - c) / SIMULATED_GAMES) ** 0.5 for c in chances)
        how = (
            f"By simulating {SIMULATED_GAMES} games with heuristic bots (beyond the "
            f"solver's tables); standard error at most {worst * 100:.2f} points. Each 6-6 "
            "at three lives takes the fourth life."
        )
    before = ""
    if len(set(lives)) == 1:
        before = f" Before the roll-off every seat's chance is 1/{len(lives)}."
    return OddsTable(
        title=f"Chance to win, {len(lives)} players, seat 0 throws next",
        columns=["seat", "lives", "chance to win"],
        rows=[
            [s, x, f"{c * 100:.2f}%"] for s, (x, c) in enumerate(zip(lives, chances, strict=True))
        ],
        note=how + before,
    )


def win_chances(lives: tuple[int, ...], for_fun: bool, sixes_end_turn: bool) -> list[float]:
    """Each player's chance to win from `lives` (the roller first), nobody out yet and
    nothing bought: the pot holds the lives lost (for fun: less the fourth lives taken)."""
    from dicehall.games.toplshteyner.solver.model import position_index
    from dicehall.games.toplshteyner.solver.policy import solver

    seats = len(lives)
    engine = solver("win", for_fun, sixes_end_turn, seats)
    k = engine.model.key(seats)
    engine.solve()
    return [float(x) for x in engine.layer(seats, k).values[position_index(lives)]]


def simulate_chances(
    lives: Lives, for_fun: bool, sixes_end_turn: bool, games: int, seed: int = 0
) -> list[float]:
    """Win chances from `lives` (seat 0 to throw) by playing `games` games as the
    win-chance tables of `odds.py` assume: the heuristic bot's elections, and every
    fourth life taken."""
    game = Toplshteyner(len(lives), {"for_fun": for_fun, "sixes_end_turn": sixes_end_turn})
    dice = RandomDice(seed)
    bots = [HeuristicBot(game, s, random.Random(seed)) for s in range(len(lives))]
    wins = [0] * len(lives)
    for _ in range(games):
        state = game.new_state()
        state.phase = TURN
        state.roller = 0
        state.lives = list(lives)
        state.paid = [max(0, START_LIVES - x) for x in lives]  # lives lost so far
        state.pot = sum(state.paid)
        while not state.is_over():
            if state.is_chance():
                state.apply_chance(dice.throw(state.chance_dice()))
            elif state.phase == BUY:
                state.apply(state.roller, BUY_LIFE)
            else:
                seat = state.roller
                state.apply(seat, bots[seat].elect(state.view(seat), state.legal_actions(seat)))
        wins[state.winner] += 1
    return [w / games for w in wins]
