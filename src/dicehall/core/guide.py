"""First-game guides: a short game with every throw and every move written down, and a
line of explanation where a rule comes up.

A game's `guide.py` writes its script with `throw` and `move`; `Game.guide()` hands
it to interfaces. `guide_frames` plays the script through a `Table` with scripted
dice (the same rules, checked step by step, that any table runs) and cuts it into
frames as the learner, seat 0, sees them: each frame is what to show before the
learner presses something (a move, their own throw, or "next"). The page and
`dicehall play --guide` show the same frames, so they always tell the same game.

A script that the rules refuse (a throw where a seat must act, an illegal move)
raises when its frames are made: the tests build every guide, so a rules change
that breaks a guide fails there and not in front of a learner.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dicehall.core.chance import Face, ScriptedDice
from dicehall.core.errors import DicehallError, OptionError
from dicehall.core.game import Action, Game, View
from dicehall.core.registry import game_class
from dicehall.core.table import Table
from dicehall.core.words import seat_name

LEARNER = 0
"""The learner's seat in every guide: the bots sit after them."""


@dataclass(frozen=True)
class GuideStep:
    """One step of the script: a throw (`faces`) or a seat's move (`seat`, `action`).

    `note` is the line shown with it: before the learner's own move or throw (what to
    do and why), after anybody else's step (what just happened). `rule` names the
    ruling the note explains (`K5`), for those who want to look it up."""

    faces: tuple[Face, ...] | None = None
    seat: int | None = None
    action: Action | None = None
    note: str = ""
    rule: str = ""


@dataclass(frozen=True)
class Guide:
    """A game's first-game guide: the table it is played at and its script."""

    seats: int
    names: tuple[str, ...]
    intro: str
    steps: tuple[GuideStep, ...]
    outro: str
    options: Mapping[str, object] = field(default_factory=dict)


def throw(*faces: Face, note: str = "", rule: str = "") -> GuideStep:
    return GuideStep(faces=tuple(faces), note=note, rule=rule)


def move(seat: int, /, note: str = "", rule: str = "", **action: Any) -> GuideStep:
    return GuideStep(seat=seat, action=action, note=note, rule=rule)


def guide_frames(game: Game, guide: Guide) -> list[dict[str, Any]]:
    """The guide as the learner sees it, frame by frame (JSON-able).

    A frame: `note` and `rule`; `events`, the events the learner has not been shown
    yet (as JSON); `view`, the learner's view; `actors`; and what the learner presses
    to go on: `legal` (the offered choices as {"action", "label"}) with `choice`, the
    index of the one the script plays; or `throw` true (the learner's own throw); or
    neither ("next"). The last frame has `end` true and the outro as its note."""
    dice = ScriptedDice([s.faces for s in guide.steps if s.faces is not None])
    table = Table(game, dice, list(guide.names))
    state = table.state
    frames: list[dict[str, Any]] = []
    told = 0

    def frame(step: GuideStep | None, **extra: Any) -> None:
        nonlocal told
        log = state.log or []
        events = [e.to_json() for e in log[told:] if e.visible_to(LEARNER)]
        told = len(log)
        frames.append(
            {
                "note": step.note if step else "",
                "rule": step.rule if step else "",
                "events": events,
                "view": state.view(LEARNER),
                "actors": list(state.actors()),
                **extra,
            }
        )

    for i, step in enumerate(guide.steps):
        where = f"{game.id} guide, step {i + 1}"
        if step.faces is not None:
            if not state.is_chance():
                raise DicehallError(f"{where}: a throw is scripted where a seat must act")
            mine = state.thrower() == LEARNER
            if mine:
                frame(step, throw=True)
            table.roll()
            if step.note and not mine:
                frame(step)
            continue
        assert step.seat is not None and step.action is not None
        if step.seat == LEARNER:
            view = state.view(LEARNER)
            offered = game.offered_choices(view, state.legal_actions(LEARNER))
            played = next(
                (k for k, a in enumerate(offered) if same_choice(game, view, a, step.action)),
                None,
            )
            if played is None:
                raise DicehallError(f"{where}: {dict(step.action)} is not offered to the learner")
            legal = [{"action": a, "label": game.choice_label(view, a)} for a in offered]
            frame(step, legal=legal, choice=played)
            table.act(LEARNER, offered[played])
        else:
            table.act(step.seat, step.action)
            if step.note:
                frame(step)
    frame(GuideStep(note=guide.outro), end=True)
    return frames


def same_choice(game: Game, view: View, offered: Action, scripted: Action) -> bool:
    """The scripted move is this offered choice: the same action, or one the game offers
    under the same words (Tepiiku's "reroll water" is either of two equal runes)."""
    return dict(offered) == dict(scripted) or game.choice_label(view, offered) == game.choice_label(
        view, scripted
    )


def load_guide(game_id: object) -> tuple[Game, Guide]:
    """A game's guide and the game configured for it; a game without one raises."""
    cls = game_class(game_id)
    guide = cls.guide()
    if guide is None:
        raise OptionError(f"{cls.id} has no first-game guide")
    return cls(guide.seats, guide.options), guide


def guide_json(game: Game, guide: Guide) -> dict[str, Any]:
    """Everything an interface needs to show a guide: the table and its frames."""
    return {
        "game": game.id,
        "title": game.name,
        "seats": guide.seats,
        "names": list(guide.names),
        "options": dict(guide.options),
        "intro": guide.intro,
        "frames": guide_frames(game, guide),
    }


def learner_names(seats: int) -> tuple[str, ...]:
    """The learner as "Player 1" (the name a table gives a person with none; events read
    "Player 1 throws", where "You throws" would not), then "Bot 2", "Bot 3"...: the
    guide's bots play a script, no bot's own moves. An interface may put the learner's
    own nickname in the first place."""
    return (seat_name(LEARNER), *(f"Bot {s + 1}" for s in range(1, seats)))
