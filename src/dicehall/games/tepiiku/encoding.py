"""Tepiiku for learners: fixed action ids, the observation tensor, bounds (core/encoding.py).

Action ids: 0 thumbs down, 1 thumbs up (T5), 2 pay the pot (T7), 3-9 reroll
dice {0}, {1}, {2}, {0,1}, {0,2}, {1,2}, {0,1,2} (T6-T8).

The observation is built from the seat's view alone (`fill` writes the same
numbers straight from the state, for the adapters). Per-seat segments are
turned so that the observing seat comes first, then the seats after it in
seat order; a seat in a one-hot segment is counted the same way. The pot is
clipped at three bankrolls (no payment can exceed what the Fish has, T3).

Length: no bound. Ties reroll until all three scores differ (T6, T8) and
rounds repeat until a player has no coins (T10). Adapters truncate at
`length_cap`, 20,000 steps (a random game averages under 100).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TYPE_CHECKING, Any

from dicehall.core.encoding import (
    ActionVocabulary,
    Encoding,
    Layout,
    View,
    clip,
    put_number,
    put_one_hot,
    relative,
    rotated,
)
from dicehall.games.tepiiku.rules import (
    BET,
    BET_ACTIONS,
    DICE,
    FISH,
    FORCED,
    OVER,
    PAY,
    REROLLS,
    RUNE,
    SEATS,
    THROW,
    TIES,
)

if TYPE_CHECKING:
    from dicehall.games.tepiiku.rules import Tepiiku, TepiikuState

ACTIONS = (*BET_ACTIONS, PAY, *REROLLS)
PHASES = (THROW, BET, TIES, FISH, FORCED, OVER)
PHASE_INDEX = {name: i for i, name in enumerate(PHASES)}
RUNE_INDEX = {rune: i for i, rune in enumerate(RUNE)}
LAST_KINDS = ("bust", "still", "tie", "beat", "settled", "pay")
LAST_INDEX = {kind: i for i, kind in enumerate(LAST_KINDS)}
LOW, HIGH = -6, 12  # scores (T2)


def encoding(game: Tepiiku) -> Encoding:
    n = SEATS
    coins_max = game.bankroll * SEATS

    layout = Layout()
    phase = layout.one_hot("phase", len(PHASES), "the phase: " + ", ".join(PHASES))
    round_no = layout.numbers("round", 1, 0, 1000, "the round number, clipped")
    coins = layout.numbers("coins", n, 0, coins_max, "coins per seat")
    pot = layout.numbers("pot", 1, 0, coins_max, "the pot (T5, T8), clipped")
    dice = layout.one_hot("dice", n * DICE * 6, "per seat, per die: its rune, while visible")
    known = layout.one_hot("score_known", n, "1 for each seat whose score you see")
    scores = layout.numbers("scores", n, LOW, HIGH, "scores per seat (T2), 0 while hidden")
    revealed = layout.one_hot("revealed", 1, "1 once the dice are shown")
    thumbs = layout.one_hot("thumbs", 2 * n, "per seat: thumbs up, thumbs down, while visible")
    committed = layout.one_hot("committed", n, "1 for each seat committed to the choice now due")
    choice = layout.one_hot("your_choice", DICE, "the dice of your committed tie reroll")
    tied = layout.one_hot("tied", n, "seats that must reroll a tie (T6)")
    roles = layout.one_hot("roles", 3 * n, "the Fish, the middle, the Hook (T7), a seat each")
    forced = layout.one_hot("forced", n, "who must reroll after a tie (T8)")
    rerolling = layout.one_hot("rerolling", n * DICE, "pending rerolls: per seat, its dice")
    last_kind = layout.one_hot(
        "last_kind", len(LAST_KINDS), "what settled last: " + ", ".join(LAST_KINDS)
    )
    last_seat = layout.one_hot("last_seat", n, "whose reroll or payment it was")
    last_scores = layout.numbers("last_scores", 2, LOW, HIGH, "a reroll's score before, after")
    last_amount = layout.numbers("last_amount", 1, 0, coins_max, "a payment's amount")
    last_hook = layout.one_hot("last_hook", n, "who was paid")

    def encode(view: View) -> list[float]:
        me: int = view["seat"] or 0  # a spectator (None) sees from seat 0
        t = layout.zeros()
        put_one_hot(t, phase, PHASE_INDEX[view["phase"]])
        put_number(t, round_no, view["round"])
        for i, value in enumerate(rotated(view["coins"], me)):
            put_number(t, coins, value, i)
        put_number(t, pot, view["pot"])
        for i, hand in enumerate(rotated(view["dice"], me)):
            if hand is not None:
                for d, rune in enumerate(hand):
                    put_one_hot(t, dice, (i * DICE + d) * 6 + RUNE_INDEX[rune])
        for i, value in enumerate(rotated(view["scores"], me)):
            if value is not None:
                put_one_hot(t, known, i)
                put_number(t, scores, value, i)
        if view["revealed"]:
            put_one_hot(t, revealed, 0)
        for i, up in enumerate(rotated(view["thumbs"], me)):
            if up is not None:
                put_one_hot(t, thumbs, 2 * i + (0 if up else 1))
        for i, flag in enumerate(rotated(view["committed"], me)):
            if flag:
                put_one_hot(t, committed, i)
        mine = view["choices"][me]
        for d in mine or ():
            put_one_hot(t, choice, d)
        for seat in view["tied"]:
            put_one_hot(t, tied, relative(seat, me, n))
        if view["roles"] is not None:
            for r, role in enumerate(("fish", "middle", "hook")):
                where = relative(view["roles"][role], me, n)
                if where is not None:
                    put_one_hot(t, roles, r * n + where)
        put_one_hot(t, forced, relative(view["forced"], me, n))
        for entry in view["rerolling"]:
            where = relative(entry["seat"], me, n)
            if where is not None:
                for d in entry["dice"]:
                    put_one_hot(t, rerolling, where * DICE + d)
        last = view["last"]
        if last is not None:
            put_one_hot(t, last_kind, LAST_INDEX[last["kind"]])
            put_one_hot(t, last_seat, relative(last["seat"], me, n))
            if last["kind"] == "pay":
                put_number(t, last_amount, last["amount"])
                put_one_hot(t, last_hook, relative(last["hook"], me, n))
            else:
                put_number(t, last_scores, last["before"], 0)
                put_number(t, last_scores, last["after"], 1)
        return t

    orders = [tuple(enumerate(rotated(range(n), me))) for me in range(n)]

    def fill(state: TepiikuState, me: int, t: MutableSequence[float]) -> None:
        """`encode(state.view(me))` written straight from the state (`Encoding.fill`).

        Zeros are already in place, so a number whose segment holds 0 is written only
        when it is not 0.
        """
        s_phase = state.phase
        t[phase.start + PHASE_INDEX[s_phase]] = 1.0
        if state.round:
            t[round_no.start] = clip(state.round, round_no)
        if state.pot:
            t[pot.start] = clip(state.pot, pot)
        is_revealed = state.revealed
        s_coins, s_dice, s_scores, s_thumbs = state.coins, state.dice, state.scores, state.thumbs
        committed_to: list[Any] | None = None
        if s_phase in (BET, TIES) and not state.pending:
            committed_to = s_thumbs if s_phase == BET else state.choices
        for i, s in orders[me]:
            if s_coins[s]:
                t[coins.start + i] = clip(s_coins[s], coins)
            visible = is_revealed or s == me
            hand = s_dice[s]
            if visible and hand:
                for d, rune in enumerate(hand):
                    t[dice.start + (i * DICE + d) * 6 + RUNE_INDEX[rune]] = 1.0
                score = s_scores[s]
                if score is not None:
                    t[known.start + i] = 1.0
                    if score:
                        t[scores.start + i] = clip(score, scores)
            if visible and s_thumbs[s] is not None:
                t[thumbs.start + 2 * i + (0 if s_thumbs[s] else 1)] = 1.0
            if committed_to is not None and committed_to[s] is not None:
                t[committed.start + i] = 1.0
        if is_revealed:
            t[revealed.start] = 1.0
        if s_phase == TIES:
            mine = state.choices[me]
            if mine is not None:
                for d in mine:
                    if 0 <= d < DICE:
                        t[choice.start + d] = 1.0
            for seat in state.tied:
                t[tied.start + (seat - me) % n] = 1.0
        if state.fish >= 0 and s_phase in (FISH, FORCED):
            for r, seat in enumerate((state.fish, state.middle, state.hook)):
                t[roles.start + r * n + (seat - me) % n] = 1.0
        if s_phase == FORCED and state.forced is not None:
            t[forced.start + (state.forced - me) % n] = 1.0
        if is_revealed:
            for seat, chosen in state.pending:
                where = (seat - me) % n
                for d in chosen:
                    t[rerolling.start + where * DICE + d] = 1.0
        last = state.last
        if last is not None:
            kind = last["kind"]
            t[last_kind.start + LAST_INDEX[kind]] = 1.0
            t[last_seat.start + (last["seat"] - me) % n] = 1.0
            if kind == "pay":
                t[last_amount.start] = clip(last["amount"], last_amount)
                t[last_hook.start + (last["hook"] - me) % n] = 1.0
            else:
                t[last_scores.start] = clip(last["before"], last_scores)
                t[last_scores.start + 1] = clip(last["after"], last_scores)

    return Encoding(
        actions=ActionVocabulary(ACTIONS),
        layout=layout,
        encode=encode,
        utility_bounds=(-game.bankroll, 2 * game.bankroll),
        max_game_length=None,
        length_cap=20_000,
        max_chance_outcomes=6**DICE,
        unbounded="ties reroll until the scores differ (T6, T8); rounds repeat (T10)",
        fill=fill,
    )
