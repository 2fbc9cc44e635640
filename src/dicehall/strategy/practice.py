"""Practice: the decisions where the choice matters most, as puzzles scored by the review.

A practice set is drawn from seeded games: the game's strongest bots play
them (`Game.bots()`, the first), every decision with values (the review's
`decision_of`, from the deciding seat's view alone) is a candidate, and the
set is the candidates with the most at stake, where `stakes` is the best
value less the mean of the other valued actions: what a choice made without
thought would cost there. The same seed draws the same set. A puzzle shows
the seat's view and its legal actions; an answer is scored as the review
scores a decision (its loss against the best, and a label), with the model's
numbers as the explanation. Puzzles can also come from a reviewed game: the
seat's own costliest decisions (`from_review`).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from dicehall.core import Game, RandomDice, Table, make_bots
from dicehall.core.errors import DicehallError
from dicehall.core.transcript import GameMaker
from dicehall.strategy.review import THRESHOLDS, Decision, Review, decision_of, label_of

POOL_FACTOR = 4
"""Candidates gathered per puzzle asked for before the set is chosen."""
MAX_GAMES = 200
"""Games played at most to gather the candidates; fewer valued decisions than asked is
then an error naming the model (a game whose strategy is not on this machine)."""
MIN_STAKES = 1e-6
"""A decision whose actions are all worth the same is no puzzle."""


class NoPuzzles(DicehallError):
    """No decision of the game has values here to score a puzzle against."""


@dataclass
class Puzzle:
    """A decision to make again: the seat's view, its choices, the model's values."""

    number: int
    seat: int
    decision: Decision

    @property
    def stakes(self) -> float:
        return stakes(self.decision)

    def score(self, answer: int) -> dict[str, Any]:
        """The answer's value, loss against the best and label, as the review would give."""
        d = self.decision
        if not 0 <= answer < len(d.choices):
            raise DicehallError(
                f"answer {answer} is not a choice: choices are 0 to {len(d.choices) - 1}"
            )
        values = [c.value for c in d.choices]
        top = max(v for v in values if v is not None)
        mine = values[answer]
        if mine is None:
            raise DicehallError(f"choice {answer} has no value in {d.model}")
        loss = max(0.0, top - mine)
        return {
            "puzzle": self.number,
            "answer": answer,
            "value": mine,
            "best": d.best,
            "loss": loss,
            "label": label_of(loss, d.measure),
        }

    def to_json(self, answers: bool = True) -> dict[str, Any]:
        data = self.decision.to_json()
        if not answers:
            for c in data["choices"]:
                c["value"] = c["model_plays"] = None
            data["best"] = []
        for key in ("chosen", "loss", "label", "number", "step"):
            data.pop(key, None)
        return {"number": self.number, "seat": self.seat, **data}


def stakes(d: Decision) -> float:
    """The best value less the mean of the other valued actions."""
    values = sorted((c.value for c in d.choices if c.value is not None), reverse=True)
    if len(values) < 2:
        return 0.0
    return values[0] - sum(values[1:]) / (len(values) - 1)


def candidates(game: Game, seed: int, wanted: int) -> list[tuple[int, Decision]]:
    """Valued decisions of seeded games among the game's strongest bots, `wanted` at least
    where the games hold that many within `MAX_GAMES`."""
    found: list[tuple[int, Decision]] = []
    models: set[str] = set()
    bots_name = next(iter(game.bots()))
    seen: set[str] = set()
    for g in range(MAX_GAMES):
        if len(found) >= wanted:
            break
        table = Table(game, RandomDice(seed * 100_003 + g), record=False)
        bots = make_bots(game, [bots_name], random.Random(seed * 7_919 + g))

        def look(t: Table) -> None:
            state = t.state
            if state.is_chance() or state.is_over():
                return
            for seat in state.actors():
                legal = list(state.legal_actions(seat))
                if len(legal) < 2:
                    continue
                d = decision_of(game, state.view(seat), legal, None)
                models.add(d.model)
                key = repr([d.phase, *((c.label, round(c.value or 0, 4)) for c in d.choices)])
                if stakes(d) > MIN_STAKES and key not in seen:
                    seen.add(key)  # the same choice at the same values is the same lesson
                    found.append((seat, d))

        look(table)
        table.play(bots, on_step=look)
    if not found:
        named = ", ".join(sorted(models)) or "no advice"
        raise NoPuzzles(
            f"no decision of {game.id} at {game.seats} seats has values here to score an "
            f"answer against (the advice's models: {named})"
        )
    return found


def draw(game: Game, count: int, seed: int = 0) -> list[Puzzle]:
    """`count` puzzles (fewer if the games hold fewer), most at stake first; seeded."""
    if count < 1:
        raise DicehallError(f"a practice set has at least one puzzle; got {count}")
    pool = candidates(game, seed, count * POOL_FACTOR)
    pool.sort(key=lambda c: -stakes(c[1]))
    return [Puzzle(i + 1, seat, d) for i, (seat, d) in enumerate(pool[:count])]


def from_review(review: Review, count: int) -> list[Puzzle]:
    """The reviewed seat's costliest decisions as puzzles: learning from one's mistakes."""
    worst = sorted(
        (d for d in review.rated() if (d.loss or 0.0) > 0),
        key=lambda d: (-(d.loss or 0.0), d.number),
    )[:count]
    return [Puzzle(i + 1, review.seat, d) for i, d in enumerate(worst)]


def report(game: Game, puzzles: list[Puzzle], seed: int, answers: bool) -> dict[str, Any]:
    """A practice set as JSON (`dicehall practice --json`, GET /api/practice/GAME): the
    puzzles, with the model's values and best choices only if `answers`, and the thresholds
    that label an answer's loss (`THRESHOLDS`), so that a page can score it alone."""
    return {
        "game": game.id,
        "seats": game.seats,
        "options": dict(game.options),
        "seed": seed,
        "thresholds": {m: list(t) for m, t in THRESHOLDS.items()},
        "puzzles": [p.to_json(answers=answers) for p in puzzles],
    }


def practice_json(make: GameMaker, game_id: str, seats: int, count: int, seed: int) -> str:
    """A seeded practice set with its answers as JSON text, for a process pool."""
    game = make(game_id, seats, {})
    return json.dumps(report(game, draw(game, count, seed), seed, answers=True))
