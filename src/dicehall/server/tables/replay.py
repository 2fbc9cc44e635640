"""Board replay: a finished game told again step by step, as one seat (or a spectator) saw it.

The page draws the table from views, never from raw steps, so the replay is a
list of frames worked out here, on the server, by re-applying the steps
through the core API: frame k is what a WebSocket connection of that seat was
sent at step k (`state.view(seat)`, its legal actions, the events visible to
it), in the same shape as the protocol's "welcome" and "update" messages, and
a last "over" frame. What a seat's frames hold is therefore exactly what the
rules showed that seat (C6), whatever the table's fair-dice mode: a seed
table's revealed seed lets anyone recompute every throw, but its replay from a
seat still draws only that seat's view.

Which steps are re-applied (`table_steps`):

- a spectator's frames, and any seat's at a seed table (whose seed tells every
  throw anyway), come from the table's real steps;
- at a sealed table the hidden throws stay sealed for good, so a seat's real
  frames go only to the holder of that seat's token; anyone else replaying a
  seat gets frames from the public transcript, whose never-shown throws are
  stand-ins, and the answer says so (`"stand_ins": true`).

A transcript file dropped on the page (`POST /api/replay`) is replayed the same
way from its own steps. Either way a seat's view is given only for a finished
game. The routes are http/replay.py's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dicehall.core.errors import DicehallError, TranscriptError
from dicehall.core.game import Game, State
from dicehall.core.transcript import GameMaker, apply_step, check_schema, game_of
from dicehall.core.words import default_names
from dicehall.server.tables.fairness import SEED
from dicehall.server.tables.live import OVER, LiveTable

MAX_STEPS = 100_000
"""The longest transcript replayed for a dropped file; a long Tao Dice game has a few thousand."""


class NotOver(DicehallError):
    """A seat's view asked of a game that is not over (409)."""


def check_seat(game: Game, seat: int | None) -> None:
    if seat is not None and not 0 <= seat < game.seats:
        raise TranscriptError(f"there is no seat {seat}; seats are 0 to {game.seats - 1}")


def frames(
    game: Game, steps: Sequence[Mapping[str, Any]], seat: int | None
) -> list[dict[str, Any]]:
    """Every position of the game as `seat` saw it (None: a spectator), then the result.

    Frame 0 is the start ("welcome", with the events so far); frame k the position after
    k steps ("update", with the events of step k that `seat` may see). A step that breaks
    the rules raises TranscriptError naming it."""
    check_seat(game, seat)
    state = game.new_state(record=True)
    out = [{"type": "welcome", **_position(game, state, seat, 0), "events": state.events_for(seat)}]
    for k, step in enumerate(steps):
        logged = len(state.log or ())
        try:
            apply_step(state, step)
        except DicehallError as e:
            raise TranscriptError(str(e), step=k) from None
        frame = _position(game, state, seat, k + 1)
        out.append(
            {"type": "update", "from_step": k, **frame, "events": state.events_for(seat, logged)}
        )
    if not state.is_over():
        if seat is not None:
            raise NotOver("a seat's view is replayed only once the game is over")
        return out
    out.append({"type": "over", "result": state.result().to_json()})
    return out


def _position(game: Game, state: State, seat: int | None, step: int) -> dict[str, Any]:
    over = state.is_over()
    legal = state.legal_actions(seat) if seat is not None and not over else ()
    view = state.view(seat)
    return {
        "step": step,
        "status": "over" if over else "playing",
        "view": view,
        "legal": [
            {"action": a, "label": game.choice_label(view, a)}
            for a in game.offered_choices(view, legal)
        ],
        "actors": list(state.actors()),
    }


def replay_answer(
    game: Game,
    names: Sequence[str],
    steps: Sequence[Mapping[str, Any]],
    seat: int | None,
    public: Mapping[str, Any],
    stand_ins: bool,
) -> dict[str, Any]:
    """The replay API's answer: the game, its people, the frames, and the table's fair-dice
    facts (`public`: fairness, commitment, a seed table's seed), also on the last frame;
    `stand_ins`: some throws of `steps` are a sealed table's stand-ins."""
    shown = frames(game, steps, seat)
    if shown[-1]["type"] == "over":
        shown[-1].update(public)
    return {
        "game": game.id,
        "seats": game.seats,
        "options": dict(game.options),
        "names": list(names),
        "seat": seat,
        "stand_ins": stand_ins,
        **public,
        "frames": shown,
    }


def file_replay(data: object, seat: int | None, make: GameMaker) -> dict[str, Any]:
    """The replay of a transcript file (the core format, docs/reference/transcripts.md)."""
    check_schema(data)
    assert isinstance(data, dict)
    game = game_of(data, make)
    steps = data["steps"]
    if len(steps) > MAX_STEPS:
        raise TranscriptError(f"{len(steps)} steps: this replays at most {MAX_STEPS}")
    names = data.get("names") or default_names(game.seats)
    public = {k: data[k] for k in ("fairness", "commitment", "seed") if k in data}
    stand_ins = seat is not None and has_stand_ins(steps)
    return replay_answer(game, names, steps, seat, public, stand_ins)


def has_stand_ins(steps: Sequence[object]) -> bool:
    """Whether a sealed transcript put stand-ins for throws the rules never showed everyone."""
    return any(isinstance(s, dict) and s.get("sealed") for s in steps)


def table_steps(
    table: LiveTable, seat: int | None, token: str | None
) -> Sequence[Mapping[str, Any]]:
    """The steps that `seat`'s view of a finished table is worked out from: the real ones
    for a spectator, at a seed table, or for the holder of the seat's `token`; else the
    public transcript's, with stand-ins for the throws never shown to everyone (see the
    module's docstring). The game review (tables/review.py) reads a seat's steps here too."""
    if table.status != OVER:
        raise NotOver("the game is not over: its replay comes when it ends")
    check_seat(table.game, seat)
    real = sees_real(table, seat, token)
    steps: Sequence[Mapping[str, Any]] = table.steps if real else table.transcript()["steps"]
    return steps


def sees_real(table: LiveTable, seat: int | None, token: str | None) -> bool:
    """Whether `seat`'s view is worked out from the real steps (`table_steps`)."""
    held = table.seat_of(token) if token else None
    return seat is None or table.record.fairness == SEED or held == seat


def table_replay(table: LiveTable, seat: int | None, token: str | None) -> dict[str, Any]:
    """A finished table's replay from `seat`; `token` a seat token of the caller, which
    unseals that seat's own hidden throws at a sealed table (see the module's docstring)."""
    steps = table_steps(table, seat, token)
    public = table.dice.public(True)
    return replay_answer(table.game, table.names, steps, seat, public, has_stand_ins(steps))
