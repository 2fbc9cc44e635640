"""Kariki for learners: fixed action ids, the observation tensor, bounds (core/encoding.py).

Action ids, for every seat count and option: 0-13 claim a rank, Four to
Double Sixes (rank order, K2); 14 roll higher, 15 pull, 16 pass; 17 left,
18 right; 19 buy the emergency berry, 20 go out (K9).

The observation is built from the seat's view alone. Per-seat segments are
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

from typing import TYPE_CHECKING

from dicehall.core.encoding import (
    ActionVocabulary,
    Encoding,
    Layout,
    View,
    put_flags,
    put_number,
    put_one_hot,
    relative,
    rotated,
)
from dicehall.games.kariki.rules import (
    BUY,
    CLAIM_ACTIONS,
    DECLINE,
    KARIKI,
    LEFT,
    PASS,
    PHASE_NAMES,
    PULL,
    RANK,
    RANK_IDS,
    RIGHT,
    ROLL,
)

if TYPE_CHECKING:
    from dicehall.games.kariki.rules import Kariki

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
    )
