"""Tao Dice for learners: fixed action ids, the observation tensor, bounds (core/encoding.py).

Action ids, for every seat count and option: 0-3 ante with 0-3 white
stones, 4 pass, 5-8 raise with 0-3 white, 9-12 call with 0-3 white, 13 fold.

The observation is built from the seat's view alone (`fill` writes the same
numbers straight from the state, for the adapters). Per-seat segments are
turned so that the observing seat comes first, then the seats after it in
seat order (clockwise, C2); a seat in a one-hot segment is counted the same
way. Counters that the rules do not bound (match, round, tie-breaks,
matches won) are clipped at the segment's top.

Length: no game length is bounded. Tied showdowns replay (D9) and stones
can go back and forth for ever, even in one round (`length=round`, the
research variant) through its tie-breaks. Adapters truncate at
`length_cap` steps: 200,000 for a whole game, 5,000 for one round. One
round with the tie-breaks bounded (`length=round` and `tiebreaks=N`, N from
0) is bounded: the first player's throw, the antes, then in each of the
N + 1 betting rounds at most 8n - 2 steps (n throws, at most 2n - 1 bets a
stage, n rerolls a stage, n d12s), and the lot. Under `tiebreaks` the phase
segment has one more entry, "lot".
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TYPE_CHECKING

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
from dicehall.games.tao.rules import (
    ANTE,
    ANTES,
    BET,
    CALLS,
    FOLD,
    LOT,
    MAX_BID,
    NO_DICE,
    NO_LIMIT,
    OPENER,
    OVER,
    PASS,
    RAISES,
    REROLL,
    START_BLACK,
    START_WHITE,
    THROW,
    THROW_D12,
)

if TYPE_CHECKING:
    from dicehall.games.tao.rules import TaoDice, TaoState

ACTIONS = (*ANTES, PASS, *RAISES, *CALLS, FOLD)
PHASES = (OPENER, ANTE, THROW, BET, REROLL, THROW_D12, OVER)
STATUS_INDEX = {"in": 0, "folded": 1, "sitting out": 2, "out": 3}
BET_INDEX = {"pass": 0, "raise": 1, "call": 2, "fold": 3}


def encoding(game: TaoDice) -> Encoding:
    n = game.seats
    black_max, white_max = START_BLACK * n, START_WHITE * n

    tiebreaks = int(game.options["tiebreaks"])
    phases = PHASES if tiebreaks == NO_LIMIT else (*PHASES, LOT)  # default layout unchanged
    phase_index = {name: i for i, name in enumerate(phases)}
    layout = Layout()
    phase = layout.one_hot("phase", len(phases), "the phase: " + ", ".join(phases))
    stage = layout.one_hot("stage", 2, "stage one, stage two")
    tiebreak = layout.numbers("tiebreak", 1, 0, 10, "tie-break rounds so far (D9), clipped")
    unit = layout.numbers("m", 1, 1, MAX_BID, "the bid unit (D11)")
    match = layout.numbers("match", 1, 1, 20, "the match number, clipped")
    round_no = layout.numbers("round", 1, 1, 100, "the round number in the match, clipped")
    first = layout.one_hot("first_player", n, "the first player of the game")
    opener = layout.one_hot("opener", n, "who opens this stage's betting")
    raiser = layout.one_hot("raiser", n, "who raised in this stage")
    holder = layout.one_hot("token_holder", n, "who holds the token (D12)")
    gold = layout.one_hot("token_gold", 1, "1 when the token is gold side up")
    won = layout.numbers("matches_won", n, 0, 10, "matches won per seat, clipped")
    pot_black = layout.numbers("pot_black", 1, 0, black_max, "black stones in the pot")
    pot_white = layout.numbers("pot_white", 1, 0, white_max, "white stones in the pot")
    black = layout.numbers("black", n, 0, black_max, "black stones per seat")
    white = layout.numbers("white", n, 0, white_max, "white stones per seat")
    status = layout.one_hot("status", 4 * n, "per seat: in, folded, sitting out, out")
    d12 = layout.numbers("d12", n, 0, 12, "each seat's d12 this round, 0: not thrown")
    bet = layout.one_hot("bet", 4 * n, "per seat, this stage: pass, raise, call, fold")
    paid = layout.numbers("paid", 2 * n, 0, MAX_BID, "per seat, paid this stage: black, white")
    reroll = layout.one_hot("must_reroll", n, "1 for each seat that rerolls after betting (D5)")
    dice = layout.one_hot("your_dice", 12, "your two d6, one-hot each (yours alone)")
    total = layout.numbers("your_total", 1, 0, 24, "your two d6 plus your d12")
    shown = layout.one_hot("showdown_shown", n, "seats shown at the last showdown")
    shown_total = layout.numbers("showdown_total", n, 0, 24, "their totals")
    top = layout.one_hot("showdown_top", n, "the seats with the highest total there")
    winner = layout.one_hot("winner", n, "the winner of the game")

    def encode(view: View) -> list[float]:
        me: int = view["seat"] or 0  # a spectator (None) sees from seat 0
        t = layout.zeros()
        put_one_hot(t, phase, phase_index[view["phase"]])
        put_one_hot(t, stage, view["stage"] - 1)
        put_number(t, tiebreak, view["tiebreak"])
        put_number(t, unit, view["m"])
        put_number(t, match, view["match"])
        put_number(t, round_no, view["round"])
        put_one_hot(t, first, relative(view["first_player"], me, n))
        put_one_hot(t, opener, relative(view["opener"], me, n))
        put_one_hot(t, raiser, relative(view["raiser"], me, n))
        token = view["token"]
        put_one_hot(t, holder, relative(token["holder"], me, n))
        put_flags(t, gold, [token["side"] == "gold"])
        for i, value in enumerate(rotated(view["matches_won"], me)):
            put_number(t, won, value, i)
        put_number(t, pot_black, view["pot"]["black"])
        put_number(t, pot_white, view["pot"]["white"])
        for i, player in enumerate(rotated(view["players"], me)):
            put_number(t, black, player["black"], i)
            put_number(t, white, player["white"], i)
            put_one_hot(t, status, 4 * i + STATUS_INDEX[player["status"]])
            put_number(t, d12, player["d12"] or 0, i)
            if player["bet"] is not None:
                put_one_hot(t, bet, 4 * i + BET_INDEX[player["bet"]])
            put_number(t, paid, player["paid"]["black"], 2 * i)
            put_number(t, paid, player["paid"]["white"], 2 * i + 1)
            if player["must_reroll"]:
                put_one_hot(t, reroll, i)
            if i == 0 and player["dice"] is not None:
                a, b = player["dice"]
                put_one_hot(t, dice, a - 1)
                put_one_hot(t, dice, 6 + b - 1)
                put_number(t, total, a + b + (player["d12"] or 0))
        showdown = view["showdown"]
        if showdown is not None:
            for entry in showdown["players"]:
                where = relative(entry["seat"], me, n)
                put_one_hot(t, shown, where)
                if where is not None:
                    put_number(t, shown_total, entry["total"], where)
            for seat in showdown["top"]:
                put_one_hot(t, top, relative(seat, me, n))
        put_one_hot(t, winner, relative(view["winner"], me, n))
        return t

    # where each segment starts, for `fill`
    won_at, black_at, white_at, status_at = won.start, black.start, white.start, status.start
    d12_at, bet_at, paid_at, reroll_at = d12.start, bet.start, paid.start, reroll.start
    orders = [tuple(enumerate(rotated(range(n), me))) for me in range(n)]

    def fill(state: TaoState, me: int, t: MutableSequence[float]) -> None:
        """`encode(state.view(me))` written straight from the state (`Encoding.fill`).

        Zeros are already in place, so a number whose segment holds 0 is written only
        when it is not 0.
        """
        t[phase.start + phase_index[state.phase]] = 1.0
        if 0 <= state.stage - 1 < 2:
            t[stage.start + state.stage - 1] = 1.0
        t[tiebreak.start] = clip(state.tiebreak, tiebreak)
        t[unit.start] = clip(state.m, unit)
        t[match.start] = clip(state.match_no, match)
        t[round_no.start] = clip(state.round_no, round_no)
        if state.first_player >= 0:
            t[first.start + (state.first_player - me) % n] = 1.0
        if state.opener >= 0:
            t[opener.start + (state.opener - me) % n] = 1.0
        if state.raiser >= 0:
            t[raiser.start + (state.raiser - me) % n] = 1.0
        if state.token_holder >= 0:
            t[holder.start + (state.token_holder - me) % n] = 1.0
            if n != 2 and state.token_gold:
                t[gold.start] = 1.0
        if state.pot_black:
            t[pot_black.start] = clip(state.pot_black, pot_black)
        if state.pot_white:
            t[pot_white.start] = clip(state.pot_white, pot_white)
        s_won, s_black, s_white, s_out = state.matches_won, state.black, state.white, state.out
        s_in, s_folded, s_d12, s_bet = state.in_round, state.folded, state.d12, state.bet
        s_paid_black, s_paid_white, s_reroll = state.paid_black, state.paid_white, state.must_reroll
        winner = state.winner
        for i, s in orders[me]:
            if s_won[s]:
                t[won_at + i] = clip(s_won[s], won)
            if s_black[s]:
                t[black_at + i] = clip(s_black[s], black)
            if s_white[s]:
                t[white_at + i] = clip(s_white[s], white)
            if s_out[s]:
                t[status_at + 4 * i + 3] = 1.0
            elif s_in[s] or s == winner:
                t[status_at + 4 * i] = 1.0
            elif s_folded[s]:
                t[status_at + 4 * i + 1] = 1.0
            else:
                t[status_at + 4 * i + 2] = 1.0
            if s_d12[s]:
                t[d12_at + i] = clip(s_d12[s], d12)
            if s_bet[s]:
                t[bet_at + 4 * i + BET_INDEX[s_bet[s]]] = 1.0
            if s_paid_black[s]:
                t[paid_at + 2 * i] = clip(s_paid_black[s], paid)
            if s_paid_white[s]:
                t[paid_at + 2 * i + 1] = clip(s_paid_white[s], paid)
            if s_reroll[s]:
                t[reroll_at + i] = 1.0
        mine = state.dice[me]
        if mine != NO_DICE:
            a, b = mine
            if 0 <= a - 1 < 12:
                t[dice.start + a - 1] = 1.0
            if 0 <= 6 + b - 1 < 12:
                t[dice.start + 6 + b - 1] = 1.0
            t[total.start] = clip(a + b + (s_d12[me] or 0), total)
        _, _, shown_players, shown_top = state.showdown
        if shown_players:
            for entry in shown_players:
                where = (entry[0] - me) % n
                t[shown.start + where] = 1.0
                t[shown_total.start + where] = clip(entry[4], shown_total)
            for seat in shown_top:
                t[top.start + (seat - me) % n] = 1.0
        if winner >= 0:
            t[winner_at + (winner - me) % n] = 1.0

    winner_at = winner.start
    one_round = game.options["length"] == "round"
    bounded = one_round and tiebreaks != NO_LIMIT
    start = int(game.options["black_stones"]) + int(game.options["white_stones"])  # D1
    longest = 1 + n + (tiebreaks + 1) * (8 * n - 2) + 1 if bounded else None
    return Encoding(
        actions=ActionVocabulary(ACTIONS),
        layout=layout,
        encode=encode,
        utility_bounds=(-start, start * (n - 1)),
        max_game_length=longest,
        length_cap=longest or (5_000 if one_round else 200_000),
        max_chance_outcomes=36,
        unbounded=""
        if bounded
        else "tied showdowns replay (D9) and stones can change hands for ever",
        fill=fill,
    )
