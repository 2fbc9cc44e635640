"""Kariki: a bluffing game of two dice under a mug (rulings K1-K10, C1-C6).

A game runs in phases. After the buy-in, a roll-off (C5) picks the first
roller, who chooses the direction of play. Then, over and over: a roller
throws two dice under the mug. A Kariki (1-2) is shown at once (K3);
anything else is seen by the roller alone, who claims a rank (K4). The next
player rolls higher blind, pulls, or passes (K5, K6). Dingle berries go to
liars, false accusers and the victims of a Kariki; five and a player is out
(K7). The last player in takes the pot.

Ranks are integers inside the engine, lowest first: 0..7 are the totals
Four..Eleven, 8..13 the doubles 1-1..6-6, and 14 is Kariki. Claims are
named by rank ids: "4".."11", "1-1".."6-6" (Kariki is never claimed).

Interpretations where the rulings leave room:

- A roll higher over Double Sixes that is not a Kariki stays hidden: the
  roller looks, takes the berry and the dice are never shown (C6).
- Several players reaching five berries at once (a third crown) decide on
  the emergency berry (K9) one by one in the order of play from the roller.
  Its price is the pot at the moment of buying, paid from the pocket (no
  purse limit).
- Dice that a pull or a Kariki never showed stay hidden for good, also after
  the game (C6); a roller who rolls higher never sees the dice taken over.
- Turn timers (K8) belong to the table (an online table's turn timer, off
  by default). When one runs out the seat gets a slash first (option
  `slashes`, on by default); if that makes its fifth berry it goes out (the
  table declines the emergency berry for it), the claim chain is dropped and
  the next player begins a fresh roll. Otherwise the table acts for it:
  direction left; claim the lowest legal rank; pass when allowed, else pull;
  decline the emergency berry. With `slashes` off a timeout only makes that
  default move. None of these moves depends on the dice under the mug: a
  table that claimed the truth for an absent roller would tell everyone the
  rank of the hidden dice (C6).

Research variants (options, off by default; docs/researchers/environments.md): `berries`
sets the dingle berries that put a player out (1 to 5, in the poo one
before); `one_round` ends the game when the first round's berry is given,
its receiver paying one buy-in to every other player (no emergency berry is
offered); `throws` caps the throws under the mug in a round (once used
up, nobody may roll higher); `first_roller` names a seat that rolls first instead of the
roll-off, whose ties could otherwise go on forever. Two seats with
`one_round`, `first_roller=0` and `throws=1` make a game small enough for
exact methods.

Result: the last player in wins; each seat's net is what it won (the pot,
for the winner) minus all it paid (buy-in and emergency berries), in stakes.

View keys (`view(seat)`), all public unless said:

- `game`, `seat`, `actors`, `over`, `result` (when over): as every game.
- `phase`: "roll-off", "direction", "throw", "claim", "respond", "emergency", "over".
- `rank_names`: each rank id in words ("6-6": "Double Sixes").
- `berries_out`, `one_round`: the research options (5 and false by default).
- `pot`, `buy_in`, `paid` (each seat's payments so far), `berries`, `crowns`,
  `slashes`, `out`, `in_the_poo` (lists by seat), `emergency_used` (by seat).
- `direction`: "left" (increasing seat numbers), "right" or null before it is chosen.
- `roll_off`: {"contenders": seats still in the roll-off, "throws": this
  round's die per seat or null} while it runs; `first_roller` once known.
- `roller`: the seat holding the mug: about to throw, or the thrower of the
  dice under it.
- `claim`: the claim on the table (while a roller rolls higher: the claim to
  beat), null before the first claim of a fresh roll; `claim_owner`: who owns
  it; `previous_claim`: the claim it followed (null if it began a fresh roll);
  `pass_chain`: seats that passed it, in order; `responder`: whose choice it is.
- `your_dice`: the dice under the mug, only for the seat that threw them.
- `may_roll`, `may_pass`: what the responder may do (K6).
- `last_shown`: the last dice shown to all: `dice`, their `rank`, the
  `thrower`, `how` ("kariki" or "pull"), `berry_to`, and for a pull the
  `claim`, the `previous_claim` it followed and the `puller`.
- `emergency_price`, `deciding`: during an emergency-berry decision (K9).
- `winner` once over.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, SupportsIndex

from mypy_extensions import mypyc_attr

from dicehall.core import D6, Game, Option, OptionError, Result, State, ThrowShown, View
from dicehall.core.chance import Faces, Throw
from dicehall.core.words import seat_list

# --- ranks (K2) -----------------------------------------------------------------

KARIKI = 14
DOUBLE_SIXES = 13
RANK_IDS: tuple[str, ...] = (
    *(str(total) for total in range(4, 12)),
    *(f"{face}-{face}" for face in range(1, 7)),
    "kariki",
)
RANK_NAMES: tuple[str, ...] = (
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Eleven",
    "Double Ones",
    "Double Deuces",
    "Double Threes",
    "Double Fours",
    "Double Fives",
    "Double Sixes",
    "Kariki",
)
RANK_OF_ID = {rank_id: rank for rank, rank_id in enumerate(RANK_IDS)}


def rank_of(a: int, b: int) -> int:
    """The rank of a throw (K2): Kariki, then doubles, then the total."""
    if a + b == 3:
        return KARIKI
    if a == b:
        return 7 + a
    return a + b - 4


RANK: tuple[tuple[int, ...], ...] = tuple(
    tuple(rank_of(a, b) if a and b else -1 for b in range(7)) for a in range(7)
)
"""RANK[a][b]: the rank of faces a and b (index 0 unused)."""

HIDDEN_THROWS: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(1, 7) for b in range(1, 7) if rank_of(a, b) != KARIKI
)
"""The 34 throws that can lie under the mug: a Kariki is always shown."""

# --- phases and shared constant actions -----------------------------------------

ROLL_OFF, THROW, DIRECTION, CLAIM, RESPOND, EMERGENCY, OVER = range(7)
PHASE_NAMES = ("roll-off", "throw", "direction", "claim", "respond", "emergency", "over")

LEFT = {"type": "direction", "way": "left"}
RIGHT = {"type": "direction", "way": "right"}
ROLL = {"type": "roll"}
PULL = {"type": "pull"}
PASS = {"type": "pass"}
BUY = {"type": "emergency"}
DECLINE = {"type": "go-out"}

DIRECTIONS = (LEFT, RIGHT)
ROLL_PULL_PASS = (ROLL, PULL, PASS)
PULL_PASS = (PULL, PASS)  # the thrower, when the choice comes back (K6)
ROLL_PULL = (ROLL, PULL)  # a player who already passed this claim (K6)
PULL_ONLY = (PULL,)  # the same, when the round's throws are used up (option throws)
EMERGENCY_CHOICES = (BUY, DECLINE)
NOTHING: tuple[dict[str, str], ...] = ()

CLAIM_ACTIONS = tuple({"type": "claim", "rank": RANK_IDS[r]} for r in range(KARIKI))
CLAIMS_ABOVE: tuple[tuple[dict[str, str], ...], ...] = tuple(
    CLAIM_ACTIONS[above + 1 :] for above in range(-1, KARIKI)
)
"""CLAIMS_ABOVE[c + 1]: the claims strictly higher than claim c (c = -1: a fresh roll)."""

SHOWN_TO_ALL = (ThrowShown(None),)
SHOWN_TO_SEAT = tuple((ThrowShown(seat),) for seat in range(10))
SHOWN_TO_NOBODY: tuple[ThrowShown, ...] = ()

ONE_DIE: Throw = (D6,)
TWO_DICE: Throw = (D6, D6)
SEAT_TUPLES = tuple((seat,) for seat in range(10))
BERRIES_OUT = 5
BERRIES_POO = 4


@mypyc_attr(allow_interpreted_subclasses=True)
class Kariki(Game):
    id = "kariki"
    name = "Kariki"
    min_seats = 2
    max_seats = 10
    default_seats = 4
    declared_options = (
        Option(
            "pull",
            "exact",
            "K5 pull: 'exact' catches any claim that differs from the dice; "
            "'at-least' catches only dice ranking below the claim",
            choices=("exact", "at-least"),
            label="Pull catches",
            choice_words=(
                "any claim that differs from the dice",
                "only a claim above the dice (pull on 'at least')",
            ),
        ),
        Option(
            "after_kariki",
            "roller",
            "K3: who begins the fresh roll after a Kariki: the 'roller' or the 'berry' receiver",
            choices=("roller", "berry"),
            label="After a Kariki, the fresh roll begins with",
            choice_words=("the roller", "the player who got the berry"),
        ),
        Option(
            "high_rollers",
            False,
            "K9: a player about to go out may once buy an emergency berry for the pot's sum",
            label="High rollers",
        ),
        Option(
            "slashes",
            True,
            "K8: a seat whose turn timer runs out gets a slash, three make a berry (the turn "
            "timer is the table's: 60 s at a listed table unless its host sets another, none "
            "at a private table unless set; none in the terminal)",
            label="Slashes for running out of time",
        ),
        Option(
            "buy_in",
            1,
            "K1: stakes each player pays into the pot",
            minimum=1,
            maximum=1000,
            label="Buy-in (stakes)",
        ),
        # Research variants: small games that exact methods reach
        # (docs/researchers/environments.md).
        Option(
            "berries",
            BERRIES_OUT,
            "research variant of K7: the dingle berries that put a player out (in the poo "
            "one before)",
            minimum=1,
            maximum=BERRIES_OUT,
            label="Berries that put a player out",
            advanced=True,
        ),
        Option(
            "one_round",
            False,
            "research variant: the game ends when the first round's berry is given; its "
            "receiver pays one buy-in to every other player",
            label="One round only",
            advanced=True,
        ),
        Option(
            "first_roller",
            "roll-off",
            "research variant of K1: a fixed first roller (a seat number) instead of the roll-off",
            choices=("roll-off", *(str(seat) for seat in range(10))),
            allowed_words="roll-off or a seat number from 0 (the first seat) to one less than "
            "the seats",
            label="First roller",
            choice_words=("roll for it", *(f"seat {seat + 1}" for seat in range(10))),
            advanced=True,
            seat_choice="roll-off",
        ),
        Option(
            "throws",
            0,
            "research variant of K5: throws under the mug a round allows (0: no limit); "
            "once they are used up nobody may roll higher",
            minimum=0,
            maximum=14,
            label="Throws allowed a round (0: no limit)",
            advanced=True,
        ),
    )
    summary = "Claim what is under the mug, roll higher, pull or pass; five berries and out."
    rules = """\
Kariki, 2-10 players, two dice and a mug (K1-K10).
 1. Everyone pays the buy-in into the pot. A roll-off picks the first
    roller (C5: one die each in seat order, the tied throw again), who
    picks the direction of play (K1).
 2. Ranks, best first (K2): Kariki (1-2); doubles 6-6 down to 1-1; then
    totals 11 down to 4. Same total, same rank (3-6 and 4-5 are Nine).
 3. A Kariki is shown at once: a crown for the roller, a dingle berry
    for the next player, and the roller begins again (option
    after_kariki=berry: the berry's receiver does). Every third crown
    gives every other player still in a berry (K3).
 4. Any other throw is seen by the roller alone, who claims a rank
    strictly above the claim it follows, never Kariki; lies are
    allowed (K4).
 5. The next player rolls higher (blind, then claims), pulls or passes
    (K5). Over Double Sixes only a Kariki is higher: anything else is
    a berry for the roller, and the player after them begins.
    Pull: a claim that differs from the dice (option pull=at-least:
    that ranks above them) is a berry for its owner, else for the
    puller; the other begins a fresh roll. Pass: you own the claim
    and the choice moves on.
 6. A player passes a claim at most once; the thrower, when it comes
    back, may only pull or pass (K6).
 7. Five berries: out; four: in the poo. The last player in wins the
    pot (K7). Whoever should begin but is out hands on to the next
    player still in (C2).
 8. A turn timer that runs out is a slash; three slashes, a berry (K8).
 9. Option high_rollers (K9): once per game, a player about to go out
    may pay the pot's sum into the pot and stay in with four berries.
"""

    def __init__(
        self, seats: SupportsIndex | None = None, options: Mapping[str, object] | None = None
    ):
        super().__init__(seats, options)
        first = self.options["first_roller"]
        if first != "roll-off" and int(first) >= self.seats:
            raise OptionError(
                f"option 'first_roller' must be roll-off or a seat from 0 to {self.seats - 1}; "
                f"got {first!r}"
            )

    def new_state(self, record: bool = False) -> KarikiState:
        return KarikiState(self, record)


@mypyc_attr(allow_interpreted_subclasses=True)
class KarikiState(State):
    __slots__ = (
        "after_kariki_roller",
        "at_least",
        "beginner",
        "berries",
        "berries_out",
        "berries_poo",
        "buy_in",
        "claim",
        "crowns",
        "dice_rank",
        "die1",
        "die2",
        "emergency_used",
        "first_berry",
        "first_roller",
        "game",
        "high_rollers",
        "in_count",
        "last_shown",
        "log",
        "n",
        "one_round",
        "out",
        "owner",
        "paid",
        "passed",
        "pending_out",
        "phase",
        "pot",
        "previous_claim",
        "responder",
        "roll_off_faces",
        "roll_off_next",
        "roll_off_seats",
        "roller",
        "slashes",
        "slashes_on",
        "step",
        "throws_left",
        "throws_per_round",
    )

    def __init__(self, game: Game, record: bool) -> None:
        options = game.options
        n = game.seats
        self.game = game
        self.log = [] if record else None
        self.n = n
        self.at_least = options["pull"] == "at-least"
        self.after_kariki_roller = options["after_kariki"] == "roller"
        self.high_rollers = bool(options["high_rollers"])
        self.slashes_on = bool(options["slashes"])
        self.buy_in = int(options["buy_in"])
        self.berries_out = int(options["berries"])
        self.berries_poo = self.berries_out - 1 if self.berries_out > 1 else -1  # no poo at 1
        self.one_round = bool(options["one_round"])
        self.first_berry = -1  # who got the game's first berry (one-round Kariki's loser)
        self.throws_per_round = int(options["throws"]) or -1  # -1: no limit
        self.throws_left = self.throws_per_round
        self.step = 1  # +1 left (increasing seat numbers), -1 right
        self.berries = [0] * n
        self.crowns = [0] * n
        self.slashes = [0] * n
        self.out = [False] * n
        self.in_count = n
        self.emergency_used = [False] * n
        self.paid = [self.buy_in] * n  # K1: everyone buys in
        self.pot = self.buy_in * n
        self.phase = ROLL_OFF
        self.roll_off_seats = list(range(n))
        self.roll_off_faces: list[int | None] = [None] * n
        self.roll_off_next = 0
        self.first_roller = -1
        # The mug. Seats and ranks are -1 when there is none.
        self.roller = -1  # who throws now, or threw the dice under the mug
        self.die1 = 0  # the dice under the mug (0: none), seen by the roller alone
        self.die2 = 0
        self.dice_rank = -1
        self.claim = -1  # the claim on the table; while rolling higher, the one to beat
        self.previous_claim = -1  # the claim it followed
        self.owner = -1  # the claim's owner: its thrower, or the last to pass it (K5)
        self.responder = -1  # whose choice it is: the next player after the owner
        self.passed: list[int] = []  # who passed this claim, in order (K6)
        # Berries settled: those about to go out decide on an emergency berry
        # (K9) in order, then `beginner` (or the next player still in) throws.
        self.pending_out: list[int] = []
        self.beginner = -1
        # The last dice shown to all: a, b, thrower, "kariki" or "pull", and for a pull
        # the claim (-1 for a Kariki), the claim it followed, the puller; who got the berry.
        self.last_shown: tuple[Any, ...] | None = None
        if self.log is not None:
            self.emit("buy-in", f"everyone pays {self.buy_in} into the pot", pot=self.pot)
        first = options["first_roller"]
        if first != "roll-off":  # research variant: no roll-off
            self.first_roller = self.roller = int(first)
            self.roll_off_seats = []
            self.phase = DIRECTION

    # --- whose move ------------------------------------------------------------------

    def actors(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == RESPOND:
            return SEAT_TUPLES[self.responder]
        if phase in (CLAIM, DIRECTION):
            return SEAT_TUPLES[self.roller]
        if phase == EMERGENCY:
            return SEAT_TUPLES[self.pending_out[0]]
        return ()

    def is_chance(self) -> bool:
        return self.phase <= THROW

    def chance_dice(self) -> Throw:
        return TWO_DICE if self.phase == THROW else ONE_DIE

    def legal_actions(self, seat: int) -> Sequence[Mapping[str, Any]]:
        phase = self.phase
        if phase == RESPOND:
            if seat != self.responder:
                return NOTHING
            if seat == self.roller:
                return PULL_PASS
            if self.throws_left == 0:  # research variant: no more throws this round
                return PULL_ONLY if seat in self.passed else PULL_PASS
            return ROLL_PULL if seat in self.passed else ROLL_PULL_PASS
        if phase == CLAIM:
            return CLAIMS_ABOVE[self.claim + 1] if seat == self.roller else NOTHING
        if phase == DIRECTION:
            return DIRECTIONS if seat == self.roller else NOTHING
        if phase == EMERGENCY:
            return EMERGENCY_CHOICES if seat == self.pending_out[0] else NOTHING
        return NOTHING

    def why_illegal(self, seat: int, action: object) -> str | None:
        if not isinstance(action, Mapping):
            return "an action is a JSON object with a type"
        kind = action.get("type")
        if kind == "roll" and self.phase == RESPOND and seat == self.roller:
            return "the thrower of a claim may pull or pass when it comes back, not roll (K6)"
        if kind == "pass" and self.phase == RESPOND and seat in self.passed:
            return "you already passed this claim: roll higher or pull (K6)"
        if kind == "claim" and self.phase == CLAIM:
            rank_id = action.get("rank")
            rank = RANK_OF_ID.get(rank_id) if isinstance(rank_id, str) else None
            if rank is None:
                return f"ranks are {', '.join(RANK_IDS[:KARIKI])}"
            if rank == KARIKI:
                return "a Kariki is shown, never claimed (K4)"
            if rank <= self.claim:
                return f"a claim must beat {RANK_NAMES[self.claim]} (K4)"
        return None

    def default_action(self, seat: int) -> Mapping[str, Any]:
        """What the table does for an absent seat (K8): a cautious move blind to the dice (C6)."""
        phase = self.phase
        if phase == CLAIM:
            return CLAIM_ACTIONS[self.claim + 1]
        if phase == RESPOND:
            legal = self.legal_actions(seat)
            return PASS if PASS in legal else PULL
        if phase == EMERGENCY:
            return DECLINE
        return LEFT

    def declared_shown(self, step: Mapping[str, Any]) -> Sequence[ThrowShown] | None:
        """What a step shows, as the rules say (C5, K3-K5, C6), so that a sealed table
        need not find it by replay: a roll-off's die and a Kariki to everyone at once;
        any other throw to its roller alone, under the mug or failing to beat Double
        Sixes (whose only public trace, "not a Kariki", the other 33 throws share); a
        pull, a seat's or a timed-out seat's, lifts the mug and shows the latest throw,
        the dice under it, to everyone. Nothing else shows a throw: rolling higher
        takes the dice away unseen, a claim dropped by a slash's berry (K8) is never
        checked, and no view or legal action depends on the dice under the mug but the
        roller's own. tests/test_shown_declared.py holds this to the replay."""
        if "chance" in step:
            if self.phase != THROW:
                return SHOWN_TO_ALL  # C5: the roll-off's die is thrown in the open
            faces = step["chance"]
            if RANK[faces[0]][faces[1]] == KARIKI:
                return SHOWN_TO_ALL  # K3
            return SHOWN_TO_SEAT[self.roller]  # K4, K5: seen by the roller alone
        if step.get("timeout") is True:  # K8: a pull, where the table pulls for the seat
            after = self.clone()
            after.timeout(step["seat"])
            return SHOWN_TO_ALL if after.last_shown is not self.last_shown else SHOWN_TO_NOBODY
        action = step.get("action")
        if isinstance(action, Mapping) and action.get("type") == "pull":
            return SHOWN_TO_ALL  # K5: the mug lifted
        return SHOWN_TO_NOBODY  # a claim, a pass, a roll higher, an entropy record

    # --- steps -----------------------------------------------------------------------

    def _apply(self, seat: int, action: Mapping[str, Any]) -> None:
        kind = action["type"]
        if kind == "roll":  # K5: take the mug blind and throw
            self.roller = seat
            self.die1 = self.die2 = 0
            self.dice_rank = -1
            self.phase = THROW
            if self.log is not None:
                self.emit("roll", f"seat {seat} rolls higher", seat=seat)
        elif kind == "pass":  # K5: accept the claim as if thrown; the choice moves on
            self.passed.append(seat)
            self.owner = seat
            self.responder = self._next_in(seat)
            if self.log is not None:
                self.emit("pass", f"seat {seat} passes", seat=seat)
        elif kind == "pull":
            self._pull(seat)
        elif kind == "claim":
            self.previous_claim = self.claim
            self.claim = RANK_OF_ID[action["rank"]]
            self.owner = seat
            self.passed = []
            self.responder = self._next_in(seat)
            self.phase = RESPOND
            if self.log is not None:
                name = RANK_NAMES[self.claim]
                self.emit("claim", f"seat {seat} claims {name}", seat=seat, rank=action["rank"])
        elif kind == "direction":  # K1
            self.step = 1 if action["way"] == "left" else -1
            self.phase = THROW
            if self.log is not None:
                way = action["way"]
                self.emit("direction", f"seat {seat} sends play {way}", seat=seat, way=way)
        else:
            self._decide_emergency(seat, kind == "emergency")

    def _apply_chance(self, faces: Faces) -> None:
        if self.phase == THROW:
            self._throw(int(faces[0]), int(faces[1]))
        else:
            self._roll_off(int(faces[0]))

    def _roll_off(self, face: int) -> None:
        """C5: one die per contender in seat order; those tied for highest throw again."""
        seat = self.roll_off_seats[self.roll_off_next]
        self.roll_off_faces[seat] = face
        self.roll_off_next += 1
        if self.log is not None:
            self.emit("roll-off", f"seat {seat} throws {face}", seat=seat, face=face)
        if self.roll_off_next < len(self.roll_off_seats):
            return
        best = max(f for f in self.roll_off_faces if f is not None)
        top = [s for s in self.roll_off_seats if self.roll_off_faces[s] == best]
        self.roll_off_faces = [None] * self.n
        self.roll_off_next = 0
        if len(top) > 1:
            self.roll_off_seats = top
            if self.log is not None:
                self.emit("roll-off-tie", f"{seat_list(top)} tie and throw again", seats=top)
            return
        self.first_roller = self.roller = top[0]
        self.roll_off_seats = []
        self.phase = DIRECTION
        if self.log is not None:
            self.emit("first-roller", f"seat {top[0]} rolls first", seat=top[0])

    def _throw(self, a: int, b: int) -> None:
        roller = self.roller
        self.throws_left -= 1  # below zero for ever without a limit
        rank = RANK[a][b]
        if rank == KARIKI:
            self._kariki(roller, a, b)
        elif self.claim == DOUBLE_SIXES:  # K5: only a Kariki beats Double Sixes
            if self.log is not None:
                to = frozenset({roller})
                self.emit("throw", f"you threw {a}-{b}", to=to, seat=roller, dice=[a, b])
                self.emit("no-kariki", f"seat {roller} fails to beat Double Sixes", seat=roller)
            after = self._next_in(roller)
            self._berry(roller, "failed to beat Double Sixes")
            self._begin_after_berries(after)
        else:
            self.die1 = a
            self.die2 = b
            self.dice_rank = rank
            self.phase = CLAIM
            if self.log is not None:
                to = frozenset({roller})
                self.emit("throw", f"you threw {a}-{b}", to=to, seat=roller, dice=[a, b])
                self.emit("mug", f"seat {roller} throws under the mug", seat=roller)

    def _kariki(self, roller: int, a: int, b: int) -> None:
        """K3: shown at once; a crown, a berry to the next player; every third crown more."""
        victim = self._next_in(roller)
        self.crowns[roller] += 1
        self.last_shown = (a, b, roller, "kariki", -1, -1, None, victim)
        if self.log is not None:
            crowns = self.crowns[roller]
            third = ": a berry for everyone else" if crowns % 3 == 0 else ""
            text = f"seat {roller} throws KARIKI! Crown {crowns}{third}"
            self.emit("kariki", text, seat=roller, dice=[a, b], crowns=crowns)
        self._berry(victim, "Kariki")
        if self.crowns[roller] % 3 == 0:
            seat = victim
            while seat != roller:
                self._berry(seat, "third crown")
                seat = self._next_in(seat)
        self._begin_after_berries(roller if self.after_kariki_roller else victim)

    def _pull(self, puller: int) -> None:
        """K5: lift the mug; the loser gets the berry, the other begins a fresh roll."""
        owner = self.owner
        rank = self.dice_rank
        true = rank >= self.claim if self.at_least else rank == self.claim
        loser, beginner = (puller, owner) if true else (owner, puller)
        self.last_shown = (
            *(self.die1, self.die2, self.roller, "pull"),
            *(self.claim, self.previous_claim, puller, loser),
        )
        if self.log is not None:
            dice = [self.die1, self.die2]
            verdict = "true" if true else "a lie"
            self.emit(
                "pull",
                f"seat {puller} pulls: {dice[0]}-{dice[1]}, the claim was {verdict}",
                seat=puller,
                owner=owner,
                dice=dice,
                claim=RANK_IDS[self.claim],
                true=true,
            )
        self._berry(loser, "false accusation" if true else "caught lying")
        self._begin_after_berries(beginner)

    def _decide_emergency(self, seat: int, buy: bool) -> None:
        """K9: pay the pot's sum into the pot and stay in with four berries, or go out."""
        self.pending_out.pop(0)
        if buy:
            price = self.pot
            self.paid[seat] += price
            self.pot += price
            self.berries[seat] = max(self.berries_poo, 0)
            self.emergency_used[seat] = True
            if self.log is not None:
                self.emit(
                    "emergency", f"seat {seat} buys an emergency berry", seat=seat, paid=price
                )
        else:
            self._go_out(seat)
        if not self.pending_out:
            self._begin_after_berries(self.beginner)

    def _timeout(self, seat: int) -> None:
        """K8: a slash (option slashes), then the table's default move for the seat."""
        if self.slashes_on:
            self.slashes[seat] += 1
            if self.log is not None:
                self.emit("slash", f"seat {seat} runs out of time: a slash", seat=seat)
            if self.slashes[seat] % 3 == 0 and self.phase != EMERGENCY:
                self._berry(seat, "three slashes", may_buy=False)
                if self.out[seat]:  # out on their own turn: the next player begins afresh
                    self._begin_after_berries(self._next_in(seat))
                    return
        self._apply(seat, self.default_action(seat))

    # --- berries, going out, the next roll -------------------------------------------

    def _berry(self, seat: int, why: str, may_buy: bool = True) -> None:
        berries = self.berries[seat] + 1
        if berries > self.berries_out:
            return  # already about to go out
        self.berries[seat] = berries
        if self.first_berry < 0:
            self.first_berry = seat
        if self.log is not None:
            self.emit("berry", f"seat {seat} gets a dingle berry ({why})", seat=seat, why=why)
        if berries == self.berries_out:
            if (
                may_buy
                and self.high_rollers
                and not self.emergency_used[seat]
                and not self.one_round
            ):
                self.pending_out.append(seat)  # K9: a choice before going out
            else:
                self._go_out(seat)
        elif berries == self.berries_poo and self.log is not None:
            self.emit("poo", f"seat {seat} is in the poo", seat=seat)

    def _go_out(self, seat: int) -> None:
        self.out[seat] = True
        self.in_count -= 1
        if self.log is not None:
            self.emit("out", f"seat {seat} is out", seat=seat)

    def _begin_after_berries(self, beginner: int) -> None:
        """After berries: emergency choices first, then the game ends or a fresh roll begins.

        A beginner who is out hands the mug to the next player still in (C2).
        """
        if self.pending_out:
            self.beginner = beginner
            self.phase = EMERGENCY
            return
        self.die1 = self.die2 = 0
        self.dice_rank = -1
        self.claim = self.previous_claim = -1
        self.owner = self.responder = -1
        self.passed = []
        self.throws_left = self.throws_per_round
        if self.one_round:  # research variant: the first berry ends the game
            self.phase = OVER
            self.roller = -1
            if self.log is not None:
                loser = self.first_berry
                self.emit("lose", f"seat {loser} got the berry and pays everyone", seat=loser)
            return
        if self.in_count == 1:
            self.phase = OVER
            self.roller = -1
            if self.log is not None:
                winner = self.out.index(False)
                self.emit("win", f"seat {winner} wins the pot of {self.pot}", seat=winner)
            return
        self.roller = beginner if not self.out[beginner] else self._next_in(beginner)
        self.phase = THROW

    def _next_in(self, seat: int) -> int:
        """The next seat in the direction of play that is still in (C2)."""
        n, step, out = self.n, self.step, self.out
        seat = (seat + step) % n
        while out[seat]:
            seat = (seat + step) % n
        return seat

    # --- what players see ------------------------------------------------------------

    def view(self, seat: int | None) -> View:
        phase = self.phase
        over = phase == OVER
        under_mug = phase in (CLAIM, RESPOND)
        in_play = phase in (THROW, CLAIM, RESPOND)
        view: View = {
            "game": self.game.id,
            "seat": seat,
            "actors": list(self.actors()),
            "over": over,
            "phase": PHASE_NAMES[phase],
            "rank_names": dict(zip(RANK_IDS, RANK_NAMES, strict=True)),
            "pot": self.pot,
            "buy_in": self.buy_in,
            "berries_out": self.berries_out,
            "one_round": self.one_round,
            "paid": list(self.paid),
            "berries": list(self.berries),
            "crowns": list(self.crowns),
            "slashes": list(self.slashes),
            "out": list(self.out),
            "in_the_poo": [
                b == self.berries_poo and not o for b, o in zip(self.berries, self.out, strict=True)
            ],
            "emergency_used": list(self.emergency_used),
            "direction": None
            if phase in (ROLL_OFF, DIRECTION)
            else "left"
            if self.step == 1
            else "right",
            "first_roller": None if self.first_roller < 0 else self.first_roller,
            "roller": None if self.roller < 0 else self.roller,
            "claim": RANK_IDS[self.claim] if in_play and self.claim >= 0 else None,
            "previous_claim": (
                RANK_IDS[self.previous_claim]
                if phase == RESPOND and self.previous_claim >= 0
                else None
            ),
            "claim_owner": self.owner if in_play and self.claim >= 0 else None,
            "pass_chain": list(self.passed) if phase == RESPOND else [],
            "responder": self.responder if phase == RESPOND else None,
            "your_dice": (
                [self.die1, self.die2]
                if under_mug and seat is not None and seat == self.roller
                else None
            ),
            "may_roll": phase == RESPOND and ROLL in self.legal_actions(self.responder),
            "may_pass": phase == RESPOND and PASS in self.legal_actions(self.responder),
            "last_shown": self._last_shown_json(),
        }
        if phase == ROLL_OFF:
            view["roll_off"] = {
                "contenders": list(self.roll_off_seats),
                "throws": list(self.roll_off_faces),
            }
        if phase == EMERGENCY:
            view["deciding"] = self.pending_out[0]
            view["emergency_price"] = self.pot
        if over:
            view["winner"] = self.result().winners[0]
            view["result"] = self.result().to_json()
        return view

    def _last_shown_json(self) -> dict[str, Any] | None:
        if self.last_shown is None:
            return None
        a, b, thrower, how, claim, previous, puller, berry_to = self.last_shown
        return {
            "dice": [a, b],
            "rank": RANK_IDS[RANK[a][b]],
            "thrower": thrower,
            "how": how,
            "claim": None if claim < 0 else RANK_IDS[claim],
            "previous_claim": None if previous < 0 else RANK_IDS[previous],
            "puller": puller,
            "berry_to": berry_to,
        }

    def result(self) -> Result:
        if self.one_round:
            loser = self.first_berry
            net = tuple(
                -self.buy_in * (self.n - 1) if seat == loser else self.buy_in
                for seat in range(self.n)
            )
            winners = tuple(seat for seat in range(self.n) if seat != loser)
            detail = {"loser": loser, "berries": list(self.berries), "crowns": list(self.crowns)}
            return Result(winners, net, "stakes", detail)
        winner = self.out.index(False)
        net = tuple(
            (self.pot if seat == winner else 0) - paid for seat, paid in enumerate(self.paid)
        )
        detail = {"pot": self.pot, "berries": list(self.berries), "crowns": list(self.crowns)}
        return Result((winner,), net, "stakes", detail)

    def conserved(self) -> Mapping[str, int]:
        """C4: what the players paid is in the pot, and nobody else's."""
        return {"money": sum(self.paid) - self.pot}

    # --- copies ----------------------------------------------------------------------

    def clone(self) -> KarikiState:
        new = self.shallow_copy()
        new.log = None
        new.berries = self.berries[:]
        new.crowns = self.crowns[:]
        new.slashes = self.slashes[:]
        new.out = self.out[:]
        new.emergency_used = self.emergency_used[:]
        new.paid = self.paid[:]
        new.roll_off_seats = self.roll_off_seats[:]
        new.roll_off_faces = self.roll_off_faces[:]
        new.passed = self.passed[:]
        new.pending_out = self.pending_out[:]
        return new

    def resample_hidden(self, seat: int | None, rng: random.Random) -> KarikiState:
        """Only the dice under the mug are hidden, from everyone but their thrower."""
        new = self.clone()
        if self.phase in (CLAIM, RESPOND) and seat != self.roller:
            a, b = HIDDEN_THROWS[rng.randrange(len(HIDDEN_THROWS))]
            new.die1, new.die2, new.dice_rank = a, b, RANK[a][b]
        return new
