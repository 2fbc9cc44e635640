"""Game review: each decision of one seat rated against the values its advice gives.

A review replays a finished transcript through the core API and, at every
decision of the reviewed seat with a real choice (two legal actions or more),
asks the game for its advice from that seat's view (`Game.advice`), exactly
what the odds panel shows that seat at the table. The advice names its model
(the solver's strategy where this machine has one, else the game's odds) and,
where the model values actions, gives each legal action's value
(`core.odds.action_values`): a chance of winning, or expected coins where
money is the object (Tepiiku's rounds). The chosen action's loss is the best
value less its own, and its label comes from `THRESHOLDS`.

Nothing here reads another seat's view, the events, or the raw steps beyond
the reviewed seat's own actions: a review is a function of what the seat saw
and did, so changing another seat's never-shown dice changes nothing in it
(C6), and a sealed table's transcript, whose never-shown throws are stand-ins,
reviews the same as the real one. A seat's own hidden dice are real only in
its own transcript: a public sealed transcript has stand-ins for them too,
which the review says (`stand_ins`). A game not yet over is not reviewed:
advice during play is the odds panel's job, and a review of an unfinished
game would be a second one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dicehall.core import Game, State, View
from dicehall.core.errors import DicehallError, TranscriptError
from dicehall.core.odds import COINS, WIN, ActionValues, action_values
from dicehall.core.transcript import GameMaker, apply_step, check_schema, game_of

LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
UNRATED = "not rated"

THRESHOLDS: dict[str, tuple[float, float, float, float]] = {
    WIN: (0.001, 0.02, 0.05, 0.10),
    COINS: (0.01, 0.10, 0.25, 0.50),
}
"""A loss below the first figure is "best", below the second "good", below the third an
"inaccuracy", below the fourth a "mistake", else a "blunder". For a chance of winning
the figures are 0.1, 2, 5 and 10 percentage points; for coins, 0.01, 0.1, 0.25 and 0.5
coins (a Tepiiku pot starts at one coin). Chess sites draw their lines at 10, 20 and
30 points of winning chance; dice games swing less on one choice, so these are tighter."""

MEASURE_WORDS = {WIN: "chance of winning", COINS: "expected coins"}


class NotOver(DicehallError):
    """A review asked of a game that is not over."""


def label_of(loss: float, measure: str) -> str:
    """The label of a loss in a measure's unit (see `THRESHOLDS`)."""
    for label, limit in zip(LABELS, THRESHOLDS[measure], strict=False):
        if loss < limit:
            return label
    return LABELS[-1]


def show_value(value: float | None, measure: str) -> str:
    if value is None:
        return "-"
    return f"{value * 100:.2f}%" if measure == WIN else f"{value:+.3f} coins"


def show_loss(loss: float, measure: str) -> str:
    return f"{loss * 100:.2f} points" if measure == WIN else f"{loss:.3f} coins"


@dataclass
class Choice:
    """One legal action of a decision, with its value and how often the model plays it."""

    label: str
    action: Mapping[str, Any]
    value: float | None
    model_plays: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "action": dict(self.action),
            "value": self.value,
            "model_plays": self.model_plays,
        }


@dataclass
class Decision:
    """One decision of the reviewed seat: what it could do, what it did, what that cost."""

    number: int
    step: int
    phase: str | None
    choices: list[Choice]
    chosen: int | None
    """The index of the chosen action in `choices`; None for a timeout."""
    model: str
    measure: str
    label: str
    loss: float | None
    best: list[int] = field(default_factory=list)
    note: str = ""
    facts: dict[str, Any] = field(default_factory=dict)
    """What the advice adds beside the values (Kariki's answer: `claim_true`)."""
    view: View = field(default_factory=dict)
    """What the seat knew then: its own view, nothing more."""

    @property
    def rated(self) -> bool:
        return self.loss is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "step": self.step,
            "phase": self.phase,
            "choices": [c.to_json() for c in self.choices],
            "chosen": self.chosen,
            "best": self.best,
            "loss": self.loss,
            "label": self.label,
            "model": self.model,
            "measure": self.measure,
            "note": self.note,
            **self.facts,
            "view": self.view,
        }


def rate(values: ActionValues | None, chosen: int | None) -> tuple[str, float | None, list[int]]:
    """(label, loss, best indices) of a choice among valued actions; unrated where the
    values cannot rate it (no values, the chosen action unvalued, or a timeout)."""
    if values is None or not values.rated or values.values is None:
        return UNRATED, None, []
    valued = [(v, i) for i, v in enumerate(values.values) if v is not None]
    top = max(v for v, _ in valued)
    best = [i for v, i in valued if v >= top - 1e-12]
    if chosen is None:
        return UNRATED, None, best
    mine = values.values[chosen]
    if mine is None:
        return UNRATED, None, best
    loss = max(0.0, top - mine)
    return label_of(loss, values.measure), loss, best


def decision_of(
    game: Game,
    view: View,
    legal: Sequence[Mapping[str, Any]],
    chosen: int | None,
    number: int = 0,
    step: int = 0,
) -> Decision:
    """Rate one decision from a seat's view: the game's advice, read for its values."""
    table = game.advice(view, legal)
    values = action_values(table, len(legal))
    label, loss, best = rate(values, chosen)
    choices = [
        Choice(
            game.choice_label(view, action),
            action,
            None if values is None or values.values is None else values.values[i],
            None if values is None or values.mix is None else values.mix[i],
        )
        for i, action in enumerate(legal)
    ]
    return Decision(
        number=number,
        step=step,
        phase=view.get("phase"),
        choices=choices,
        chosen=chosen,
        model="no advice" if values is None else values.model,
        measure=WIN if values is None else values.measure,
        label=label,
        loss=loss,
        best=best,
        note="" if table is None else table.note,
        facts={} if values is None else dict(values.extra),
        view=view,
    )


@dataclass
class Review:
    """A seat's review of one finished game: its decisions and their summary."""

    game: Game
    seat: int
    names: list[str]
    decisions: list[Decision]
    stand_ins: bool = False

    def rated(self) -> list[Decision]:
        return [d for d in self.decisions if d.rated]

    def counts(self) -> dict[str, int]:
        counts = {label: 0 for label in (*LABELS, UNRATED)}
        for d in self.decisions:
            counts[d.label] += 1
        return counts

    def accuracy(self) -> float | None:
        """The share of rated decisions labelled best or good; None with none rated."""
        rated = self.rated()
        if not rated:
            return None
        return sum(d.label in ("best", "good") for d in rated) / len(rated)

    def mean_loss(self) -> dict[str, float]:
        """The mean loss of the rated decisions, per measure (a game uses one)."""
        out: dict[str, float] = {}
        for measure in (WIN, COINS):
            losses = [d.loss for d in self.rated() if d.measure == measure and d.loss is not None]
            if losses:
                out[measure] = sum(losses) / len(losses)
        return out

    def models(self) -> dict[str, int]:
        """How many decisions each model valued: the review's sources, named."""
        out: dict[str, int] = {}
        for d in self.decisions:
            out[d.model] = out.get(d.model, 0) + 1
        return out

    def biggest(self, count: int = 3) -> list[Decision]:
        """The costliest decisions labelled inaccuracy or worse, costliest first."""
        bad = [d for d in self.rated() if d.label in LABELS[2:]]
        return sorted(bad, key=lambda d: (-(d.loss or 0.0), d.number))[:count]

    def summary(self) -> dict[str, Any]:
        return {
            "decisions": len(self.decisions),
            "rated": len(self.rated()),
            "counts": self.counts(),
            "accuracy": self.accuracy(),
            "mean_loss": self.mean_loss(),
            "models": self.models(),
            "biggest": [d.number for d in self.biggest()],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "seats": self.game.seats,
            "options": dict(self.game.options),
            "seat": self.seat,
            "name": self.names[self.seat],
            "stand_ins": self.stand_ins,
            "thresholds": {m: list(t) for m, t in THRESHOLDS.items()},
            "summary": self.summary(),
            "decisions": [d.to_json() for d in self.decisions],
        }


def check_seat(game: Game, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.seats:
        raise TranscriptError(f"there is no seat {seat!r}; seats are 0 to {game.seats - 1}")
    return seat


def names_of(data: Mapping[str, Any], seats: int) -> list[str]:
    names = data.get("names")
    if isinstance(names, list) and len(names) == seats and all(isinstance(n, str) for n in names):
        return list(names)
    return [f"Seat {s}" for s in range(seats)]


def review(data: Mapping[str, Any], seat: int, make: GameMaker | None = None) -> Review:
    """Review a finished transcript (the core format) from `seat`'s view.

    A malformed transcript, an unknown seat, a step that breaks the rules or a
    game not over raises a DicehallError naming what was wrong."""
    check_schema(data)
    game = game_of(data, make)
    seat = check_seat(game, seat)
    steps = data["steps"]
    state = game.new_state()
    decisions: list[Decision] = []
    for i, step in enumerate(steps):
        try:
            if isinstance(step, dict) and step.get("seat") == seat and "chance" not in step:
                found = _decision(game, state, seat, step, len(decisions) + 1, i)
                if found is not None:
                    decisions.append(found)
            apply_step(state, step)
        except DicehallError as e:
            raise TranscriptError(str(e), step=i) from None
    if not state.is_over():
        raise NotOver(
            f"the game is not over after its {len(steps)} steps: a review is of a finished game"
        )
    stand_ins = any(isinstance(s, dict) and s.get("sealed") for s in steps)
    return Review(game, seat, names_of(data, game.seats), decisions, stand_ins)


def _decision(
    game: Game, state: State, seat: int, step: Mapping[str, Any], number: int, index: int
) -> Decision | None:
    legal = list(state.legal_actions(seat))
    if len(legal) < 2:
        return None
    if step.get("timeout") is True:
        chosen = None
    else:
        action = step.get("action")
        chosen = next((k for k, a in enumerate(legal) if dict(a) == action), None)
        if chosen is None:
            return None  # not legal: applying it raises and names the step
    return decision_of(game, state.view(seat), legal, chosen, number, index)


def review_json(data: Mapping[str, Any], seat: int, make: GameMaker | None = None) -> str:
    """The review as JSON text, for a process pool: one picklable string back."""
    return json.dumps(review(data, seat, make).to_json())
