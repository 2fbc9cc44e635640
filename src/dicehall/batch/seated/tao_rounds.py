"""Tao Dice's rounds without an outside seat, played one game at a time in plain Python.

While the seats played from outside sit a round out (all of them out of the
match, D10, or left out of a tie-break, D9), a seated batch plays it the
batch's way, a whole round per pass (`TaoBatch._round`): a few hundred NumPy
calls whatever the number of games. At the end of a vector step only a few
games are still doing so, for a match's remaining rounds, and the step waits
for the slowest of them. When every seat of the batch's own plays at random,
`play_rounds` plays such a game's rounds as a loop over its seats instead,
round after round, until a round begins with an outside seat in it, or the
game is over: the same rules, steps, choices and counts as
`TaoBatch._round` and `TaoSeated`'s view of it.

A random seat never looks at the dice, so a seat's two d6 are thrown once it
shows them (D8; a reroll, D5, gives the same uniform total), and its d12
when the second stage starts and again if it rerolls (the view shows it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

PASS, RAISE, CALL, FOLD = range(4)
"""A seat's bet in this stage, as `dicehall.batch.seated.tao` numbers them."""
TWO_D6 = [a + b for a in range(1, 7) for b in range(1, 7)]
"""The totals of the 36 throws of two d6."""


@dataclass(slots=True)
class Game:
    """One game's state, as Python numbers and lists: the rows of the batch's arrays of the
    same names (`COLUMNS`), then its event counts and its length."""

    black: list[int]
    white: list[int]
    out: list[bool]
    in_round: list[bool]
    matches_won: list[int]
    # the view of the last round played (`TaoSeated`'s arrays)
    dice: list[int]
    d12: list[int]
    must_reroll: list[bool]
    folded: list[bool]
    bet: list[int]
    paid_black: list[int]
    paid_white: list[int]
    shown: list[bool]
    shown_total: list[int]
    top: list[bool]
    pot_black: int
    pot_white: int
    m: int
    ante_due: bool
    token_holder: int
    token_gold: bool
    first_player: int
    winner: int
    steps: int
    decisions: int
    round_no: int
    tiebreak: int
    stage: int
    raiser: int
    opener: int
    events: dict[str, int]
    length: str
    over: bool = False
    next_ante: bool = True
    """When play stops before a round with an outside seat: whether it has an ante."""


_NAMES = [f.name for f in fields(Game)]
COLUMNS = tuple(_NAMES[: _NAMES.index("events")])
"""The batch's per-game arrays a `Game` is made of, in the order of its first fields: a
seated batch hands over their rows and takes them back (`TaoSeated._rounds`)."""


class Draws:
    """Numbers uniform in [0, 1), taken a block at a time from `refill` (a call into
    NumPy costs far more than reading a number from a list)."""

    def __init__(self, refill: Callable[[], list[float]]) -> None:
        self.refill = refill
        self.values: list[float] = []
        self.at = 0

    def uniform(self) -> float:
        if self.at == len(self.values):
            self.values = self.refill()
            self.at = 0
        value = self.values[self.at]
        self.at += 1
        return value


def play_rounds(game: Game, outside: list[bool], draws: Draws) -> None:
    """Play `game` (its phase a round, no outside seat in it) round by round until a round
    would begin with an outside seat in it (`game.next_ante` tells which kind), or the game
    is over, drawing its choices and throws from `draws`."""
    n = len(game.black)
    ours = [s for s in range(n) if outside[s]]
    ante = game.ante_due
    while True:
        _round(game, n, ante, draws)
        if game.over:
            return
        ante = game.ante_due
        in_round = game.in_round
        if any(in_round[s] for s in ours):
            game.next_ante = ante
            return
        _start_round(game, n, ante)


def _start_round(game: Game, n: int, ante: bool) -> None:
    """`TaoSeated._start_round` for a round the loop plays (no outside seat in it)."""
    game.events["round"] += 1
    if ante:
        game.round_no += 1
        game.tiebreak = 0
    else:
        game.tiebreak += 1


def _opener(game: Game, n: int) -> int:
    """D3: the token holder, else the first player; if not in the round, the next one in."""
    start = game.token_holder if game.token_holder >= 0 else game.first_player
    for k in range(n):
        seat = (start + k) % n
        if game.in_round[seat]:
            return seat
    return start


def _round(game: Game, n: int, ante: bool, draws: Draws) -> None:
    """`TaoBatch._round` with random seats: antes, throws, two stages, showdown."""
    events = game.events
    in_round = game.in_round
    game.folded = [False] * n
    game.dice = [0] * n
    game.d12 = [0] * n
    game.stage = 1
    game.must_reroll = [False] * n
    count = in_round.count(True)
    if ante:  # D2: the fewest to the most white, uniformly
        black, white, m = game.black, game.white, game.m
        for s in range(n):
            if in_round[s]:
                have = black[s] + white[s]
                pay = m if m < have else have
                low = pay - black[s] if pay > black[s] else 0
                high = white[s] if white[s] < pay else pay
                paid = low + int(draws.uniform() * (high - low + 1))
                black[s] -= pay - paid
                white[s] -= paid
                game.pot_black += pay - paid
                game.pot_white += paid
        game.steps += count
        events["ante"] += count
        game.decisions += count
    game.steps += count  # the two d6 (thrown at the showdown)
    events["throw"] += count
    if not _bet(game, n, 1, draws):
        return
    rerolls = game.must_reroll.count(True)  # D5: the two d6 again, still unseen
    game.steps += rerolls
    events["throw"] += rerolls
    game.must_reroll = [False] * n
    count = in_round.count(True)  # D6
    game.steps += count
    events["d12"] += count
    game.d12 = [1 + int(draws.uniform() * 12) if in_round[s] else 0 for s in range(n)]
    game.stage = 2
    if not _bet(game, n, 2, draws):
        return
    again = game.must_reroll
    rerolls = again.count(True)
    game.steps += rerolls
    events["d12"] += rerolls
    for s in range(n):
        if again[s]:
            game.d12[s] = 1 + int(draws.uniform() * 12)
    game.must_reroll = [False] * n
    _showdown(game, n, draws)


def _bet(game: Game, n: int, stage: int, draws: Draws) -> bool:
    """`TaoBatch._bet` with random seats (D3, D4, D7); False if the round ended in it."""
    events = game.events
    in_round = game.in_round
    black, white, m = game.black, game.white, game.m
    opener = _opener(game, n)
    order = [s % n for s in range(opener, opener + n) if in_round[s % n]]
    bet = [-1] * n
    paid_black = [0] * n
    paid_white = [0] * n
    must_reroll = [False] * n
    raiser = -1
    opening = 0
    for s in order:  # clockwise from the opener up to the first raise
        opening += 1
        have = black[s] + white[s]
        pay = m if m < have else have  # D2, D4: m, or all it has
        if pay > 0:  # pass, or raise with low..high white
            low = pay - black[s] if pay > black[s] else 0
            high = white[s] if white[s] < pay else pay
            choice = int(draws.uniform() * (high - low + 2))
            if choice > 0:
                raiser = s
                paid = low + choice - 1
                black[s] -= pay - paid
                white[s] -= paid
                paid_black[s], paid_white[s] = pay - paid, paid
                bet[s] = RAISE
                must_reroll[s] = paid > 0
                break
    if raiser < 0:
        for s in order:
            bet[s] = PASS
        game.steps += opening
        game.decisions += opening
        events["pass"] += opening
    else:
        events["pass"] += opening - 1
        events["raise"] += 1
        events["white bet"] += must_reroll[raiser]
        others = order[opening:] + order[: opening - 1]  # clockwise from the raiser
        game.decisions += opening + len(others)
        game.steps += opening + len(others)
        for s in others:
            have = black[s] + white[s]
            pay = m if m < have else have
            low = pay - black[s] if pay > black[s] else 0
            high = white[s] if white[s] < pay else pay
            colours = high - low + 1
            reply = int(draws.uniform() * (colours + 1))
            if reply == colours:
                bet[s] = FOLD
                in_round[s] = False
                game.folded[s] = True
                events["fold"] += 1
            else:
                paid = low + reply
                black[s] -= pay - paid
                white[s] -= paid
                paid_black[s], paid_white[s] = pay - paid, paid
                bet[s] = CALL
                must_reroll[s] = paid > 0
                events["call"] += 1
                events["white bet"] += paid > 0
                events["gratis"] += pay == 0
    game.pot_black += sum(paid_black)
    game.pot_white += sum(paid_white)
    game.bet, game.paid_black, game.paid_white = bet, paid_black, paid_white
    game.must_reroll = must_reroll
    game.raiser = raiser
    game.opener = opener
    game.stage = stage
    if raiser >= 0 and in_round.count(True) == 1:  # D7: everyone else folded
        _take_pot(game, n, raiser)
        return False
    return True


def _showdown(game: Game, n: int, draws: Draws) -> None:
    """D8, D9: the highest total takes the pot; those tied for it play a tie-break."""
    events = game.events
    in_round = game.in_round
    events["showdown"] += 1
    totals = [-1] * n
    for s in range(n):
        if in_round[s]:
            game.dice[s] = TWO_D6[int(draws.uniform() * 36)]
            totals[s] = game.dice[s] + game.d12[s]
    best = max(totals)
    top = [in_round[s] and totals[s] == best for s in range(n)]
    game.shown = list(in_round)
    game.shown_total = [max(t, 0) for t in totals]
    game.top = top
    if top.count(True) == 1:
        _take_pot(game, n, top.index(True))
        return
    events["tie"] += 1
    game.in_round = top
    _mark_out(game, n)
    game.ante_due = False


def _take_pot(game: Game, n: int, seat: int) -> None:
    """The pot to the winner of the round; D10: out, the end of the match, or a round."""
    game.events["pot"] += 1
    game.black[seat] += game.pot_black
    game.white[seat] += game.pot_white
    game.pot_black = game.pot_white = 0
    game.in_round = [False] * n
    _mark_out(game, n)
    if game.length == "round":
        game.winner = seat
        game.over = True
        return
    if game.out.count(False) == 1:
        _end_match(game, n, seat)
        return
    game.in_round = [not o for o in game.out]
    game.ante_due = True


def _mark_out(game: Game, n: int) -> None:
    """D10, D11: a seat not in the round with no stones is out; m follows the outs."""
    for s in range(n):
        if not game.out[s] and not game.in_round[s] and game.black[s] + game.white[s] == 0:
            game.out[s] = True
            game.events["out"] += 1
    if n >= 4:
        game.m = 1 + game.out.count(True) // 2


def _end_match(game: Game, n: int, seat: int) -> None:
    """D12: the token moves to the winner, turns gold, or wins the game; or a new match."""
    events = game.events
    events["match-won"] += 1
    game.matches_won[seat] += 1
    lacks = game.token_holder != seat
    turns = not lacks and not game.token_gold and n > 2
    if lacks:
        game.token_holder = seat
        game.token_gold = False
    if turns:
        game.token_gold = True
    events["token"] += lacks or turns
    if game.length == "single":
        won = True
    elif game.length == "two":
        won = game.matches_won[seat] == 2
    else:
        won = not lacks and not turns
    if won:
        game.winner = seat
        game.over = True
        return
    events["match"] += 1  # D1: a new match, everyone in
    game.black = [4] * n
    game.white = [2] * n
    game.out = [False] * n
    game.m = 1
    game.in_round = [True] * n
    game.round_no = 0
    game.ante_due = True
