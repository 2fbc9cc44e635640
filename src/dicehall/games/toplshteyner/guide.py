"""Toplshteyner's first-game guide: a point set and made, High Fives, Trick Sixes, a seven
and Saving Grace (P2-P9), each explained as it happens (`dicehall.core.guide`)."""

from __future__ import annotations

from dicehall.core.guide import Guide, learner_names, move, throw

GUIDE = Guide(
    seats=3,
    names=learner_names(3),
    intro=(
        "In Toplshteyner everyone has three lives. On your turn you throw two dice: set a "
        "point, then throw it again before a seven. Every double is a consequence with its "
        "own effect. The last player with lives wins the pot."
    ),
    steps=(
        throw(6),
        throw(2),
        throw(
            3,
            note="Everyone throws one die and the highest throws first: you.",
            rule="P2",
        ),
        throw(
            4,
            2,
            note="Your turn: throw the two dice. A total that is neither a double nor 7 "
            "sets your point.",
            rule="P3",
        ),
        throw(
            5,
            5,
            note="Your point is 6. Now throw until you make it again (safe) or throw a 7 "
            "(a life lost).",
            rule="P3",
        ),
        move(
            0,
            note="5 and 5, High Fives, a consequence: you choose another player to lose a "
            "life. Choose Bot 2: its life goes into the pot.",
            rule="P8",
            type="elect",
            seat=1,
        ),
        throw(
            1,
            5,
            note="Your turn goes on: throw again for your 6.",
            rule="P3",
        ),
        throw(
            2,
            3,
            note="1 and 5 make 6, your point: you are safe and the dice pass to Bot 2, who "
            "sets a point of 5.",
            rule="P3",
        ),
        throw(
            6,
            6,
            note="6 and 6, Trick Sixes: the roller gains a life. Bot 2 had two, so the life "
            "comes back from the pot. Its turn goes on.",
            rule="P9",
        ),
        throw(
            3,
            4,
            note="A 7 before its point: Bot 2 loses a life into the pot and the dice pass "
            "to Bot 3.",
            rule="P3",
        ),
        throw(
            2,
            2,
            note="2 and 2, Saving Grace: Bot 3's turn ends at once, and it is safe.",
            rule="P5",
        ),
    ),
    outro=(
        "The dice come back to you. A player with no lives left is out, and the last "
        "player with lives wins the pot (P10). The other doubles: a first 1-1 costs a life, 3-3 "
        "makes the point 6, 4-4 makes it 2. That is the guide: start a real game from the "
        "lobby."
    ),
)
