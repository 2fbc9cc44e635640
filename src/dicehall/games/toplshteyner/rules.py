"""Toplshteyner: last player with lives wins the pot (rule text seeds/001, rulings P1-P10).

Every player starts with three lives; a life is one stake (P1). A roll-off
picks the first roller (C5), then the dice go round (P2, C2). A turn is a
series of throws of two dice (P3): a 7 before a point is thrown again, a
total that is neither a double nor 7 sets the point, and once a point is set
the turn ends safe when the point comes again or costs a life on a 7. Every
double is a consequence (P4-P9). A player without lives is out at once (P10).

Money, in stakes (one stake = one life): losing a life pays a stake into the
pot, a life back from the pot takes one out, a bought fourth life pays a
stake from the pocket into the pot. The winner takes the pot. A seat's net
is (pot if it won) - stakes it paid in + stakes it took out, so nets sum to
zero; `Result.net` is in stakes, `detail["net_money"]` multiplies by the
stake option.

Interpretations where the rulings leave room:
- Trick Sixes at three lives on a "for fun" table: the fourth life comes
  from the pot automatically (it costs nothing, and a life only helps). A
  life from the pot needs a stake in the pot: with an empty pot (possible
  only on a for-fun table) a 6-6 gives nothing.
- High Fives with a single other player still in: there is nothing to
  elect, so that player loses the life without an action.
- A 1-1 on a point of 2 makes the point (P4, first sentence), even when it
  is the turn's second 1-1; the turn's end is then reported as "point".

Everything in this game is public (C6): every seat's view equals the
spectator's except for "seat". View keys:

- game, seat, actors, over, result (when over): as for every game.
- phase: "rolloff", "turn", "elect" (the roller elects a player for High
  Fives), "buy" (the roller may buy a fourth life) or "over".
- stake, for_fun, sixes_end_turn: the table's options.
- lives: lives per seat (0 = out). pot: stakes in the pot.
- paid, reclaimed, bought: per seat, stakes paid into the pot, stakes taken
  back out of it, and fourth lives bought.
- roller: the seat throwing (null during the roll-off and when over).
- point: the point, or null when none is set.
- snake_eyes, threes, high_fives: whether a 1-1, 3-3, 5-5 was thrown this turn.
- throws: this turn's throws, each [die, die].
- rolloff: {"contenders": seats still in the roll-off, "faces": their throws
  so far in this round} during the roll-off, else null.
- last_turn: {"seat": s, "end": why the last turn ended} or null; the ends are
  "point", "saving_grace", "second_snake_eyes", "seven", "trick_sixes",
  "out" (the roller lost their last life), "over" (the game ended in it).
- winner: the winning seat, or null.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Self

from mypy_extensions import mypyc_attr

from dicehall.core import D6, Action, Game, Option, Result, State, Throw, View
from dicehall.core.chance import Faces
from dicehall.core.words import seat_list

START_LIVES = 3
MAX_LIVES = 4

ROLLOFF, TURN, ELECT, BUY, OVER = range(5)
PHASE_NAMES = ("rolloff", "turn", "elect", "buy", "over")

ONE_DIE: Throw = (D6,)
TWO_DICE: Throw = (D6, D6)

BUY_LIFE: Action = {"type": "buy"}
DECLINE_LIFE: Action = {"type": "decline"}
BUY_CHOICES: tuple[Action, ...] = (BUY_LIFE, DECLINE_LIFE)
ELECT_SEAT: tuple[Action, ...] = tuple({"type": "elect", "seat": s} for s in range(8))

TURN_END_WORDS = {
    "point": "made the point",
    "saving_grace": "was saved by Saving Grace",
    "second_snake_eyes": "was saved by a second Snake Eyes",
    "seven": "threw a seven",
    "trick_sixes": "ended the turn with Trick Sixes",
    "out": "went out",
    "over": "ended the game",
}
"""How each `last_turn["end"]` reads after the roller's name."""

DOUBLE_NAMES = {
    1: "Snake Eyes",
    2: "Saving Grace",
    3: "Threes",
    4: "Crazy Eight",
    5: "High Fives",
    6: "Trick Sixes",
}


@mypyc_attr(allow_interpreted_subclasses=True)
class Toplshteyner(Game):
    id = "toplshteyner"
    name = "Toplshteyner"
    min_seats = 2
    max_seats = 8
    default_seats = 4
    declared_options = (
        Option(
            "stake",
            1,
            "money a life is worth (P1)",
            minimum=1,
            maximum=1_000_000,
            label="Stake per life",
        ),
        Option(
            "for_fun",
            False,
            "a fourth life from Trick Sixes comes from the pot, free and automatic (P9)",
            label="Playing for fun",
        ),
        Option(
            "sixes_end_turn",
            False,
            "a 6-6 ends the turn safe (P9)",
            label="Double six ends the turn",
        ),
    )
    summary = (
        "Throw two dice, make your point before a seven; doubles bite. Last one with lives wins."
    )
    rules = """\
Toplshteyner, 2-8 players. Each starts with three lives; a life is
one stake, and a lost life goes into the pot (P1). The highest of a
roll-off of one die each throws first, ties throw again (C5); the dice
then go round (P2).

A turn is a series of throws of two dice (P3). Before a point is set,
a 7 is thrown again. A total that is not a double and not 7 sets the
point. Then the point again (not as a double) ends the turn safe; a 7
costs a life and ends the turn; anything else, throw again. Every
double is a consequence:

  1-1 Snake Eyes (P4): on a point of 2 it makes the point. Otherwise
      the first 1-1 of a turn costs a life (and sets the point to 2
      if none); a second 1-1 ends the turn safe.
  2-2 Saving Grace (P5): the turn ends, safe.
  3-3 Threes (P6): the point becomes 6; but if the point is 6 and a
      3-3 was already thrown this turn, the roller loses all lives.
  4-4 Crazy Eight (P7): the point becomes 2; only a 1-1 makes it.
  5-5 High Fives (P8): the first of a turn: the roller elects another
      player to lose a life (point 10 if none). A later 5-5 is a
      plain 10. With one other player left, no choice is asked.
  6-6 Trick Sixes (P9): a life back from the pot below three lives;
      at three, the roller may buy a fourth for one stake paid into
      the pot (option for_fun: free from the pot, automatic, if the
      pot holds a stake). Never above four. Option sixes_end_turn:
      a 6-6 also ends the turn safe.

A player with no lives is out at once; the last player with lives
wins the pot (P10). Results are in stakes."""

    def new_state(self, record: bool = False) -> ToplshteynerState:
        return ToplshteynerState(self, record)


@mypyc_attr(allow_interpreted_subclasses=True)
class ToplshteynerState(State):
    def __init__(self, game: Toplshteyner, record: bool = False) -> None:
        self.game = game
        self.log = [] if record else None
        n = game.seats
        self.for_fun = bool(game.options["for_fun"])
        self.sixes_end_turn = bool(game.options["sixes_end_turn"])
        self.lives = [START_LIVES] * n
        self.paid = [0] * n
        self.reclaimed = [0] * n
        self.bought = [0] * n
        self.pot = 0
        self.alive = n
        self.phase = ROLLOFF
        self.roller = -1
        self.winner = -1
        # the turn
        self.point = 0
        self.snake_eyes = False
        self.threes = False
        self.high_fives = False
        self.throws: list[Faces] = []
        self.last_turn_seat = -1
        self.last_turn_end = ""
        # the roll-off (C5)
        self.contenders: tuple[int, ...] = tuple(range(n))
        self.rolloff_faces: list[int] = []

    # --- whose move -----------------------------------------------------------

    def actors(self) -> tuple[int, ...]:
        if self.phase == ELECT or self.phase == BUY:
            return (self.roller,)
        return ()

    def is_chance(self) -> bool:
        return self.phase == TURN or self.phase == ROLLOFF

    def chance_dice(self) -> Throw:
        return ONE_DIE if self.phase == ROLLOFF else TWO_DICE

    def legal_actions(self, seat: int) -> Sequence[Action]:
        if seat != self.roller:
            return ()
        if self.phase == BUY:
            return BUY_CHOICES
        if self.phase == ELECT:
            return [ELECT_SEAT[s] for s in self.others_in_play_order()]
        return ()

    def thrower(self) -> int | None:
        """The roller throws their own dice (P3); the roll-off is the table's (C5)."""
        return self.roller if self.phase == TURN else None

    def default_action(self, seat: int) -> Action:
        """On a timeout the roller keeps their money, or elects the next player."""
        return DECLINE_LIFE if self.phase == BUY else self.legal_actions(seat)[0]

    def why_illegal(self, seat: int, action: object) -> str | None:
        if not isinstance(action, Mapping):
            return "an action is a JSON object"
        kind = action.get("type")
        if self.phase == ELECT:
            if kind != "elect":
                return "a 5-5 was thrown: the roller must elect a player to lose a life (P8)"
            target = action.get("seat")
            if target == seat:
                return "the roller elects another player, not themself (P8)"
            if not isinstance(target, int) or not 0 <= target < self.game.seats:
                return f"there is no seat {target!r}"
            if self.lives[target] == 0:
                return f"seat {target} is out (P10)"
        if self.phase == BUY and kind not in ("buy", "decline"):
            return "the roller must buy a fourth life or decline (P9)"
        return None

    def others_in_play_order(self) -> list[int]:
        """The other players still in, from the roller's left (C2)."""
        n = self.game.seats
        lives = self.lives
        return [s % n for s in range(self.roller + 1, self.roller + n) if lives[s % n] > 0]

    # --- actions --------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> None:
        if self.phase == ELECT:
            self.phase = TURN
            self._elect(int(action["seat"]))
            return
        if action is BUY_LIFE or action["type"] == "buy":
            self.lives[seat] += 1
            self.bought[seat] += 1
            self.paid[seat] += 1
            self.pot += 1
            if self.log is not None:
                self.emit("buy", f"seat {seat} buys a fourth life for one stake", seat=seat)
        elif self.log is not None:
            self.emit("decline", f"seat {seat} keeps three lives", seat=seat)
        self.phase = TURN
        if self.sixes_end_turn:
            self._end_turn("trick_sixes")

    def _elect(self, target: int) -> None:
        if self.log is not None:
            self.emit("elect", f"seat {self.roller} elects seat {target}", seat=target)
        self._lose(target, 1)

    # --- throws ---------------------------------------------------------------

    def _apply_chance(self, faces: Faces) -> None:
        if self.phase == ROLLOFF:
            self._rolloff(faces[0])  # type: ignore[arg-type]
            return
        dice: tuple[int, int] = faces  # type: ignore[assignment]  # two D6
        a, b = dice
        self.throws.append(dice)
        if self.log is not None:
            self.emit("throw", f"seat {self.roller} throws {a}-{b}", seat=self.roller, dice=[a, b])
        if a == b:
            self._double(a)
            return
        total = a + b
        point = self.point
        if point == 0:
            if total != 7:  # P3: a 7 before a point is thrown again
                self._set_point(total)
        elif total == point:
            self._end_turn("point")
        elif total == 7:
            roller = self.roller
            self._lose(roller, 1)
            if self.lives[roller] > 0:  # else P10 has ended the turn already
                self._end_turn("seven")

    def _double(self, face: int) -> None:
        if self.log is not None:
            self.emit("double", f"{face}-{face}: {DOUBLE_NAMES[face]}", face=face)
        roller = self.roller
        if face == 1:  # P4 Snake Eyes
            if self.point == 2:
                self._end_turn("point")
            elif self.snake_eyes:
                self._end_turn("second_snake_eyes")
            else:
                # the life first, then the point (rule text): a roller who goes out
                # on it has ended the turn, and no point is set for anyone
                self.snake_eyes = True
                self._lose(roller, 1)
                if self.point == 0 and self.roller == roller:
                    self._set_point(2)
        elif face == 2:  # P5 Saving Grace
            self._end_turn("saving_grace")
        elif face == 3:  # P6 Threes
            if self.point == 6 and self.threes:
                self._lose(roller, self.lives[roller])
            else:
                self.threes = True
                self._set_point(6)
        elif face == 4:  # P7 Crazy Eight
            self._set_point(2)
        elif face == 5:  # P8 High Fives
            if self.high_fives:  # a later 5-5 is a plain total of 10
                if self.point == 10:
                    self._end_turn("point")
                return
            self.high_fives = True
            if self.point == 0:
                self._set_point(10)
            others = self.others_in_play_order()
            if len(others) == 1:
                self._elect(others[0])
            else:
                self.phase = ELECT
        else:  # P9 Trick Sixes
            self._trick_sixes(roller)

    def _trick_sixes(self, roller: int) -> None:
        lives = self.lives[roller]
        if lives >= MAX_LIVES:
            pass
        elif lives < START_LIVES or self.for_fun:
            if self.pot > 0:
                self.lives[roller] = lives + 1
                self.pot -= 1
                self.reclaimed[roller] += 1
                if self.log is not None:
                    self.emit("life_back", f"seat {roller} takes a life from the pot", seat=roller)
            elif self.log is not None:
                self.emit("empty_pot", "the pot is empty: no life to take", seat=roller)
        else:
            self.phase = BUY  # the roller decides; _apply goes on from there
            return
        if self.sixes_end_turn:
            self._end_turn("trick_sixes")

    def _set_point(self, point: int) -> None:
        self.point = point
        if self.log is not None:
            self.emit("point", f"the point is {point}", point=point)

    def _lose(self, seat: int, count: int) -> None:
        """Move `count` of a seat's lives into the pot; out at none (P10)."""
        self.lives[seat] -= count
        self.paid[seat] += count
        self.pot += count
        if self.log is not None:
            plural = "life" if count == 1 else "lives"
            self.emit("life_lost", f"seat {seat} loses {count} {plural}", seat=seat, count=count)
        if self.lives[seat] > 0:
            return
        self.alive -= 1
        self.emit("out", f"seat {seat} is out", seat=seat)
        if self.alive == 1:
            self.winner = next(s for s, n in enumerate(self.lives) if n > 0)
            self.phase = OVER
            self.last_turn_seat = self.roller
            self.last_turn_end = "over"
            self.roller = -1
            self.emit("win", f"seat {self.winner} wins the pot of {self.pot}", seat=self.winner)
        elif seat == self.roller:
            self._end_turn("out")

    def _end_turn(self, why: str) -> None:
        """The dice pass to the next player still in (P2, C2)."""
        self.last_turn_seat = self.roller
        self.last_turn_end = why
        self.point = 0
        self.snake_eyes = self.threes = self.high_fives = False
        self.throws = []
        n = self.game.seats
        nxt = (self.roller + 1) % n
        while self.lives[nxt] == 0:
            nxt = (nxt + 1) % n
        self.roller = nxt
        if self.log is not None:
            words = TURN_END_WORDS[why]
            self.emit(
                "turn", f"seat {self.last_turn_seat} {words}; seat {nxt} throws", seat=nxt, end=why
            )

    def _rolloff(self, face: int) -> None:
        faces = self.rolloff_faces
        faces.append(face)
        seat = self.contenders[len(faces) - 1]
        if self.log is not None:
            self.emit("rolloff", f"seat {seat} throws {face} in the roll-off", seat=seat, face=face)
        if len(faces) < len(self.contenders):
            return
        best = max(faces)
        tied = tuple(s for s, f in zip(self.contenders, faces, strict=True) if f == best)
        self.rolloff_faces = []
        self.contenders = tied
        if len(tied) == 1:
            self.roller = tied[0]
            self.contenders = ()
            self.phase = TURN
            self.emit("first", f"seat {tied[0]} throws first", seat=tied[0])
        else:
            self.emit("rolloff_tie", f"{seat_list(tied)} tie and throw again", seats=list(tied))

    # --- what players see -----------------------------------------------------

    def view(self, seat: int | None) -> View:
        over = self.phase == OVER
        view: View = {
            "game": Toplshteyner.id,
            "seat": seat,
            "actors": list(self.actors()),
            "over": over,
            "phase": PHASE_NAMES[self.phase],
            "stake": self.game.options["stake"],
            "for_fun": self.for_fun,
            "sixes_end_turn": self.sixes_end_turn,
            "lives": list(self.lives),
            "pot": self.pot,
            "paid": list(self.paid),
            "reclaimed": list(self.reclaimed),
            "bought": list(self.bought),
            "roller": None if self.roller < 0 else self.roller,
            "point": self.point or None,
            "snake_eyes": self.snake_eyes,
            "threes": self.threes,
            "high_fives": self.high_fives,
            "throws": [list(t) for t in self.throws],
            "rolloff": None
            if self.phase != ROLLOFF
            else {"contenders": list(self.contenders), "faces": list(self.rolloff_faces)},
            "last_turn": None
            if not self.last_turn_end
            else {"seat": self.last_turn_seat, "end": self.last_turn_end},
            "winner": None if self.winner < 0 else self.winner,
        }
        if over:
            view["result"] = self.result().to_json()
        return view

    def result(self) -> Result:
        net = [
            (self.pot if s == self.winner else 0) - self.paid[s] + self.reclaimed[s]
            for s in range(self.game.seats)
        ]
        stake = int(self.game.options["stake"])
        return Result(
            winners=(self.winner,),
            net=tuple(net),
            unit="stakes",
            detail={"stake": stake, "net_money": [x * stake for x in net], "pot": self.pot},
        )

    # --- search and checks ----------------------------------------------------

    def clone(self) -> Self:
        copy = self.shallow_copy()
        copy.log = None
        copy.lives = self.lives[:]
        copy.paid = self.paid[:]
        copy.reclaimed = self.reclaimed[:]
        copy.bought = self.bought[:]
        copy.throws = self.throws[:]
        copy.rolloff_faces = self.rolloff_faces[:]
        return copy

    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        return self.clone()  # nothing is hidden in Toplshteyner

    def conserved(self) -> Mapping[str, int]:
        """The pot holds what was paid in less what was taken out; lives only move
        between players and the pot, except a bought life, which also adds a stake."""
        return {
            "pot_balance": self.pot - sum(self.paid) + sum(self.reclaimed),
            "lives_and_pot": sum(self.lives) + self.pot - 2 * sum(self.bought),
        }
