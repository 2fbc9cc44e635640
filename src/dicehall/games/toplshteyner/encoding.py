"""Toplshteyner for learners: fixed action ids, the observation tensor, bounds (core/encoding.py).

Action ids: 0 buy a fourth life, 1 keep three lives (P9), then 2 + s elects
seat s to lose a life (P8), for each seat s of the table.

Everything is public (C6), so every seat's tensor holds the same facts (`fill`
writes the view's numbers straight from the state, for the adapters); per-seat
segments are turned so that the observing seat comes first, then the seats
after it in seat order, and a seat in a one-hot segment is counted the same
way. Counters the rules do not bound are clipped at the segment's top.

Length: no bound. A roll-off can tie for ever (C5), a 7 before a point is
thrown again (P3), and lives can come back from the pot (P9). Adapters
truncate at `length_cap`, 5,000 steps. Nor is the net bounded on a table
that sells fourth lives: a seat that goes out loses 3 plus 2 for each life
it bought, so the declared bounds hold under the cap (a life bought per two
steps at most); with `for_fun` they are exact, -3 to 3 x (seats - 1).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TYPE_CHECKING, cast

from dicehall.core.encoding import (
    ActionVocabulary,
    Encoding,
    Layout,
    View,
    clip,
    put_flags,
    put_number,
    put_one_hot,
    relative,
    rotated,
)
from dicehall.games.toplshteyner.rules import (
    BUY_LIFE,
    DECLINE_LIFE,
    ELECT_SEAT,
    MAX_LIVES,
    PHASE_NAMES,
    ROLLOFF,
    START_LIVES,
    TURN_END_WORDS,
)

if TYPE_CHECKING:
    from dicehall.games.toplshteyner.rules import Toplshteyner, ToplshteynerState

PHASE_INDEX = {name: i for i, name in enumerate(PHASE_NAMES)}
ENDS = tuple(TURN_END_WORDS)
END_INDEX = {end: i for i, end in enumerate(ENDS)}
LENGTH_CAP = 5_000


def encoding(game: Toplshteyner) -> Encoding:
    n = game.seats
    pot_max = 8 * n

    layout = Layout()
    phase = layout.one_hot("phase", len(PHASE_NAMES), "the phase: " + ", ".join(PHASE_NAMES))
    table = layout.one_hot("options", 2, "the for_fun and sixes_end_turn options")
    lives = layout.numbers("lives", n, 0, MAX_LIVES, "lives per seat (0: out)")
    pot = layout.numbers("pot", 1, 0, pot_max, "stakes in the pot, clipped")
    bought = layout.numbers("bought", n, 0, 10, "fourth lives bought per seat, clipped")
    owed = layout.numbers("paid_in", n, 0, 30, "per seat, stakes paid in less taken out, clipped")
    roller = layout.one_hot("roller", n, "the seat throwing")
    point = layout.one_hot("point", 11, "the point, 2 to 12 (none: all zero)")
    doubles = layout.one_hot("thrown", 3, "this turn has had a 1-1, a 3-3, a 5-5")
    count = layout.numbers("throws", 1, 0, 50, "throws this turn, clipped")
    last = layout.one_hot("last_throw", 12, "this turn's last throw, each die one-hot")
    contenders = layout.one_hot("rolloff_contenders", n, "seats still in the roll-off")
    faces = layout.numbers("rolloff_faces", n, 0, 6, "their roll-off die this round, 0: none")
    last_seat = layout.one_hot("last_turn_seat", n, "whose turn ended last")
    last_end = layout.one_hot("last_turn_end", len(ENDS), "how: " + ", ".join(ENDS))
    winner = layout.one_hot("winner", n, "the winner")

    def encode(view: View) -> list[float]:
        me: int = view["seat"] or 0  # a spectator (None) sees from seat 0
        t = layout.zeros()
        put_one_hot(t, phase, PHASE_INDEX[view["phase"]])
        put_flags(t, table, (view["for_fun"], view["sixes_end_turn"]))
        for i, value in enumerate(rotated(view["lives"], me)):
            put_number(t, lives, value, i)
        put_number(t, pot, view["pot"])
        for i, value in enumerate(rotated(view["bought"], me)):
            put_number(t, bought, value, i)
        net_in = [p - r for p, r in zip(view["paid"], view["reclaimed"], strict=True)]
        for i, value in enumerate(rotated(net_in, me)):
            put_number(t, owed, value, i)
        put_one_hot(t, roller, relative(view["roller"], me, n))
        if view["point"] is not None:
            put_one_hot(t, point, view["point"] - 2)
        put_flags(t, doubles, (view["snake_eyes"], view["threes"], view["high_fives"]))
        put_number(t, count, len(view["throws"]))
        if view["throws"]:
            a, b = view["throws"][-1]
            put_one_hot(t, last, a - 1)
            put_one_hot(t, last, 6 + b - 1)
        rolloff = view["rolloff"]
        if rolloff is not None:
            for k, seat in enumerate(rolloff["contenders"]):
                where = relative(seat, me, n)
                put_one_hot(t, contenders, where)
                if k < len(rolloff["faces"]) and where is not None:
                    put_number(t, faces, rolloff["faces"][k], where)
        if view["last_turn"] is not None:
            put_one_hot(t, last_seat, relative(view["last_turn"]["seat"], me, n))
            put_one_hot(t, last_end, END_INDEX[view["last_turn"]["end"]])
        put_one_hot(t, winner, relative(view["winner"], me, n))
        return t

    orders = [tuple(enumerate(rotated(range(n), me))) for me in range(n)]

    def fill(state: ToplshteynerState, me: int, t: MutableSequence[float]) -> None:
        """`encode(state.view(me))` written straight from the state (`Encoding.fill`).

        Zeros are already in place, so a number whose segment holds 0 is written only
        when it is not 0.
        """
        t[phase.start + state.phase] = 1.0
        if state.for_fun:
            t[table.start] = 1.0
        if state.sixes_end_turn:
            t[table.start + 1] = 1.0
        s_lives, s_bought, s_paid, s_back = state.lives, state.bought, state.paid, state.reclaimed
        for i, s in orders[me]:
            if s_lives[s]:
                t[lives.start + i] = clip(s_lives[s], lives)
            if s_bought[s]:
                t[bought.start + i] = clip(s_bought[s], bought)
            if s_paid[s] - s_back[s]:
                t[owed.start + i] = clip(s_paid[s] - s_back[s], owed)
        if state.pot:
            t[pot.start] = clip(state.pot, pot)
        if state.roller >= 0:
            t[roller.start + (state.roller - me) % n] = 1.0
        if state.point and 0 <= state.point - 2 < 11:
            t[point.start + state.point - 2] = 1.0
        for d, flag in enumerate((state.snake_eyes, state.threes, state.high_fives)):
            if flag:
                t[doubles.start + d] = 1.0
        throws = state.throws
        if throws:
            t[count.start] = clip(len(throws), count)
            a, b = cast("tuple[int, int]", throws[-1])  # d6 faces
            if 0 <= a - 1 < 12:
                t[last.start + a - 1] = 1.0
            if 0 <= 6 + b - 1 < 12:
                t[last.start + 6 + b - 1] = 1.0
        if state.phase == ROLLOFF:
            rolled = state.rolloff_faces
            for k, seat in enumerate(state.contenders):
                where = (seat - me) % n
                t[contenders.start + where] = 1.0
                if k < len(rolled) and rolled[k]:
                    t[faces.start + where] = clip(rolled[k], faces)
        if state.last_turn_end:
            t[last_seat.start + (state.last_turn_seat - me) % n] = 1.0
            t[last_end.start + END_INDEX[state.last_turn_end]] = 1.0
        if state.winner >= 0:
            t[winner.start + (state.winner - me) % n] = 1.0

    if game.options["for_fun"]:
        bounds = (-START_LIVES, START_LIVES * (n - 1))
    else:
        buys = LENGTH_CAP // 2
        bounds = (-(START_LIVES + 2 * buys), START_LIVES * (n - 1) + 2 * buys)
    return Encoding(
        actions=ActionVocabulary((BUY_LIFE, DECLINE_LIFE, *ELECT_SEAT[:n])),
        layout=layout,
        encode=encode,
        utility_bounds=bounds,
        max_game_length=None,
        length_cap=LENGTH_CAP,
        max_chance_outcomes=36,
        unbounded="the roll-off (C5), sevens before a point (P3), lives back from the pot (P9)",
        fill=fill,
    )
