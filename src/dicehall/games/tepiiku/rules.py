"""Tepiiku: three players, three rune dice each; the Fish pays the Hook.

A round (T10) goes: every player throws in secret (one throw of three dice per
seat, in seat order); all three commit thumbs-up or thumbs-down at once (T5,
C3), setting the pot; the dice are shown and ties are rerolled by all tied
players at once until the three scores differ (T6); then the Fish pays or
rerolls (T7, T8) until the Fish pays (T9). The game ends when a player has no
coins (T4).

Phases of a state, in the order a round visits them:

    throw   chance: each seat's secret throw
    bet     every seat not yet committed chooses thumbs up or down
    ties    every tied seat not yet committed chooses dice to reroll (T6)
    fish    the Fish pays or rerolls (T7)
    forced  the player tied by a reroll must reroll (T8)
    over    a player has no coins (T4)

Rerolls chosen in the ties, fish and forced phases are thrown as chance steps
(one per rerolling seat, in seat order) while the phase stays the same.

Actions: ``{"type": "thumbs", "up": true|false}``, ``{"type": "pay"}`` and
``{"type": "reroll", "dice": [i, ...]}`` (a non-empty, increasing list of die
indices 0-2).

View keys (``view(seat)``; ``seat`` None is a spectator):

    game, seat, actors, over, result (when over)
    phase       one of the phases above
    round       round number, from 1
    bankroll    starting coins of each seat (T3)
    coins       coins of each seat
    pot         the stake now (T5, T8); 0 before thumbs are revealed
    dice        per seat: list of rune names, or null while hidden or unthrown
    scores      per seat: the score (T2), or null while hidden or unthrown
    revealed    true once the dice are shown (all thumbs in)
    thumbs      per seat: true (up), false (down) or null (hidden or not in);
                a seat sees its own at once, everyone's once all are in (C3)
    committed   per seat: whether it has committed the simultaneous choice now
                due (thumbs in bet, reroll choice in ties)
    choices     per seat: a committed tie reroll (die indices), shown only to
                its own seat until all tied seats are in, or null
    tied        seats that must reroll in the ties phase
    roles       {"fish", "middle", "hook"} seats in the fish phase, and in the
                forced phase the roles the tie interrupted; null otherwise (T7)
    forced      the seat that must reroll after a tie (T8), or null
    rerolling   pending rerolls as [{"seat", "dice"}], in throwing order
    last        the last thing that settled: a reroll outcome
                {"kind": "bust"|"still"|"tie"|"beat"|"settled", "seat",
                "before", "after"} (scores; "settled": a forced reroll that
                tied nobody), a payment {"kind": "pay", "seat", "hook",
                "amount"}, or null
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from mypy_extensions import mypyc_attr

from dicehall.core.chance import Die, Faces, Throw
from dicehall.core.game import Action, Game, Result, State, View
from dicehall.core.options import Option
from dicehall.core.words import and_list

SEATS = 3
DICE = 3

# --- Runes and scores (T1, T2) ------------------------------------------------------

INGOT, GEM, FIRE, WATER, SKULL, PERSON = "ingot", "gem", "fire", "water", "skull", "person"
RUNE: Die = (INGOT, GEM, FIRE, WATER, SKULL, PERSON)
"""One rune die: six equally likely faces (T1)."""

FLAT_POINTS = {INGOT: 1, GEM: 2, SKULL: -2}


def score(faces: Sequence[object]) -> int:
    """T2: a player's own dice only; Fire and Water cancel each other; Persons square."""
    fire = FIRE in faces
    water = WATER in faces
    persons = sum(1 for f in faces if f == PERSON)
    total = persons * persons
    for f in faces:
        if f == FIRE:
            total += 0 if water else 3
        elif f == WATER:
            total += 0 if fire else 4
        elif f != PERSON:
            total += FLAT_POINTS[str(f)]
    return total


SCORE: dict[tuple[object, ...], int] = {
    faces: score(faces) for faces in itertools.product(RUNE, repeat=DICE)
}
"""The score of each of the 216 throws, for the hot path."""

ALL_DICE = (0, 1, 2)
SUBSETS: tuple[tuple[int, ...], ...] = tuple(
    sub for k in range(1, DICE + 1) for sub in itertools.combinations(ALL_DICE, k)
)
"""The seven non-empty sets of dice a player may reroll (T6, T7)."""

# --- Actions: shared constants -----------------------------------------------------

THUMBS_DOWN: Action = {"type": "thumbs", "up": False}
THUMBS_UP: Action = {"type": "thumbs", "up": True}
PAY: Action = {"type": "pay"}
REROLLS: tuple[Action, ...] = tuple({"type": "reroll", "dice": list(sub)} for sub in SUBSETS)
BET_ACTIONS = (THUMBS_DOWN, THUMBS_UP)
FISH_ACTIONS = (PAY, *REROLLS)
NO_ACTIONS: tuple[Action, ...] = ()

THROW, BET, TIES, FISH, FORCED, OVER = "throw", "bet", "ties", "fish", "forced", "over"

RUNE_THROWS: dict[int, Throw] = {k: (RUNE,) * k for k in range(1, DICE + 1)}
ALL_SEATS = tuple(range(SEATS))
ONE_SEAT = tuple((seat,) for seat in ALL_SEATS)
FIRST_THROWS = tuple((seat, ALL_DICE) for seat in reversed(ALL_SEATS))
"""A round's secret throws (T10), as `pending` holds them: the next one last."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Tepiiku(Game):
    id: ClassVar[str] = "tepiiku"
    name: ClassVar[str] = "Tepiiku"
    min_seats: ClassVar[int] = SEATS
    max_seats: ClassVar[int] = SEATS
    default_seats: ClassVar[int] = SEATS
    declared_options: ClassVar[tuple[Option, ...]] = (
        Option(
            "bankroll",
            20,
            "coins each player starts with (T3)",
            minimum=1,
            maximum=10_000,
            label="Starting coins",
        ),
    )
    summary: ClassVar[str] = (
        "Three players throw rune dice in secret and bet; the lowest score, the Fish, "
        "pays the Hook or rerolls to escape at doubled stakes."
    )
    rules: ClassVar[str] = """\
Three players, three rune dice each (T1). Ingot 1, Gem 2, Skull -2,
Fire 3 and Water 4 (each 0 if the same player shows the other); each
Person counts the Persons shown (one 1, two 4, three 9). Scores run from
-6 to 12 (T2). Everyone starts with the bankroll, 20 coins (T3).
A round (T10):
 1. Everyone throws in secret; all commit thumbs up or down at once
    (C3). The pot is 1 + the number of thumbs up (T5).
 2. The dice are shown. Tied players all choose dice to reroll at once
    and reroll them, until the three scores differ; the pot stays (T6).
 3. Lowest score: the Fish; highest: the Hook; the other: the middle.
    The Fish pays the pot to the Hook (the round ends) or rerolls one
    or more dice (T7), with old score s and new score s' (T8):
    - s' <= s: Bust, the Fish pays twice the pot;
    - s < s' < middle: still the Fish, pot + 1, choose again;
    - s' equals another's score: Tie, pot x 2, and the tied player
      must reroll dice of their choice (never a bust, never + 1);
      another tie doubles again and the newly tied player rerolls;
      then roles are assigned again and the Fish chooses;
    - s' above the middle, not the Hook's: Beat, pot x 2, roles again.
    Passing the middle to tie the Hook is a Tie: the pot doubles once.
Only the Fish pays, only the Hook is paid, at most what the Fish has
(T3, T9). The game ends when a player has no coins: of the other two,
more coins wins; equal coins share the win (T4)."""

    @property
    def bankroll(self) -> int:
        value = self.options["bankroll"]
        assert isinstance(value, int)
        return value

    def new_state(self, record: bool = False) -> TepiikuState:
        return TepiikuState(self, record)

    def action_label(self, action: Action) -> str:
        kind = action.get("type")
        if kind == "thumbs":
            return "thumbs up" if action.get("up") else "thumbs down"
        if kind == "pay":
            return "pay the pot"
        if kind == "reroll":
            dice = action.get("dice", [])
            if list(dice) == list(ALL_DICE):
                return "reroll all dice"
            return "reroll " + " and ".join(f"die {i + 1}" for i in dice)
        return super().action_label(action)

    def choice_label(self, view: View, action: Action) -> str:
        """A reroll names the seat's own runes: "reroll fire and skull"."""
        hand = (
            view.get("dice", [None] * SEATS)[view["seat"]] if view.get("seat") is not None else None
        )
        if action.get("type") == "reroll" and hand:
            return "reroll " + _dice_words(action.get("dice", []), hand)
        return self.action_label(action)

    def offered_choices(self, view: View, legal: Sequence[Action]) -> list[Action]:
        """One reroll per set of runes: with water, person, water, rerolling either water
        is the same choice, so it is offered once (the first die's). Every subset stays
        legal (T6, T7); only the menu is shorter."""
        seat = view.get("seat")
        hand = view.get("dice", [None] * SEATS)[seat] if seat is not None else None
        if not hand:
            return list(legal)
        offered: list[Action] = []
        seen: set[tuple[str, ...]] = set()
        for action in legal:
            if action.get("type") == "reroll":
                runes = tuple(sorted(hand[i] for i in action.get("dice", [])))
                if runes in seen:
                    continue
                seen.add(runes)
            offered.append(action)
        return offered


@mypyc_attr(allow_interpreted_subclasses=True)
class TepiikuState(State):
    """One position. Dice are flat lists of rune names per seat; rerolls are queued."""

    def __init__(self, game: Tepiiku, record: bool = False) -> None:
        self.game = game
        self.log = [] if record else None
        self.bankroll = game.bankroll  # T3's cap, and where everyone starts
        self.coins = [game.bankroll] * SEATS
        self.round = 0
        self.phase = THROW
        self.dice: list[list[Any]] = [[], [], []]
        self.scores = [0, 0, 0]
        self.revealed = False
        self.thumbs: list[bool | None] = [None, None, None]
        self.pot = 0
        self.tied: tuple[int, ...] = ()
        self.choices: list[tuple[int, ...] | None] = [None, None, None]
        self.waiting: tuple[int, ...] = ()  # who has yet to commit the bet or tie choice due
        self.fish = self.middle = self.hook = -1
        self.forced = -1
        self.score_before = 0  # the rerolling seat's score before its reroll (T8's s)
        self.pending: list[tuple[int, tuple[int, ...]]] = []  # (seat, dice), next last
        self.last: dict[str, Any] | None = None
        self._start_round()

    # --- the round, step by step --------------------------------------------------

    def _start_round(self) -> None:
        self.round += 1
        self.phase = THROW
        self.dice = [[], [], []]
        self.revealed = False
        self.thumbs = [None, None, None]
        self.pot = 0
        self.fish = self.middle = self.hook = self.forced = -1
        self.pending = list(FIRST_THROWS)
        if self.log is not None:
            self.emit("round", f"Round {self.round}: everyone throws in secret", round=self.round)

    def actors(self) -> tuple[int, ...]:
        if self.pending:
            return ()
        phase = self.phase
        if phase == FISH:
            return ONE_SEAT[self.fish]
        if phase == FORCED:
            return ONE_SEAT[self.forced]
        return self.waiting  # bet, ties: who has yet to commit (C3); nobody otherwise

    def is_chance(self) -> bool:
        return bool(self.pending)

    def chance_dice(self) -> Throw:
        if not self.pending:
            return ()
        return RUNE_THROWS[len(self.pending[-1][1])]

    def legal_actions(self, seat: int) -> Sequence[Action]:
        if self.pending:
            return NO_ACTIONS
        phase = self.phase
        if phase == FISH:
            return FISH_ACTIONS if seat == self.fish else NO_ACTIONS
        if phase == FORCED:
            return REROLLS if seat == self.forced else NO_ACTIONS
        if phase == BET:
            return BET_ACTIONS if seat in self.waiting else NO_ACTIONS
        if phase == TIES:
            return REROLLS if seat in self.waiting else NO_ACTIONS
        return NO_ACTIONS

    def _apply(self, seat: int, action: Action) -> None:
        kind = action["type"]
        if kind == "thumbs":
            self._commit_thumbs(seat, bool(action["up"]))
        elif kind == "pay":
            self._pay(self.pot)
        else:
            dice = tuple(action["dice"])  # the game's own action (`apply` hands it on)
            if self.phase == TIES:
                self._commit_tie_reroll(seat, dice)
                return
            # the Fish's reroll (T7) or a forced one (T8)
            self.score_before = self.scores[seat]
            self.pending = [(seat, dice)]
            if self.log is not None:
                words = _dice_words(dice, self.dice[seat])
                self.emit("reroll", f"Seat {seat} rerolls {words}", seat=seat, dice=dice)

    def _apply_chance(self, faces: Faces) -> None:
        seat, which = self.pending.pop()
        hand = self.dice[seat]
        if len(which) == DICE:
            hand[:] = faces
            new = SCORE[faces]
        else:
            for i, face in zip(which, faces, strict=True):
                hand[i] = face
            new = SCORE[tuple(hand)]
        self.scores[seat] = new
        if self.log is not None:
            self._log_throw(seat, which, faces)
        if self.pending:
            return
        phase = self.phase
        if phase == THROW:
            self.phase = BET
            self.waiting = ALL_SEATS
        elif phase == TIES:
            self._resolve_ties()
        elif phase == FISH:
            self._resolve_fish_reroll(seat, new)
        else:
            self._resolve_forced_reroll(seat, new)

    def _commit_thumbs(self, seat: int, up: bool) -> None:
        """T5: thumbs stay hidden until all three are in (C3); then the dice are shown."""
        self.thumbs[seat] = up
        self.waiting = tuple([s for s in self.waiting if s != seat])
        if self.log is not None:
            word = "up" if up else "down"
            self.emit(
                "thumbs", f"Seat {seat} commits thumbs-{word}", frozenset({seat}), seat=seat, up=up
            )
            self.emit("committed", f"Seat {seat} has committed", seat=seat)
        if self.waiting:
            return
        self.pot = 1 + self.thumbs.count(True)
        self.revealed = True
        if self.log is not None:
            self.emit(
                "reveal",
                f"Thumbs up: {sum(1 for t in self.thumbs if t)}; the pot is {self.pot}. "
                + "; ".join(f"seat {s} shows {self._hand_words(s)}" for s in range(SEATS)),
                thumbs=list(self.thumbs),
                pot=self.pot,
                dice=[list(d) for d in self.dice],
                scores=list(self.scores),
            )
        self._resolve_ties()

    def _resolve_ties(self) -> None:
        """T6: everyone whose score equals another's rerolls, until all three differ."""
        a, b, c = self.scores
        if a != b and b != c and a != c:
            self.tied = ()
            self._assign_roles()
            return
        self.tied = tuple(
            seat
            for seat, mine in enumerate(self.scores)
            if (a == mine) + (b == mine) + (c == mine) > 1
        )
        self.phase = TIES
        self.choices = [None, None, None]
        self.waiting = self.tied
        if self.log is not None:
            names = [f"seat {s}" for s in self.tied]
            who = ", ".join(names[:-1]) + " and " + names[-1]
            self.emit(
                "ties", f"{who[0].upper()}{who[1:]} tie and must reroll", tied=list(self.tied)
            )

    def _commit_tie_reroll(self, seat: int, dice: tuple[int, ...]) -> None:
        """T6 with C3: choices stay hidden until every tied seat is in, then all are thrown."""
        self.choices[seat] = dice
        self.waiting = tuple([s for s in self.waiting if s != seat])
        if self.log is not None:
            self.emit(
                "choice",
                f"Seat {seat} will reroll {_dice_words(dice, self.dice[seat])}",
                frozenset({seat}),
                seat=seat,
                dice=list(dice),
            )
            self.emit("committed", f"Seat {seat} has chosen", seat=seat)
        if self.waiting:
            return
        chosen = [(s, self.choices[s] or ALL_DICE) for s in self.tied]
        self.pending = chosen[::-1]
        if self.log is not None:
            self.emit(
                "rerolls",
                "; ".join(f"Seat {s} rerolls {_dice_words(d, self.dice[s])}" for s, d in chosen),
                rerolls=[{"seat": s, "dice": list(d)} for s, d in chosen],
            )

    def _assign_roles(self) -> None:
        """T7: lowest is the Fish, highest the Hook; the Fish chooses next."""
        scores = self.scores
        order = sorted(range(SEATS), key=scores.__getitem__)
        self.fish, self.middle, self.hook = order
        self.forced = -1
        self.phase = FISH
        if self.log is not None:
            self.emit(
                "roles",
                f"Seat {self.fish} is the Fish, seat {self.middle} the middle, "
                f"seat {self.hook} the Hook; the pot is {self.pot}",
                fish=self.fish,
                middle=self.middle,
                hook=self.hook,
                pot=self.pot,
            )

    def _resolve_fish_reroll(self, fish: int, new: int) -> None:
        """T8: bust, still the Fish, tie, or beat."""
        old = self.score_before
        middle = self.scores[self.middle]
        if new <= old:
            self._outcome("bust", fish, old, new)
            self._pay(2 * self.pot)
        elif new < middle:
            self.pot += 1
            self._outcome("still", fish, old, new)
        elif new == middle or new == self.scores[self.hook]:
            self.pot *= 2
            self.forced = self.middle if new == middle else self.hook
            self.phase = FORCED
            self._outcome("tie", fish, old, new)
        else:
            self.pot *= 2
            self._outcome("beat", fish, old, new)
            self._assign_roles()

    def _resolve_forced_reroll(self, seat: int, new: int) -> None:
        """T8: a forced reroll never busts nor adds 1; a new tie doubles and passes it on."""
        old = self.score_before
        tied_with = [s for s in range(SEATS) if s != seat and self.scores[s] == new]
        if tied_with:
            self.pot *= 2
            self.forced = tied_with[0]
            self._outcome("tie", seat, old, new)
        else:
            self._outcome("settled", seat, old, new)
            self._assign_roles()

    def _outcome(self, kind: str, seat: int, old: int, new: int) -> None:
        self.last = {"kind": kind, "seat": seat, "before": old, "after": new}
        if self.log is not None:
            beaten = "middle and the Hook" if new > self.scores[self.hook] else "middle"
            words = {
                "bust": f"Bust! Seat {seat} went from {old} to {new} and pays twice the pot",
                "still": f"Seat {seat} improves to {new} and is still the Fish; the pot is "
                f"{self.pot}",
                "tie": f"Seat {seat} ties at {new}: the pot doubles to {self.pot} and seat "
                f"{self.forced} must reroll",
                "beat": f"Seat {seat} beats the {beaten} with {new}: the pot doubles to {self.pot}",
                "settled": f"Seat {seat} now scores {new}; the tie is resolved",
            }[kind]
            self.emit("outcome", words, **self.last, pot=self.pot)

    def _pay(self, due: int) -> None:
        """T9 and T3: the Fish pays the Hook, at most what it has; then T4 or a new round."""
        fish, hook = self.fish, self.hook
        amount = min(due, self.coins[fish])
        self.coins[fish] -= amount
        self.coins[hook] += amount
        self.last = {"kind": "pay", "seat": fish, "hook": hook, "amount": amount}
        if self.log is not None:
            self.emit(
                "pay",
                f"Seat {fish} pays {amount} to seat {hook}"
                + (" (all they have)" if amount < due else ""),
                seat=fish,
                hook=hook,
                amount=amount,
                coins=list(self.coins),
            )
        if self.coins[fish] == 0:
            self.phase = OVER
            if self.log is not None:
                coins = list(self.coins)
                self.emit("over", f"Seat {fish} has no coins: the game is over", coins=coins)
        else:
            self._start_round()

    # --- the outcome ----------------------------------------------------------------

    def result(self) -> Result:
        """T4: of the two with coins, more coins wins; equal coins share the win."""
        coins = self.coins
        best = max(coins)
        winners = tuple(s for s in range(SEATS) if coins[s] == best)
        bankroll = self.bankroll
        return Result(
            winners=winners,
            net=tuple(c - bankroll for c in coins),
            unit="coins",
            detail={"coins": list(coins), "rounds": self.round},
        )

    def conserved(self) -> Mapping[str, int]:
        return {"coins": sum(self.coins)}

    # --- what a seat sees (C6) ------------------------------------------------------

    def view(self, seat: int | None) -> View:
        revealed = self.revealed
        visible = [revealed or s == seat for s in range(SEATS)]
        thrown = [bool(d) for d in self.dice]
        simultaneous = self.phase in (BET, TIES) and not self.pending
        committed = [False] * SEATS
        if simultaneous and self.phase == BET:
            committed = [t is not None for t in self.thumbs]
        elif simultaneous:
            committed = [c is not None for c in self.choices]
        roles = None
        if self.fish >= 0 and self.phase in (FISH, FORCED):
            roles = {"fish": self.fish, "middle": self.middle, "hook": self.hook}
        view: View = {
            "game": self.game.id,
            "seat": seat,
            "actors": list(self.actors()),
            "over": self.phase == OVER,
            "phase": self.phase,
            "round": self.round,
            "bankroll": self.bankroll,
            "coins": list(self.coins),
            "pot": self.pot,
            "dice": [
                list(self.dice[s]) if visible[s] and thrown[s] else None for s in range(SEATS)
            ],
            "scores": [self.scores[s] if visible[s] and thrown[s] else None for s in range(SEATS)],
            "revealed": revealed,
            "thumbs": [self.thumbs[s] if visible[s] else None for s in range(SEATS)],
            "committed": committed,
            "choices": [
                list(c) if self.phase == TIES and c is not None and s == seat else None
                for s, c in enumerate(self.choices)
            ],
            "tied": list(self.tied) if self.phase == TIES else [],
            "roles": roles,
            "forced": self.forced if self.phase == FORCED else None,
            "rerolling": [
                {"seat": s, "dice": list(d)} for s, d in reversed(self.pending) if revealed
            ],
            "last": dict(self.last) if self.last is not None else None,
        }
        if self.phase == OVER:
            view["result"] = self.result().to_json()
        return view

    # --- search -------------------------------------------------------------------

    def clone(self) -> Self:
        new = self.shallow_copy()
        new.log = None
        new.coins = self.coins[:]
        new.dice = [d[:] for d in self.dice]
        new.scores = self.scores[:]
        new.thumbs = self.thumbs[:]
        new.choices = self.choices[:]
        new.pending = self.pending[:]
        return new

    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        """Before the reveal, others' dice and thumbs are unknown; so are pending tie choices."""
        new = self.clone()
        if not self.revealed:
            for s in range(SEATS):
                if s != seat and new.dice[s]:
                    new.dice[s] = [RUNE[int(rng.random() * 6)] for _ in range(DICE)]
                    new.scores[s] = SCORE[tuple(new.dice[s])]
                if s != seat and new.thumbs[s] is not None:
                    new.thumbs[s] = rng.random() < 0.5
        if self.phase == TIES and not self.pending:
            for s in self.tied:
                if s != seat and new.choices[s] is not None:
                    new.choices[s] = SUBSETS[int(rng.random() * len(SUBSETS))]
        return new

    # --- tables and messages -----------------------------------------------------------

    def default_action(self, seat: int) -> Action:
        """On a timeout: thumbs down, pay, or reroll every die (a forced or tie reroll)."""
        if self.phase == BET:
            return THUMBS_DOWN
        if self.phase == FISH:
            return PAY
        return REROLLS[-1]

    def why_illegal(self, seat: int, action: object) -> str | None:
        if not isinstance(action, Mapping):
            return "an action is a JSON object with a type"
        kind = action.get("type")
        phase = self.phase
        if kind == "thumbs":
            if phase != BET:
                return "thumbs are shown only in the betting phase, once per round (T5)"
            return 'thumbs take "up": true or false'
        if kind == "pay":
            return "only the Fish pays, when choosing (T7)"
        if kind == "reroll":
            if phase == BET:
                return "no dice are rerolled before the thumbs are shown"
            return (
                'a reroll names a non-empty set of distinct dice by index, "dice": [0, 2] (T6, T7)'
            )
        return f"unknown action type {kind!r}; actions are thumbs, pay and reroll"

    def _hand_words(self, seat: int) -> str:
        return f"{', '.join(self.dice[seat])} ({self.scores[seat]})"

    def _log_throw(self, seat: int, which: tuple[int, ...], faces: Faces) -> None:
        if self.revealed:
            self.emit(
                "throw",
                f"Seat {seat} throws {', '.join(map(str, faces))}: {self._hand_words(seat)}",
                seat=seat,
                dice=list(self.dice[seat]),
                score=self.scores[seat],
            )
        else:
            self.emit(
                "throw",
                f"You throw {self._hand_words(seat)}",
                frozenset({seat}),
                seat=seat,
                dice=list(self.dice[seat]),
                score=self.scores[seat],
            )
            self.emit("thrown", f"Seat {seat} throws in secret", seat=seat)


def _dice_words(dice: Sequence[int], hand: Sequence[str]) -> str:
    """The dice a reroll takes, by their runes: "fire and skull" (or "all dice")."""
    if len(dice) == DICE:
        return "all dice"
    # runes in the order they first appear in the hand, whichever equal die was picked:
    # dice 1 and 2 of water, person, water are "water and person", as dice 0 and 1 are
    runes = sorted((hand[i] for i in dice), key=lambda rune: list(hand).index(rune))
    return and_list(runes)
