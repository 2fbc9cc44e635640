"""Tao Dice: hidden 2d6, a public d12, two stages of betting with stones.

A game is a series of matches; a match is a series of rounds; a match ends
when one player holds all the stones (D10), and the token (D12) decides when
the game ends. A round runs, top to bottom:

    ante (D2)  ->  throw 2d6, hidden  ->  betting, stage one (D3, D4)
      ->  rerolls of the 2d6 for white stones (D5)  ->  throw the d12, shown (D6)
      ->  betting, stage two  ->  rerolls of the d12  ->  showdown (D8)

A fold that leaves one player in ends the round at once (D7); a tie at the
showdown starts a tie-break round for the tied players without an ante (D9).

Actions (k is the number of white stones among the stones paid; only the
colour splits the player can pay are legal):

    {"type": "ante", "white": k}    the ante of m stones (D2; all one has if fewer)
    {"type": "pass"}                 no raise, while nobody has raised (D3)
    {"type": "raise", "white": k}    the one raise of the stage: m stones (D3, D4)
    {"type": "call", "white": k}     after a raise: m stones, or what one has (D4);
                                     a player with no stones calls with k = 0, paying nothing
    {"type": "fold"}                 leave the round; one's stones stay in the pot (D7)

Interpretations where the rulings leave room:

- All throws of a step (2d6, d12, rerolls) are made one player at a time, in
  seat order; antes are paid clockwise from the opener.
- The token changes hands in every game length, so the last match winner
  opens; it decides the end of the game only with length=token.
- A player left with no stones after a round that ends in a tie, and who is
  not in the tie-break, is out at once, so the tie-break's bid unit counts them.
- Research variant `length=round`: the game is one round (with its
  tie-breaks, D9); whoever takes the pot wins, and `net` counts the stones
  then.
- Research variant `tiebreaks=N` (default -1: no limit): a round allows N
  tie-break rounds (D9); a tie at the showdown after the last of them is
  settled by lot, a chance throw of one die whose faces are the tied
  seats: the seat it names takes the whole pot (phase "lot"). Each tied
  player's expected share is the pot over the tied players, the even split,
  and every outcome moves whole stones, so the game stays zero-sum; the
  players who folded or sat out lose what they put in, as under D9. With
  `length=round` this bounds the game, so exact methods can walk it.
- Research variants `hidden_faces=K` (2-6) and `shown_faces=K` (2-12):
  the hidden dice and the shown die have faces 1..K; `black_stones` (0-4)
  and `white_stones` (0-2), at least one stone in all: the stones each
  player starts a match with (D1), `net` counted from them. They make the
  game small (docs/researchers/environments.md).
- Result: `net` is each seat's stones at the end of the final match minus the
  6 it started that match with (zero-sum, in stones); `matches_won` in detail.

The view (`view(seat)`), JSON, keys:

    game, seat, actors, over, result (when over)
    phase         "opener" (the throw that picks the first player), "ante",
                  "throw" (2d6), "bet", "reroll", "d12", "over"
    stage         1 or 2: the stage of betting, rerolls and throws
    match, round  match number (from 1), round number in the match (from 1)
    tiebreak      how many tie-break rounds this round has had so far (D9)
    m             the bid unit (D11)
    length        the game length option: "token", "single", "two" or "round"
    first_player  the first player of the game (null until thrown)
    opener        the player who opens the stage's betting (null before the first round)
    raiser        who raised in this stage, or null
    token         {"holder": seat or null, "side": "silver", "gold" or null (two players)}
    matches_won   per seat
    pot           {"black": n, "white": n}
    players       per seat: {"seat", "black", "white", "status", "d12", "bet",
                  "paid", "must_reroll", "dice"}; status is "in", "folded",
                  "sitting out" (of a tie-break) or "out" (of the match); d12 is
                  null until thrown; bet is the stage's betting action so far
                  ("pass", "raise", "call", "fold" or null); paid is
                  {"black", "white"} put in during this stage; dice is the
                  player's own 2d6, shown only to that player (null to others)
    bets          the betting of this round (or tie-break round) so far, public: one
                  {"stage", "seat", "type", "black", "white"} per pass, raise, call or
                  fold, with the stones it paid
    showdown      the last showdown of this game, public: {"match", "round",
                  "players": [{"seat", "dice", "d12", "total"}], "top": seats
                  with the highest total}, or null
    winner        the seat that won the game, or null
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Self, SupportsIndex

from mypy_extensions import mypyc_attr

from dicehall.core import D6, D12, Action, Faces, Game, Option, OptionError, Result, State, View
from dicehall.core.chance import Throw

START_BLACK = 4
START_WHITE = 2
START_STONES = START_BLACK + START_WHITE
MAX_BID = 3  # m never exceeds 3 (D11: six players, four out)

# Phases. The chance phases are the ones in CHANCE_PHASES.
OPENER = "opener"
ANTE = "ante"
THROW = "throw"
BET = "bet"
REROLL = "reroll"
THROW_D12 = "d12"
OVER = "over"
LOT = "lot"  # research variant tiebreaks: a tie past the last tie-break is settled by lot
CHANCE_PHASES = frozenset({OPENER, THROW, REROLL, THROW_D12, LOT})

TWO_D6: Throw = (D6, D6)
ONE_D12: Throw = (D12,)
NO_LIMIT = -1  # the option tiebreaks' default: tie-breaks go on until one is highest (D9)
RESEARCH_DICE = {"hidden_faces": len(D6), "shown_faces": len(D12)}
"""The options that shrink the dice, at their defaults (the real dice)."""
RESEARCH_STONES = {"black_stones": START_BLACK, "white_stones": START_WHITE}
"""The options that change the stones a match starts with, at their defaults (D1)."""
NO_DICE = (0, 0)

# Shared action constants: legal_actions hands these out and never allocates.
PASS: Action = {"type": "pass"}
FOLD: Action = {"type": "fold"}
ANTES: tuple[Action, ...] = tuple({"type": "ante", "white": k} for k in range(MAX_BID + 1))
RAISES: tuple[Action, ...] = tuple({"type": "raise", "white": k} for k in range(MAX_BID + 1))
CALLS: tuple[Action, ...] = tuple({"type": "call", "white": k} for k in range(MAX_BID + 1))
PASS_ONLY: tuple[Action, ...] = (PASS,)
GRATIS_CALL: tuple[Action, ...] = (CALLS[0], FOLD)  # D4: stay in without paying, or fold

SPLITS = [(lo, hi) for lo in range(MAX_BID + 1) for hi in range(lo, MAX_BID + 1)]
ANTE_CHOICES = {(lo, hi): ANTES[lo : hi + 1] for lo, hi in SPLITS}
OPEN_CHOICES = {(lo, hi): (PASS, *RAISES[lo : hi + 1]) for lo, hi in SPLITS}
CALL_CHOICES = {(lo, hi): (*CALLS[lo : hi + 1], FOLD) for lo, hi in SPLITS}

ANTE_KIND, OPEN_KIND, CALL_KIND = range(3)
MAX_STONES = 6 * START_STONES
CLAMP = tuple(min(stones, MAX_BID) for stones in range(MAX_STONES + 1))
"""Stones of one colour beyond MAX_BID change no choice: CLAMP[n] stands for n."""


def _choices(kind: int, m: int, black: int, white: int) -> tuple[Action, ...]:
    """The legal actions of a seat with `black` and `white` stones at bid unit `m`."""
    pay = min(m, black + white)  # D2, D4: m, or all one has
    if pay == 0:  # D4: no stones, so no raise; stay in for free or fold
        return GRATIS_CALL if kind == CALL_KIND else PASS_ONLY
    split = (max(0, pay - black), min(white, pay))
    return (ANTE_CHOICES, OPEN_CHOICES, CALL_CHOICES)[kind][split]


CHOICES = tuple(
    tuple(
        tuple(
            tuple(_choices(kind, m, black, white) for white in range(MAX_BID + 1))
            for black in range(MAX_BID + 1)
        )
        for m in range(MAX_BID + 1)
    )
    for kind in range(3)
)
"""CHOICES[kind][m][CLAMP[black]][CLAMP[white]]: `_choices`, built once for the hot path."""

SEAT_TUPLES = tuple((s,) for s in range(6))

Shown = tuple[int, int, int, int, int]
"""One player at a showdown: seat, the two d6, the d12, the total."""
Showdown = tuple[int, int, tuple[Shown, ...], tuple[int, ...]]
"""The last showdown: match, round, the players shown, the seats tied for highest."""


@cache
def clockwise_orders(n: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, every seat clockwise starting from it (C2)."""
    return tuple(tuple((start + i) % n for i in range(n)) for start in range(n))


@cache
def seat_die(n: int) -> Throw:
    """D3: the throw that picks the first player, one die whose faces are the seats."""
    return (tuple(range(n)),)


def bid_unit(seats: int, out: int) -> int:
    """D11: m = 1 + floor(players out / 2) in matches that began with four or more."""
    return 1 + out // 2 if seats >= 4 else 1


def stones_in_words(black: int, white: int) -> str:
    parts = [f"{count} {colour}" for count, colour in ((black, "black"), (white, "white")) if count]
    return " + ".join(parts) or "nothing"


@mypyc_attr(allow_interpreted_subclasses=True)
class TaoDice(Game):
    id = "tao"
    name = "Tao Dice"
    min_seats = 2
    max_seats = 6
    default_seats = 4
    declared_options = (
        Option(
            "length",
            "token",
            "how long the game lasts (D12): token, single (one match), two (first to two), "
            "or round (research variant: one round and its tie-breaks)",
            choices=("token", "single", "two", "round"),
            label="Game length",
            choice_words=(
                "the token (the full game)",
                "one match",
                "first to two matches",
                "one round (research variant)",
            ),
        ),
        Option(
            "opener",
            "random",
            "the first player of the game (D3): random, or a seat number",
            choices=("random", "0", "1", "2", "3", "4", "5"),
            allowed_words="random or a seat number from 0 (the first seat) to one less than "
            "the seats",
            label="First player",
            choice_words=("roll for it", *(f"seat {seat + 1}" for seat in range(6))),
            seat_choice="random",
        ),
        # Research variants: small games that exact methods reach
        # (docs/researchers/environments.md).
        Option(
            "tiebreaks",
            NO_LIMIT,
            "research variant of D9: tie-break rounds a round allows (-1: no limit); a tie "
            "after the last is settled by lot, a die whose faces are the tied seats naming "
            "who takes the pot",
            minimum=NO_LIMIT,
            maximum=20,
            label="Tie-break rounds a round allows (-1: no limit)",
            advanced=True,
        ),
        Option(
            "black_stones",
            START_BLACK,
            "research variant of D1: the black stones each player starts a match with",
            minimum=0,
            maximum=START_BLACK,
            label="Black stones at the start",
            advanced=True,
        ),
        Option(
            "white_stones",
            START_WHITE,
            "research variant of D1: the white stones each player starts a match with",
            minimum=0,
            maximum=START_WHITE,
            label="White stones at the start",
            advanced=True,
        ),
        Option(
            "hidden_faces",
            len(D6),
            "research variant of D2: the faces of each hidden die, numbered from 1",
            minimum=2,
            maximum=len(D6),
            label="Faces of each hidden die",
            advanced=True,
        ),
        Option(
            "shown_faces",
            len(D12),
            "research variant of D6: the faces of the shown die, numbered from 1",
            minimum=2,
            maximum=len(D12),
            label="Faces of the shown die",
            advanced=True,
        ),
    )
    summary = (
        "Bet stones on hidden 2d6 plus a public d12; white stones buy rerolls. "
        "Win all the stones to win a match, and the token to win the game."
    )
    rules = """\
Two to six players. Each match, everyone starts with 4 black and 2 white
stones; stones keep their colour (D1). A round:
 1. Everyone with stones antes the bid unit m, in any colours (D2), and
    throws two d6 hidden in a tube.
 2. Betting (D3), clockwise from the opener: the token holder; before
    anyone holds it, the first player of the game; if that player is not
    in the round, the next player in it. Each passes or raises; the first
    raise ends the passing, and everyone else in, clockwise from the
    raiser, calls or folds. One raise per stage; a raise or call is m
    stones. With fewer than m one pays what one has; with none, one
    stays in free and cannot raise (D4).
 3. Whoever put a white stone into a raise or call rerolls the two d6,
    once, after the betting (D5).
 4. Everyone still in throws a d12 for all to see; betting as in 2; a
    white stone rerolls the d12 (D6).
 5. Showdown: 2d6 + d12, the highest takes the whole pot and everyone in
    shows (D8); the tied players play a tie-break round for it, without
    an ante, until one is highest (D9).
A fold leaves one's stones in the pot and one's dice hidden; the last
player in takes the pot at once (D7). A player with no stones after a
round is out of the match; the match ends when one player holds every
stone (D10). With four or more players, m = 1 + floor(players out / 2),
and one reroll however many white stones a bid holds (D11).
Token (D12): with two players a match winner takes the token, or wins
the game already holding it; with three or more the winner takes it
silver side up, turns silver to gold, or wins the game holding gold.
Options: length=token (default), single (one match) or two (first to
two matches); opener=random (default) or a seat number. Under the
shorter lengths the token still changes hands as above and still names
the opener (D3, D12); only the end of the game differs.
"""

    def __init__(
        self, seats: SupportsIndex | None = None, options: Mapping[str, object] | None = None
    ):
        super().__init__(seats, options)
        opener = self.options["opener"]
        if opener != "random" and int(opener) >= self.seats:
            raise OptionError(
                f"option 'opener' must be random or a seat from 0 to {self.seats - 1}; "
                f"got {opener!r}"
            )
        if int(self.options["black_stones"]) + int(self.options["white_stones"]) == 0:
            raise OptionError(
                "options 'black_stones' and 'white_stones' must leave each player at least "
                "one stone; got 0 and 0"
            )

    def new_state(self, record: bool = False) -> TaoState:
        return TaoState(self, record)

    def small_dice(self) -> str:
        """The options that shrink the dice, as NAME=VALUE, or "" with the real dice."""
        return self.varied(RESEARCH_DICE)

    def varied(self, defaults: Mapping[str, object]) -> str:
        """The options among `defaults` not at their default, as NAME=VALUE, or ""."""
        return ", ".join(
            f"{name}={self.options[name]}"
            for name, default in defaults.items()
            if self.options[name] != default
        )


@mypyc_attr(allow_interpreted_subclasses=True)
class TaoState(State):
    def __init__(self, game: TaoDice, record: bool) -> None:
        self.game = game
        self.log = [] if record else None
        n = game.seats
        self.n = n
        self.orders = clockwise_orders(n)
        self.seat_die = seat_die(n)
        self.length = str(game.options["length"])
        self.start_black = int(game.options["black_stones"])  # D1, or a research variant
        self.start_white = int(game.options["white_stones"])
        # Research variants: the tie-breaks a round allows, the dice's faces.
        self.tiebreaks_max = int(game.options["tiebreaks"])
        self.hidden_faces = int(game.options["hidden_faces"])
        shown = int(game.options["shown_faces"])
        small = tuple(range(1, self.hidden_faces + 1))
        self.two_d6: Throw = TWO_D6 if self.hidden_faces == len(D6) else (small, small)
        self.one_d12: Throw = ONE_D12 if shown == len(D12) else (tuple(range(1, shown + 1)),)
        self.lot: Throw = ()  # the lot's die: one face per tied seat
        # Match: stones by colour, the pot, who is out, the bid unit.
        self.black = [self.start_black] * n
        self.white = [self.start_white] * n
        self.pot_black = 0
        self.pot_white = 0
        self.out = [False] * n
        self.m = 1
        # Round: who is in, their dice, the stage's bets.
        self.in_round = [False] * n
        self.folded = [False] * n
        self.dice = [NO_DICE] * n
        self.d12 = [0] * n
        self.bet = [""] * n
        self.paid_black = [0] * n
        self.paid_white = [0] * n
        self.must_reroll = [False] * n
        self.bets: list[tuple[int, int, str, int, int]] = []  # stage, seat, type, black, white
        self.phase = OPENER
        self.stage = 1
        self.queue: list[int] = []  # seats to act or throw in this phase, in order
        self.pos = 0  # index of the next one in queue
        self.raiser = -1
        self.opener = -1
        # Game: first player, token, score.
        self.first_player = -1
        self.token_holder = -1
        self.token_gold = False
        self.matches_won = [0] * n
        self.match_no = 1
        self.round_no = 1
        self.tiebreak = 0
        self.showdown: Showdown = (0, 0, (), ())  # none yet
        self.winner = -1
        opener = game.options["opener"]
        if opener != "random":
            self.first_player = int(opener)
            self._start_match()

    # --- whose turn --------------------------------------------------------------

    def actors(self) -> tuple[int, ...]:
        if self.phase == ANTE or self.phase == BET:
            return SEAT_TUPLES[self.queue[self.pos]]
        return ()

    def is_chance(self) -> bool:
        return self.phase in CHANCE_PHASES

    def chance_dice(self) -> Throw:
        phase = self.phase
        if phase == THROW or (phase == REROLL and self.stage == 1):
            return self.two_d6
        if phase in (THROW_D12, REROLL):
            return self.one_d12
        if phase == OPENER:
            return self.seat_die
        if phase == LOT:
            return self.lot
        return ()

    def legal_actions(self, seat: int) -> Sequence[Action]:
        if not (self.phase == ANTE or self.phase == BET) or self.queue[self.pos] != seat:
            return ()
        kind = ANTE_KIND if self.phase == ANTE else OPEN_KIND if self.raiser < 0 else CALL_KIND
        return CHOICES[kind][self.m][CLAMP[self.black[seat]]][CLAMP[self.white[seat]]]

    def why_illegal(self, seat: int, action: object) -> str | None:
        legal = self.legal_actions(seat)
        if not isinstance(action, Mapping):
            return None
        same_type = [a for a in legal if a["type"] == action.get("type")]
        if not same_type:
            kinds = sorted({a["type"] for a in legal})
            return f"the choice now is {' or '.join(kinds)}"
        whites = [a["white"] for a in same_type if "white" in a]
        if whites:
            pay = min(self.m, self.black[seat] + self.white[seat])
            return (
                f"of the {pay} stone(s) to pay, with {self.black[seat]} black and "
                f"{self.white[seat]} white, from {min(whites)} to {max(whites)} may be white"
            )
        return None

    def default_action(self, seat: int) -> Action:
        """Fold to a raise unless staying in is free (D4); else pass, or ante black."""
        legal = self.legal_actions(seat)
        if self.phase == BET and self.raiser >= 0 and legal is not GRATIS_CALL:
            return FOLD
        return legal[0]

    # --- steps -------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> None:
        kind = action["type"]
        if kind == "pass":
            self.bets.append((self.stage, seat, kind, 0, 0))
            self.bet[seat] = "pass"
            if self.log is not None:
                self.emit("pass", f"Seat {seat} passes.", seat=seat)
            self._next_bettor()
        elif kind == "fold":
            self.bets.append((self.stage, seat, kind, 0, 0))
            self._fold(seat)
        else:
            pay = min(self.m, self.black[seat] + self.white[seat])  # D2, D4: all one has
            white = action["white"]
            if kind != "ante":
                self.bets.append((self.stage, seat, kind, pay - white, white))
            self._pay(seat, pay - white, white)
            if self.log is not None:
                paid = stones_in_words(pay - white, white)
                words = "stays in free (gratis)" if pay == 0 else f"{kind}s with {paid}"
                self.emit(kind, f"Seat {seat} {words}.", seat=seat, black=pay - white, white=white)
            if kind == "ante":
                self.pos += 1
                if self.pos == len(self.queue):
                    self._start_throws()
                return
            self.bet[seat] = kind
            self.must_reroll[seat] = white > 0  # D5: one reroll however many white
            if kind == "raise":
                self.raiser = seat
                self.queue = self._seats_in(seat)[1:]
                self.pos = 0
            else:
                self._next_bettor()

    def _apply_chance(self, faces: Faces) -> None:
        phase = self.phase
        if phase == OPENER:
            self.first_player = int(faces[0])
            if self.log is not None:
                self.emit(
                    "first",
                    f"Seat {self.first_player} is the first player.",
                    seat=self.first_player,
                )
            self._start_match()
            return
        if phase == LOT:
            seat = int(faces[0])
            if self.log is not None:
                self.emit("lot", f"The lot names seat {seat}.", seat=seat)
            self._take_pot(seat)
            return
        seat = self.queue[self.pos]
        if phase == THROW or (phase == REROLL and self.stage == 1):
            self.dice[seat] = (int(faces[0]), int(faces[1]))
            if self.log is not None:
                again = " again" if phase == REROLL else ""
                self.emit("throw", f"Seat {seat} throws two dice{again}, hidden.", seat=seat)
                self.emit(
                    "dice",
                    f"You throw {faces[0]} and {faces[1]}.",
                    to=frozenset({seat}),
                    seat=seat,
                    dice=[faces[0], faces[1]],
                )
        else:
            self.d12[seat] = int(faces[0])
            if self.log is not None:
                again = " again" if phase == REROLL else ""
                words = f"Seat {seat} throws {faces[0]} on the d12{again}."
                self.emit("d12", words, seat=seat, d12=faces[0])
        if phase == REROLL:
            self.must_reroll[seat] = False
        self.pos += 1
        if self.pos < len(self.queue):
            return
        if phase == REROLL:
            self._after_rerolls()
        else:
            self._start_betting()

    # --- the round ---------------------------------------------------------------

    def _pay(self, seat: int, black: int, white: int) -> None:
        self.black[seat] -= black
        self.white[seat] -= white
        self.pot_black += black
        self.pot_white += white
        self.paid_black[seat] += black
        self.paid_white[seat] += white

    def _find_opener(self) -> int:
        """D3: the token holder, else the first player; if not in the round, the next one in."""
        start = self.token_holder if self.token_holder >= 0 else self.first_player
        for seat in self.orders[start]:
            if self.in_round[seat]:
                return seat
        raise AssertionError("a round with nobody in it")

    def _seats_in(self, start: int | None = None) -> list[int]:
        """Seats in the round, in seat order or clockwise from `start`."""
        order = range(self.n) if start is None else self.orders[start]
        in_round = self.in_round
        return [s for s in order if in_round[s]]

    def _reset_bets(self) -> None:
        n = self.n
        self.bet = [""] * n
        self.paid_black = [0] * n
        self.paid_white = [0] * n
        self.must_reroll = [False] * n
        self.raiser = -1

    def _start_match(self) -> None:
        n = self.n
        self.black = [self.start_black] * n  # D1
        self.white = [self.start_white] * n
        self.out = [False] * n
        self.m = bid_unit(n, 0)
        self.round_no = 1
        self.tiebreak = 0
        if self.log is not None:
            self.emit("match", f"Match {self.match_no} begins.", match=self.match_no)
        self.in_round = [True] * n
        self._start_round(ante=True)

    def _start_round(self, ante: bool) -> None:
        """A round for the players in `in_round`; a tie-break round has no ante (D9)."""
        n = self.n
        self.folded = [False] * n
        self.dice = [NO_DICE] * n
        self.d12 = [0] * n
        self.stage = 1
        self.bets = []
        self._reset_bets()
        self.opener = self._find_opener()
        if self.log is not None:
            kind = f"Tie-break round {self.tiebreak}" if self.tiebreak else f"Round {self.round_no}"
            self.emit(
                "round",
                f"{kind}, bid unit {self.m}; seat {self.opener} opens.",
                round=self.round_no,
                tiebreak=self.tiebreak,
                m=self.m,
                opener=self.opener,
            )
        if ante:
            self.phase = ANTE  # D2
            self.queue = self._seats_in(self.opener)
            self.pos = 0
        else:
            self._start_throws()

    def _start_throws(self) -> None:
        self.phase = THROW
        self.queue = self._seats_in()
        self.pos = 0

    def _start_betting(self) -> None:
        self._reset_bets()
        self.opener = self._find_opener()
        self.phase = BET
        self.queue = self._seats_in(self.opener)
        self.pos = 0

    def _next_bettor(self) -> None:
        self.pos += 1
        if self.pos < len(self.queue):
            return
        must, in_round = self.must_reroll, self.in_round
        rerolls = [s for s in range(self.n) if must[s] and in_round[s]] if True in must else []
        if rerolls:  # D5: after all betting in the stage
            self.phase = REROLL
            self.queue = rerolls
            self.pos = 0
        else:
            self._after_rerolls()

    def _after_rerolls(self) -> None:
        if self.stage == 1:  # D6
            self.stage = 2
            self.phase = THROW_D12
            self.queue = self._seats_in()
            self.pos = 0
        else:
            self._showdown()

    def _fold(self, seat: int) -> None:
        self.in_round[seat] = False  # D7: stones stay in the pot, dice stay hidden
        self.folded[seat] = True
        self.bet[seat] = "fold"
        self.must_reroll[seat] = False
        if self.log is not None:
            self.emit("fold", f"Seat {seat} folds.", seat=seat)
        if self.in_round.count(True) == 1:
            self._take_pot(self.in_round.index(True))
        else:
            self._next_bettor()

    def _showdown(self) -> None:
        """D8: everyone in shows; the highest total takes the pot, ties play again (D9)."""
        shown: list[Shown] = []
        for s in self._seats_in():
            a, b = self.dice[s]
            shown.append((s, a, b, self.d12[s], a + b + self.d12[s]))
        best = max(entry[4] for entry in shown)
        top = tuple(entry[0] for entry in shown if entry[4] == best)
        self.showdown = (self.match_no, self.round_no, tuple(shown), top)
        if self.log is not None:
            words = "; ".join(f"seat {s}: {a}+{b}+{d} = {t}" for s, a, b, d, t in shown)
            self.emit(
                "showdown", f"Showdown: {words}.", players=[list(e) for e in shown], top=list(top)
            )
        if len(top) == 1:
            self._take_pot(top[0])
            return
        self.in_round = [s in top for s in range(self.n)]
        self._mark_out()
        if self.tiebreak == self.tiebreaks_max:  # research variant: no tie-break left
            self.phase = LOT
            self.lot = (top,)
            if self.log is not None:
                words = (
                    f"Seats {', '.join(map(str, top))} tie at {best} with no tie-break round "
                    "left: a lot decides who takes the pot."
                )
                self.emit("tie", words, seats=list(top))
            return
        self.tiebreak += 1
        if self.log is not None:
            words = f"Seats {', '.join(map(str, top))} tie at {best}."
            self.emit("tie", words, seats=list(top))
        self._start_round(ante=False)

    def _take_pot(self, seat: int) -> None:
        black, white = self.pot_black, self.pot_white
        self.black[seat] += black
        self.white[seat] += white
        self.pot_black = self.pot_white = 0
        if self.log is not None:
            self.emit(
                "pot",
                f"Seat {seat} takes the pot: {stones_in_words(black, white)}.",
                seat=seat,
                black=black,
                white=white,
            )
        self.in_round = [False] * self.n
        self._mark_out()
        if self.length == "round":  # research variant: the first pot ends the game
            self.winner = seat
            self.phase = OVER
            self.emit("game-won", f"Seat {seat} wins the round and the game.", seat=seat)
            return
        holders = [s for s in range(self.n) if not self.out[s]]
        if len(holders) == 1:
            self._end_match(holders[0])
            return
        self.round_no += 1
        self.tiebreak = 0
        self.in_round = [not out for out in self.out]
        self._start_round(ante=True)

    def _mark_out(self) -> None:
        """D10: a player not in the round (or tie-break) with no stones is out of the match."""
        for s in range(self.n):
            if not self.out[s] and not self.in_round[s] and self.black[s] + self.white[s] == 0:
                self.out[s] = True
                if self.log is not None:
                    self.emit("out", f"Seat {s} is out of the match.", seat=s)
        self.m = bid_unit(self.n, sum(self.out))

    def _end_match(self, seat: int) -> None:
        self.matches_won[seat] += 1
        self.emit(
            "match-won", f"Seat {seat} wins match {self.match_no}.", seat=seat, match=self.match_no
        )
        token_game_won = self._pass_token(seat)
        if self.length == "single":
            game_won = True
        elif self.length == "two":
            game_won = self.matches_won[seat] == 2
        else:
            game_won = token_game_won
        if game_won:
            self.winner = seat
            self.phase = OVER
            self.emit("game-won", f"Seat {seat} wins the game.", seat=seat)
            return
        self.match_no += 1
        self._start_match()

    def _pass_token(self, seat: int) -> bool:
        """D12: move the token to the match winner; True if that wins a token game."""
        if self.token_holder != seat:
            self.token_holder = seat
            self.token_gold = False
            side = "" if self.n == 2 else " silver side up"
            self.emit("token", f"Seat {seat} takes the token{side}.", seat=seat)
            return False
        if self.n > 2 and not self.token_gold:
            self.token_gold = True
            self.emit("token", f"Seat {seat} turns the token gold side up.", seat=seat)
            return False
        return True

    # --- what players see --------------------------------------------------------

    def view(self, seat: int | None) -> View:
        n = self.n
        players = []
        for s in range(n):
            if self.out[s]:
                status = "out"
            elif self.in_round[s] or s == self.winner:
                status = "in"
            elif self.folded[s]:
                status = "folded"
            else:
                status = "sitting out"
            own = s == seat and self.dice[s] != NO_DICE
            players.append(
                {
                    "seat": s,
                    "black": self.black[s],
                    "white": self.white[s],
                    "status": status,
                    "d12": self.d12[s] or None,
                    "bet": self.bet[s] or None,
                    "paid": {"black": self.paid_black[s], "white": self.paid_white[s]},
                    "must_reroll": self.must_reroll[s],
                    "dice": list(self.dice[s]) if own else None,
                }
            )
        match_no, round_no, shown, top = self.showdown
        over = self.phase == OVER
        v: View = {
            "game": TaoDice.id,
            "seat": seat,
            "actors": list(self.actors()),
            "over": over,
            "phase": self.phase,
            "stage": self.stage,
            "match": self.match_no,
            "round": self.round_no,
            "tiebreak": self.tiebreak,
            "m": self.m,
            "length": self.length,
            "first_player": self.first_player if self.first_player >= 0 else None,
            "opener": self.opener if self.opener >= 0 else None,
            "raiser": self.raiser if self.raiser >= 0 else None,
            "token": {
                "holder": self.token_holder if self.token_holder >= 0 else None,
                "side": None
                if self.token_holder < 0 or n == 2
                else ("gold" if self.token_gold else "silver"),
            },
            "matches_won": list(self.matches_won),
            "pot": {"black": self.pot_black, "white": self.pot_white},
            "players": players,
            "bets": [
                {"stage": st, "seat": s, "type": kind, "black": b, "white": w}
                for st, s, kind, b, w in self.bets
            ],
            "showdown": {
                "match": match_no,
                "round": round_no,
                "players": [
                    {"seat": s, "dice": [a, b], "d12": d, "total": t} for s, a, b, d, t in shown
                ],
                "top": list(top),
            }
            if shown
            else None,
            "winner": self.winner if self.winner >= 0 else None,
        }
        if over:
            v["result"] = self.result().to_json()
        return v

    def result(self) -> Result:
        return Result(
            winners=(self.winner,),
            net=tuple(
                self.black[s] + self.white[s] - self.start_black - self.start_white
                for s in range(self.n)
            ),
            unit="stones",
            detail={"matches_won": list(self.matches_won)},
        )

    # --- search and checks -------------------------------------------------------

    def clone(self) -> Self:
        other = self.shallow_copy()
        other.log = None
        for name in (
            "black", "white", "out", "in_round", "folded", "dice", "d12", "bet",
            "paid_black", "paid_white", "must_reroll", "queue", "matches_won", "bets",
        ):  # fmt: skip
            setattr(other, name, getattr(self, name).copy())
        return other

    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        other = self.clone()
        for s in range(self.n):
            if s != seat and other.dice[s] != NO_DICE:
                faces = self.hidden_faces
                other.dice[s] = (rng.randint(1, faces), rng.randint(1, faces))
        return other

    def conserved(self) -> Mapping[str, int]:
        return {
            "black": sum(self.black) + self.pot_black,
            "white": sum(self.white) + self.pot_white,
        }
