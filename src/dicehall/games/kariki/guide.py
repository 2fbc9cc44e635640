"""Kariki's first-game guide: three players, a pass, a pull on the truth, a Kariki and a
pull on a lie (K1-K7), each explained as it happens (`dicehall.core.guide`)."""

from __future__ import annotations

from dicehall.core.guide import Guide, learner_names, move, throw

GUIDE = Guide(
    seats=3,
    names=learner_names(3),
    intro=(
        "Kariki is a bluffing game with two dice under a mug. The roller alone sees the "
        "dice and claims what they show, truly or not; the next player believes it and "
        "tries to beat it, calls the bluff, or passes it on. This short game shows each "
        "choice once."
    ),
    steps=(
        throw(6),
        throw(3),
        throw(
            2,
            note="To choose the first roller, everyone throws one die: your 6 is the highest, "
            "so you roll first.",
            rule="K1",
        ),
        move(
            0,
            note="The first roller chooses which way play goes round. Send it left: from you "
            "to Bot 2, then Bot 3, then back to you.",
            rule="K1",
            type="direction",
            way="left",
        ),
        throw(
            5,
            6,
            note="You threw under the mug. Only you see these dice: 5 and 6, an Eleven.",
            rule="K4",
        ),
        move(
            0,
            note="Now claim a rank. You may lie, but this time tell the truth: claim Eleven. "
            "(A Kariki, 1 and 2, is never claimed: it is shown at once.)",
            rule="K4",
            type="claim",
            rank="11",
        ),
        move(
            1,
            note="Bot 2 passes: it accepts your Eleven as if it had thrown it. The claim is "
            "Bot 2's now, and the choice moves on to Bot 3.",
            rule="K5",
            type="pass",
        ),
        move(
            2,
            note="Bot 3 pulls: it lifts the mug. The dice are 5 and 6, so the claim was true "
            "and the puller gets a dingle berry. Bot 2, who owned the claim, did not get "
            "the berry, so Bot 2 begins a fresh roll.",
            rule="K5",
            type="pull",
        ),
        throw(
            1,
            2,
            note="Bot 2 threw 1 and 2: a Kariki, the best throw of all. A Kariki is shown at "
            "once: Bot 2 gets a crown, the next player (Bot 3) a dingle berry, and Bot 2 "
            "rolls again.",
            rule="K3",
        ),
        throw(4, 1),
        move(1, type="claim", rank="7"),
        move(
            2,
            note="Bot 2 claims Seven. Bot 3 rolls higher: it takes the mug without looking "
            "at the dice, throws, and must claim more than Seven.",
            rule="K5",
            type="roll",
        ),
        throw(3, 1),
        move(2, type="claim", rank="4-4"),
        move(
            0,
            note="Bot 3 claims Double Fours and the choice is yours: roll higher, pull or "
            "pass. Pull: if the dice are not what was claimed, the claim's owner gets the "
            "berry; if they are, you do.",
            rule="K5",
            type="pull",
        ),
    ),
    outro=(
        "Under the mug: 3 and 1, only a Four. Bot 3 lied and gets a dingle berry; you did "
        "not, so you begin the next fresh roll. Five dingle berries and a player is out; "
        "the last player in wins the pot (K7). That is the guide: start a real game from "
        "the lobby."
    ),
)
