"""Kariki for learners: fixed action ids, the observation tensor, bounds (core/encoding.py).

Action ids, for every seat count and option: 0-13 claim a rank, Four to
Double Sixes (rank order, K2); 14 roll higher, 15 pull, 16 pass; 17 left,
18 right; 19 buy the emergency berry, 20 go out (K9).

The observation is built from the seat's view alone (`fill` writes the same
numbers straight from the state, for the adapters). Per-seat segments are
turned so that the observing seat comes first, then the seats after it in
seat order; a seat in a one-hot segment is counted the same way. Money is
counted in buy-ins. `game.encoding.layout.markdown()` prints the layout.

Length: after the first roller is known, claims rise strictly (K4), so a
round has at most 14 claims (`throws` of them with that option), each
followed by at most one pass per seat (K6) and one roll or pull; every
round gives a berry, and a seat takes at most `berries` + 1 of them (the
emergency berry, K9). The roll-off (C5) can tie forever, so a game with it
has no bound; adapters cap it at the bound after the roll-off plus 1,000
steps, which a roll-off reaches with probability below 6**-400.
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
from dicehall.games.kariki.rules import (
    BUY,
    CLAIM,
    CLAIM_ACTIONS,
    DECLINE,
    DIRECTION,
    EMERGENCY,
    KARIKI,
    LEFT,
    OVER,
    PASS,
    PHASE_NAMES,
    PULL,
    RANK,
    RANK_IDS,
    RESPOND,
    RIGHT,
    ROLL,
    ROLL_OFF,
    THROW,
)

if TYPE_CHECKING:
    from dicehall.games.kariki.rules import Kariki, KarikiState

ACTIONS = (*CLAIM_ACTIONS, ROLL, PULL, PASS, LEFT, RIGHT, BUY, DECLINE)
CLAIMS = KARIKI  # 14 claimable ranks
RANKS = KARIKI + 1
RANK_INDEX = {rank_id: rank for rank, rank_id in enumerate(RANK_IDS)}
PHASE_INDEX = {name: i for i, name in enumerate(PHASE_NAMES)}
ROLL_OFF_ALLOWANCE = 1000


def encoding(game: Kariki) -> Encoding:
    n = game.seats
    options = game.options
    out = int(options["berries"])
    buy_in = int(options["buy_in"])
    high_rollers = bool(options["high_rollers"])
    one_round = bool(options["one_round"])
    pot_max = n * 2**n if high_rollers else n  # in buy-ins: each emergency berry doubles it

    layout = Layout()
    phase = layout.one_hot("phase", len(PHASE_NAMES), "the phase: " + ", ".join(PHASE_NAMES))
    pot = layout.numbers("pot", 1, 0, pot_max, "the pot, in buy-ins")
    berries = layout.numbers("berries", n, 0, out, "dingle berries per seat")
    crowns = layout.numbers("crowns", n, 0, 2, "crowns per seat, modulo 3 (K3)")
    slashes = layout.numbers("slashes", n, 0, 2, "slashes per seat, modulo 3 (K8)")
    gone = layout.one_hot("out", n, "1 for each seat that is out")
    used = layout.one_hot("emergency_used", n, "1 for each seat that bought its emergency berry")
    paid = layout.numbers("paid", n, 0, pot_max, "what each seat paid in, in buy-ins")
    direction = layout.one_hot("direction", 2, "left, right (none before it is chosen)")
    roller = layout.one_hot("roller", n, "the seat holding the mug")
    claim = layout.one_hot("claim", CLAIMS, "the claim on the table, Four to Double Sixes")
    previous = layout.one_hot("previous_claim", CLAIMS, "the claim it followed")
    owner = layout.one_hot("claim_owner", n, "the claim's owner")
    responder = layout.one_hot("responder", n, "whose choice it is")
    passed = layout.one_hot("pass_chain", n, "1 for each seat that passed this claim")
    die1 = layout.one_hot("your_die_1", 6, "your first die under the mug (yours alone)")
    die2 = layout.one_hot("your_die_2", 6, "your second die under the mug")
    your_rank = layout.one_hot("your_rank", RANKS, "the rank of your dice under the mug")
    may = layout.one_hot("may", 2, "the responder may roll, may pass")
    shown_how = layout.one_hot("last_shown_how", 2, "the last dice shown: by a Kariki, a pull")
    shown_rank = layout.one_hot("last_shown_rank", RANKS, "their rank")
    shown_claim = layout.one_hot("last_shown_claim", CLAIMS, "the claim they were pulled on")
    shown_thrower = layout.one_hot("last_shown_thrower", n, "who threw them")
    shown_puller = layout.one_hot("last_shown_puller", n, "who pulled")
    shown_berry = layout.one_hot("last_shown_berry_to", n, "who got the berry")
    contenders = layout.one_hot("roll_off_contenders", n, "seats still in the roll-off")
    roll_off = layout.numbers("roll_off_throws", n, 0, 6, "their roll-off die this round, 0: none")
    deciding = layout.one_hot("deciding", n, "who decides on an emergency berry")
    price = layout.numbers("emergency_price", 1, 0, pot_max, "its price, in buy-ins")
    winners = layout.one_hot("winners", n, "the winners, once over")

    def encode(view: View) -> list[float]:
        me: int = view["seat"] or 0  # a spectator (None) sees from seat 0
        t = layout.zeros()
        put_one_hot(t, phase, PHASE_INDEX[view["phase"]])
        put_number(t, pot, view["pot"] / buy_in)
        for i, value in enumerate(rotated(view["berries"], me)):
            put_number(t, berries, value, i)
        for i, value in enumerate(rotated(view["crowns"], me)):
            put_number(t, crowns, value % 3, i)
        for i, value in enumerate(rotated(view["slashes"], me)):
            put_number(t, slashes, value % 3, i)
        put_flags(t, gone, rotated(view["out"], me))
        put_flags(t, used, rotated(view["emergency_used"], me))
        for i, value in enumerate(rotated(view["paid"], me)):
            put_number(t, paid, value / buy_in, i)
        put_one_hot(t, direction, {"left": 0, "right": 1}.get(view["direction"]))
        put_one_hot(t, roller, relative(view["roller"], me, n))
        put_one_hot(t, claim, RANK_INDEX.get(view["claim"]))
        put_one_hot(t, previous, RANK_INDEX.get(view["previous_claim"]))
        put_one_hot(t, owner, relative(view["claim_owner"], me, n))
        put_one_hot(t, responder, relative(view["responder"], me, n))
        for seat in view["pass_chain"]:
            put_one_hot(t, passed, relative(seat, me, n))
        dice = view["your_dice"]
        if dice is not None:
            put_one_hot(t, die1, dice[0] - 1)
            put_one_hot(t, die2, dice[1] - 1)
            put_one_hot(t, your_rank, RANK[dice[0]][dice[1]])
        put_flags(t, may, (view["may_roll"], view["may_pass"]))
        shown = view["last_shown"]
        if shown is not None:
            put_one_hot(t, shown_how, 0 if shown["how"] == "kariki" else 1)
            put_one_hot(t, shown_rank, RANK_INDEX[shown["rank"]])
            put_one_hot(t, shown_claim, RANK_INDEX.get(shown["claim"]))
            put_one_hot(t, shown_thrower, relative(shown["thrower"], me, n))
            put_one_hot(t, shown_puller, relative(shown["puller"], me, n))
            put_one_hot(t, shown_berry, relative(shown["berry_to"], me, n))
        roll = view.get("roll_off")
        if roll is not None:
            for seat in roll["contenders"]:
                put_one_hot(t, contenders, relative(seat, me, n))
            for i, face in enumerate(rotated(roll["throws"], me)):
                put_number(t, roll_off, face or 0, i)
        if "deciding" in view:
            put_one_hot(t, deciding, relative(view["deciding"], me, n))
            put_number(t, price, view["emergency_price"] / buy_in)
        if view["over"]:
            for seat in view["result"]["winners"]:
                put_one_hot(t, winners, relative(seat, me, n))
        return t

    # where each segment starts, for `fill`
    berries_at = berries.start
    crowns_at = crowns.start
    slashes_at = slashes.start
    gone_at = gone.start
    used_at = used.start
    paid_at = paid.start
    claim_at = claim.start
    contenders_at = contenders.start
    deciding_at = deciding.start
    die1_at = die1.start
    die2_at = die2.start
    direction_at = direction.start
    may_at = may.start
    owner_at = owner.start
    passed_at = passed.start
    phase_at = phase.start
    pot_at = pot.start
    previous_at = previous.start
    price_at = price.start
    responder_at = responder.start
    roll_off_at = roll_off.start
    roller_at = roller.start
    shown_berry_at = shown_berry.start
    shown_claim_at = shown_claim.start
    shown_how_at = shown_how.start
    shown_puller_at = shown_puller.start
    shown_rank_at = shown_rank.start
    shown_thrower_at = shown_thrower.start
    winners_at = winners.start
    your_rank_at = your_rank.start

    orders = [tuple(enumerate(rotated(range(n), me))) for me in range(n)]
    pot_max_f, out_f = float(pot_max), float(out)

    def fill(state: KarikiState, me: int, t: MutableSequence[float]) -> None:
        """`encode(state.view(me))` written straight from the state (`Encoding.fill`).

        Zeros are already in place, so only the other entries are written.
        """
        s_phase = state.phase
        t[phase_at + s_phase] = 1.0
        t[pot_at] = clip(state.pot / buy_in, pot)
        s_berries, s_crowns, s_slashes = state.berries, state.crowns, state.slashes
        s_out, s_used, s_paid = state.out, state.emergency_used, state.paid
        for i, s in orders[me]:
            value = s_berries[s]
            if value:
                t[berries_at + i] = (
                    float(value) if 0 <= value <= out else 0.0 if value < 0 else out_f
                )
            value = s_crowns[s] % 3
            if value:
                t[crowns_at + i] = float(value)
            value = s_slashes[s] % 3
            if value:
                t[slashes_at + i] = float(value)
            if s_out[s]:
                t[gone_at + i] = 1.0
            if s_used[s]:
                t[used_at + i] = 1.0
            value = s_paid[s] / buy_in
            if value:
                t[paid_at + i] = value if 0 <= value <= pot_max else 0.0 if value < 0 else pot_max_f
        if s_phase != ROLL_OFF and s_phase != DIRECTION:
            t[direction_at + (0 if state.step == 1 else 1)] = 1.0
        if state.roller >= 0:
            t[roller_at + (state.roller - me) % n] = 1.0
        in_play = s_phase in (THROW, CLAIM, RESPOND)
        s_claim = state.claim
        if in_play and s_claim >= 0:
            if s_claim < CLAIMS:
                t[claim_at + s_claim] = 1.0
            t[owner_at + (state.owner - me) % n] = 1.0
        if s_phase == RESPOND:
            if 0 <= state.previous_claim < CLAIMS:
                t[previous_at + state.previous_claim] = 1.0
            t[responder_at + (state.responder - me) % n] = 1.0
            for seat in state.passed:
                t[passed_at + (seat - me) % n] = 1.0
            legal = state.legal_actions(state.responder)
            if ROLL in legal:
                t[may_at] = 1.0
            if PASS in legal:
                t[may_at + 1] = 1.0
        if s_phase in (CLAIM, RESPOND) and me == state.roller:
            a, b = state.die1, state.die2
            if 1 <= a <= 6:
                t[die1_at + a - 1] = 1.0
            if 1 <= b <= 6:
                t[die2_at + b - 1] = 1.0
            rank = RANK[a][b]
            if 0 <= rank < RANKS:
                t[your_rank_at + rank] = 1.0
        shown = state.last_shown
        if shown is not None:
            a, b, thrower, how, shown_on, _, puller, berry_to = shown
            t[shown_how_at + (0 if how == "kariki" else 1)] = 1.0
            t[shown_rank_at + RANK[a][b]] = 1.0
            if 0 <= shown_on < CLAIMS:
                t[shown_claim_at + shown_on] = 1.0
            t[shown_thrower_at + (thrower - me) % n] = 1.0
            if puller is not None:
                t[shown_puller_at + (puller - me) % n] = 1.0
            t[shown_berry_at + (berry_to - me) % n] = 1.0
        if s_phase == ROLL_OFF:
            for seat in state.roll_off_seats:
                t[contenders_at + (seat - me) % n] = 1.0
            faces = state.roll_off_faces
            for i in range(n):
                face = faces[(me + i) % n] or 0
                t[roll_off_at + i] = float(face if 0 <= face <= 6 else 0 if face < 0 else 6)
        elif s_phase == EMERGENCY:
            t[deciding_at + (state.pending_out[0] - me) % n] = 1.0
            t[price_at] = clip(state.pot / buy_in, price)
        elif s_phase == OVER:
            for seat in state.result().winners:
                t[winners_at + (seat - me) % n] = 1.0

    claims = min(CLAIMS, int(options["throws"]) or CLAIMS)  # claims rise strictly (K4)
    round_steps = claims * (n + 3) + 1 + n  # claims, passes, roll or pull, the last throw; K9
    rounds = 1 if one_round else n * (out + 1)
    after_roll_off = 1 + rounds * round_steps  # the direction, then the rounds
    bounded = options["first_roller"] != "roll-off"
    if one_round:
        bounds = (-buy_in * (n - 1), buy_in)
    elif high_rollers:
        bounds = (-buy_in * pot_max, buy_in * pot_max)
    else:
        bounds = (-buy_in, buy_in * (n - 1))
    return Encoding(
        actions=ActionVocabulary(ACTIONS),
        layout=layout,
        encode=encode,
        utility_bounds=bounds,
        max_game_length=after_roll_off if bounded else None,
        length_cap=after_roll_off if bounded else after_roll_off + ROLL_OFF_ALLOWANCE,
        max_chance_outcomes=36,
        unbounded="" if bounded else "the roll-off (C5): tied throws go on until one is highest",
        fill=fill,
    )
