"""The Game/State split every game plugs into.

A `Game` is a configured ruleset: its id, seat count and option values. A
`State` is one position of one game. The state is a plain, deterministic
machine driven by two kinds of step: a seat's action, and the outcome of a
throw (chance). Nothing random happens inside a state, so a game replays
exactly from its steps and tests can script every die.

Who moves is told by `actors()` (the seats that may act now: one, several at
once for simultaneous choices, C3) and `is_chance()` (a throw is due). When
neither, the game is over.

Everything a player may learn leaves the state through `view(seat)` and the
events visible to that seat; nothing else is meant to reach a player.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Self, SupportsIndex

from mypy_extensions import mypyc_attr

from dicehall.core.chance import Faces, Throw, check_faces, outcomes
from dicehall.core.encoding import Encoding, as_index
from dicehall.core.errors import ChanceError, IllegalActionError, OptionError
from dicehall.core.odds import OddsTable
from dicehall.core.options import Option, OptionValue, resolve_options

if TYPE_CHECKING:
    from dicehall.core.bots import BotFactory
    from dicehall.core.guide import Guide
    from dicehall.strategy.solver import GameSolver

Action = Mapping[str, Any]
"""A JSON object with a "type" key. Games hand out shared constants: never mutate one."""

View = dict[str, Any]
"""What one seat (or a spectator) may see: JSON-able."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for logs and interfaces.

    `to` is the set of seats that may see it; None means everyone, spectators
    included. A private fact is told in its own event, with a public twin
    where others learn that something happened but not what.
    """

    type: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "text": self.text, **self.data}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by its fields, which a compiled frozen class cannot be given back."""
        return Event, (self.type, self.text, self.data, self.to)


@dataclass(frozen=True, slots=True)
class ThrowShown:
    """A throw that a step shows, and to whom: what `State.declared_shown` answers.

    `to` is the seat the throw's faces are shown to, or None: everyone, spectators
    included. `back` says which throw: 0 is the latest one made (at a throw, the
    throw the step itself makes), 1 the one before it, and so on.
    """

    to: int | None
    back: int = 0

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by its fields, as `Event` is."""
        return ThrowShown, (self.to, self.back)


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game.

    `net` is each seat's gain or loss in `unit` (coins, stones, stakes):
    what the game moved, so it sums to zero wherever the rules conserve (C4).
    """

    winners: tuple[int, ...]
    net: tuple[int, ...]
    unit: str
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "net": list(self.net),
            "unit": self.unit,
            **self.detail,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by its fields, as `Event` is."""
        return Result, (self.winners, self.net, self.unit, self.detail)


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """A ruleset configured with a seat count and option values."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    default_seats: ClassVar[int]
    declared_options: ClassVar[tuple[Option, ...]] = ()
    summary: ClassVar[str] = ""
    rules: ClassVar[str] = ""
    """The rules in brief, citing ruling ids: what `dicehall rules` prints."""

    def __init__(
        self, seats: SupportsIndex | None = None, options: Mapping[str, object] | None = None
    ):
        n = self.default_seats if seats is None else seats
        if isinstance(n, bool) or not hasattr(n, "__index__"):
            raise OptionError(f"the number of seats must be a whole number; got {n!r}")
        n = n.__index__()  # numpy.int64 and friends
        if not self.min_seats <= n <= self.max_seats:
            span = (
                f"exactly {self.min_seats}"
                if self.min_seats == self.max_seats
                else f"{self.min_seats} to {self.max_seats}"
            )
            raise OptionError(f"{self.id} is played by {span} seats; got {n}")
        self.seats: int = n
        self.options: dict[str, OptionValue] = resolve_options(
            self.id, self.declared_options, options
        )

    @abstractmethod
    def new_state(self, record: bool = False) -> State:
        """The state before the first step. With record, the state keeps an event log."""

    def bots(self) -> Mapping[str, BotFactory]:
        """Bots that can sit at this game, by name; the first is the strongest."""
        from dicehall.core.bots import RandomBot

        return {"random": RandomBot}

    def bot_warning(self, name: str) -> str | None:
        """Words for a player when the bot of this name does not play at its measured
        strength at this table (no strategy for this seat count or these options, so it
        plays something else), or None. Duels, ladders, simulations and tables show it, so
        that no bot falls back silently. Cheap: it looks for files, it loads none."""
        return None

    def render(self, view: View, names: Sequence[str]) -> Any:
        """A Rich renderable of a view for the terminal (the game's render.py)."""
        import json

        return json.dumps(view, indent=1)

    def action_label(self, action: Action) -> str:
        """An action in words for menus and logs: "claim Double Fives"."""
        return describe_action(action)

    def choice_label(self, view: View, action: Action) -> str:
        """An action in words for the seat whose view this is, which may name what only
        that seat sees ("reroll fire and skull"); by default its action_label."""
        return self.action_label(action)

    def offered_choices(self, view: View, legal: Sequence[Action]) -> list[Action]:
        """The legal actions an interface offers a person: one per meaning. By default all
        of them; a game whose actions can mean the same at a seat's view (Tepiiku's
        rerolls of equal runes) keeps the first of each. Any legal action stays
        playable: this only shortens the menu."""
        return list(legal)

    @classmethod
    def guide(cls) -> Guide | None:
        """The game's first-game guide (its guide.py), where it has one."""
        return None

    @classmethod
    def odds(cls, query: Mapping[str, str]) -> list[OddsTable]:
        """Exact odds for `dicehall odds` (query: its --dice, --beat, ... values).

        Unknown or malformed query values raise OptionError.
        """
        no_odds_parameters(cls.id, query)
        return []

    def advice(self, view: View, legal: Sequence[Action]) -> OddsTable | None:
        """The chances behind each legal action, from the seat's view alone (odds panel)."""
        return None

    def solver(self) -> GameSolver | None:
        """What `dicehall solve` / `exploitability` use (dicehall.strategy), if the game has it."""
        return None

    def to_json(self) -> dict[str, Any]:
        return {"game": self.id, "seats": self.seats, "options": dict(self.options)}

    # --- for learners and solvers: fixed ids, tensors, bounds (core/encoding.py) -----

    def make_encoding(self) -> Encoding:
        """The game's declared encoding (its encoding.py); asked once per configured game."""
        raise NotImplementedError(f"{self.id} declares no action vocabulary or tensors")

    _encoding: Encoding | None = None

    @property
    def encoding(self) -> Encoding:
        if self._encoding is None:
            self._encoding = self.make_encoding()
        return self._encoding

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its configuration: the encoding (closures) is rebuilt on demand."""
        return type(self), (self.seats, dict(self.options))

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A configured game never changes, so copies of states share it."""
        return self

    @property
    def num_actions(self) -> int:
        """How many action ids this configured game has: ids are 0 to num_actions - 1."""
        return len(self.encoding.actions)

    def action_id(self, action: Action) -> int:
        """The fixed id of an action; the same in every state and every release."""
        return self.encoding.actions.id_of(action)

    def action_of(self, action_id: object) -> Action:
        """The action with this id (any integer-like id: int, numpy.int64, ...)."""
        return self.encoding.actions.action(action_id)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.encoding.layout.size,)

    @property
    def observation_bounds(self) -> tuple[list[float], list[float]]:
        """Lowest and highest value of each entry of an observation tensor."""
        return self.encoding.layout.bounds()

    @property
    def utility_bounds(self) -> tuple[int, int]:
        """Lowest and highest net of one seat, in the game's unit (`Result.unit`)."""
        return self.encoding.utility_bounds

    @property
    def utility_sum(self) -> int:
        """What the seats' nets always add up to: 0, every game here is zero-sum."""
        return self.encoding.utility_sum

    @property
    def max_game_length(self) -> int | None:
        """Most steps (decisions and throws) a game can take; None where the rules set none."""
        return self.encoding.max_game_length

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seats={self.seats}, options={self.options})"


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """One position of a game. Subclasses keep their fields flat and cheap to copy."""

    game: Game
    log: list[Event] | None

    # --- what a game implements -------------------------------------------------

    @abstractmethod
    def actors(self) -> tuple[int, ...]:
        """Seats that may act now (several for a simultaneous choice); () on chance or over."""

    @abstractmethod
    def is_chance(self) -> bool:
        """True when the next step is a throw."""

    @abstractmethod
    def chance_dice(self) -> Throw:
        """The dice of the throw that is due, in die order."""

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Actions `seat` may take now; empty if it may not act."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None:
        """Apply an action already known to be legal."""

    @abstractmethod
    def _apply_chance(self, faces: Faces) -> None:
        """Apply a throw's faces, already checked against the dice."""

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What `seat` may see now (C6); None is a spectator, who sees only public facts."""

    @abstractmethod
    def result(self) -> Result:
        """The outcome; only called when the game is over."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy without an event log, for search."""

    def shallow_copy(self) -> Self:
        """A new state of this class sharing every field's value: where a clone starts
        (it then copies the fields it changes in place, and drops the log).

        One way for every layout a state may have: fields in the instance's dict
        (one update), in `__slots__`, or, compiled (docs/contributors/core.md, Compiled
        rules), in native attributes, with a dict beside them in a Python subclass;
        `__new__` runs no `__init__`.
        """
        cls = type(self)
        new: Self = copier(cls)(self)
        native = field_names(cls)
        fields: dict[str, Any] | None = getattr(self, "__dict__", None)
        if fields and native:  # a subclass of a compiled state makes its dict on first use
            for name, value in fields.items():
                setattr(new, name, value)
        elif fields:
            vars(new).update(fields)
        return new

    @abstractmethod
    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        """A copy in which every hidden fact `seat` may not know is drawn afresh.

        Faces hidden from `seat` are rethrown, and pending simultaneous choices
        of other seats are redrawn among their legal actions. `seat`'s view of
        the copy equals its view of this state (C6): the property tests check
        exactly that, and bots use it for determinized search.
        """

    @abstractmethod
    def conserved(self) -> Mapping[str, int]:
        """Totals the rules conserve (C4), each constant over the whole game."""

    def thrower(self) -> int | None:
        """The seat whose own throw is due, where the rules have a player throw in their
        turn (a Toplshteyner roller); None where throws are the table's to make.

        Interfaces let a person make such a throw themselves (a Throw button, Enter
        at the terminal). It changes nothing else: the throw is drawn as any other.
        """
        return None

    def declared_shown(self, step: Mapping[str, Any]) -> Sequence[ThrowShown] | None:
        """The throws `step`, a transcript step about to be taken from this state, shows
        for the first time, and to whom; None: not declared.

        Which throws the rules have shown to whom decides, at a sealed table, who is
        given each throw's opening (core/shown.py). Without a declaration it is found
        by replay: every other outcome of each throw is played on copies of the game
        until what an audience observed tells them apart, which costs a sealed table
        about as much CPU again as its moves. A game whose rules say plainly what each
        step shows can say it here instead, and is then taken at its word: a throw
        declared shown too early is a leak, one declared too late a proof withheld, so
        a game that declares holds its answers to the replay's in its tests
        (tests/test_shown_declared.py).

        A game declares every step or none: an answer (empty where the step shows
        nothing) for each step, entropy records included, never None for some. A step
        that the state would refuse may be answered anyhow, or raise: it is applied next
        and refused there. By default nothing is declared, and every throw is found by
        replay.
        """
        return None

    def default_action(self, seat: int) -> Action:
        """The safe choice a table makes for a seat whose time ran out (pay, fold, pass)."""
        return self.legal_actions(seat)[0]

    def why_illegal(self, seat: int, action: object) -> str | None:
        """A game-specific reason an action is illegal, for the error message."""
        return None

    # --- what the core provides ---------------------------------------------------

    def is_over(self) -> bool:
        return not self.is_chance() and not self.actors()

    def apply(self, seat: SupportsIndex, action: Action | SupportsIndex) -> Action:
        """Apply a seat's action, or raise IllegalActionError and change nothing.

        Returns the game's own copy of the action that was applied: input that
        merely compares equal to a legal action (1.0 or true for 1) is replaced
        by it, so no lookalike value reaches the game's fields or a transcript.
        An integer-like action is an action id (`Game.action_of`).
        """
        who = seat if type(seat) is int else as_index(seat, "a seat")
        if hasattr(action, "__index__") and not isinstance(action, (bool, Mapping)):
            action = self.game.action_of(action)
        actors = self.actors()
        if who not in actors:
            raise IllegalActionError(self._not_your_turn(who, actors))
        legal = self.legal_actions(who)
        try:
            chosen = legal[legal.index(action)]
        except ValueError:
            reason = self.why_illegal(who, action) or "it is not among the legal actions"
            options = ", ".join(describe_action(a) for a in legal)
            raise IllegalActionError(
                f"seat {who} may not play {describe_action(action)}: {reason}. Legal: {options}"
            ) from None
        self._apply(who, chosen)
        return chosen

    def apply_chance(self, faces: Sequence[object]) -> None:
        """Apply a throw's outcome, or raise ChanceError and change nothing."""
        if not self.is_chance():
            raise ChanceError(
                "no throw is due: the game is over"
                if self.is_over()
                else f"no throw is due: seat(s) {list(self.actors())} must act"
            )
        self._apply_chance(check_faces(self.chance_dice(), faces))

    # --- the trusted fast path ----------------------------------------------------
    # Search, solvers and simulations apply steps they have just taken from this
    # very state: an action from `legal_actions(seat)` of one of its `actors()`,
    # faces of its `chance_dice()` (from `random_faces`, a DiceSource or
    # `chance_outcomes`). Checking such a step again costs a third of a step, so
    # these skip every check. A step from anywhere else, a transcript or a
    # player, corrupts the state silently: those go through `apply` and
    # `apply_chance`. Each subclass gets the game's own step methods here, with no
    # call in between (see `__init_subclass__`).

    def apply_trusted(self, seat: int, action: Action) -> None:
        """Apply an action taken from this state's `legal_actions(seat)`, unchecked."""
        self._apply(seat, action)

    def apply_chance_trusted(self, faces: Faces) -> None:
        """Apply a tuple of valid faces of this state's `chance_dice()`, unchecked."""
        self._apply_chance(faces)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.apply_trusted = cls._apply  # type: ignore[method-assign]
        cls.apply_chance_trusted = cls._apply_chance  # type: ignore[method-assign]

    def timeout(self, seat: int) -> None:
        """A seat's turn timer ran out: the table acts for it with the game's default."""
        actors = self.actors()
        if seat not in actors:
            raise IllegalActionError(self._not_your_turn(seat, actors))
        self._timeout(seat)

    def _timeout(self, seat: int) -> None:
        self._apply(seat, self.default_action(seat))

    def chance_outcomes(self) -> Iterator[tuple[Faces, Fraction]]:
        """Every outcome of the throw that is due, with its exact probability."""
        return outcomes(self.chance_dice())

    def emit(self, type: str, text: str, to: frozenset[int] | None = None, **data: Any) -> None:
        """Log an event if this state keeps a log (tables and replays do; playouts don't)."""
        if self.log is not None:
            self.log.append(Event(type, text, data, to))

    def events_for(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The logged events from index `start` that `seat` may see, as JSON."""
        if self.log is None:
            return []
        return [e.to_json() for e in self.log[start:] if e.visible_to(seat)]

    # --- for learners and solvers: ids and tensors (core/encoding.py) ---------------

    def legal_action_ids(self, seat: int) -> list[int]:
        """The ids of `seat`'s legal actions, in increasing order."""
        id_of = self.game.encoding.actions.id_of
        return sorted([id_of(a) for a in self.legal_actions(seat)])

    def legal_action_mask(self, seat: int) -> list[int]:
        """1 for each action id `seat` may play now, else 0; num_actions entries."""
        mask = [0] * self.game.num_actions
        for i in self.legal_action_ids(seat):
            mask[i] = 1
        return mask

    def observation_tensor(self, seat: SupportsIndex) -> list[float]:
        """`seat`'s view as numbers (the game's encoding.py): what the view shows alone (C6).

        The encoding's `fill`, where the game has one, writes the numbers straight from
        the state; they equal `encoding.encode(view(seat))` entry for entry.
        """
        who = as_index(seat, "a seat")
        encoding = self.game.encoding
        fill = encoding.fill
        if fill is None or not 0 <= who < self.game.seats:
            return encoding.encode(self.view(who))
        tensor = encoding.layout.zeros()
        fill(self, who, tensor)
        return tensor

    def observation_string(self, seat: int | None) -> str:
        """`seat`'s view as canonical JSON: one string per distinct view."""
        return json.dumps(self.view(seat), sort_keys=True, separators=(",", ":"))

    def _not_your_turn(self, seat: int, actors: tuple[int, ...]) -> str:
        if not 0 <= seat < self.game.seats:
            return f"there is no seat {seat}; seats are 0 to {self.game.seats - 1}"
        if self.is_over():
            return "the game is over"
        if self.is_chance():
            return f"it is not seat {seat}'s turn: a throw is due"
        return f"it is not seat {seat}'s turn: waiting for seat(s) {list(actors)}"


def describe_action(action: object) -> str:
    """An action in a few words, for messages: type first, then its fields."""
    if isinstance(action, Mapping) and "type" in action:
        rest = " ".join(f"{k}={v}" for k, v in action.items() if k != "type")
        return f"{action['type']}{' ' + rest if rest else ''}"
    return repr(action)


@cache
def copier(cls: type) -> Callable[[Any], Any]:
    """A function making a new instance of `cls` that shares every field of the given one
    (its `field_names`), written out for the class: a loop of getattr and setattr over
    forty fields was three quarters of a clone, and sealed tables clone a state for every
    outcome of every throw (core/shown.py)."""
    names = field_names(cls)
    for name in names:
        if not name.isidentifier():
            raise TypeError(f"{cls.__name__} has a field that is not a name: {name!r}")
    lines = ["def copy(self):", "    new = cls.__new__(cls)"]
    lines += [f"    new.{name} = self.{name}" for name in names]
    lines.append("    return new")
    scope: dict[str, Any] = {"cls": cls}
    exec("\n".join(lines), scope)  # made of the class's own field names, checked above
    made: Callable[[Any], Any] = scope["copy"]
    return made


@cache
def field_names(cls: type) -> tuple[str, ...]:
    """The fields of a state class without an instance dict: its native attributes
    when compiled, else the `__slots__` of its classes."""
    native: tuple[str, ...] | None = getattr(cls, "__mypyc_attrs__", None)
    if native is not None:
        return tuple(name for name in native if name != "__dict__")
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        names.extend((slots,) if isinstance(slots, str) else slots)
    return tuple(dict.fromkeys(n for n in names if n not in ("__dict__", "__weakref__")))


def no_odds_parameters(game_id: str, query: Mapping[str, str]) -> None:
    """What `Game.odds` does with a query where a game's odds take no parameters."""
    if query:
        raise OptionError(f"{game_id} takes no odds parameters; got {', '.join(query)}")
