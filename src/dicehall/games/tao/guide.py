"""Tao Dice's first-game guide: one round of three players, with a raise paid in a white
stone (and its reroll), a fold, the twelve-sided dice and the showdown (D2-D8), each
explained as it happens (`dicehall.core.guide`). The game is that one round."""

from __future__ import annotations

from dicehall.core.guide import Guide, learner_names, move, throw

GUIDE = Guide(
    seats=3,
    names=learner_names(3),
    options={"length": "round"},
    intro=(
        "In Tao Dice you bet stones on two hidden dice and a twelve-sided die everyone "
        "sees; a white stone buys a reroll. This guide is one round; a real game goes on "
        "until one player holds all the stones."
    ),
    steps=(
        throw(
            0,
            note="The first player is chosen at random: you. You open the betting.",
            rule="D3",
        ),
        move(
            0,
            note="Everyone puts one stone into the pot, the ante. Its colour does not matter.",
            rule="D2",
            type="ante",
            white=0,
        ),
        move(1, type="ante", white=0),
        move(2, type="ante", white=0),
        throw(
            3,
            2,
            note="Your two dice stay hidden in your tube: 3 and 2, a poor 5. Nobody else "
            "sees them, and you see nobody else's.",
            rule="D2",
        ),
        throw(5, 5),
        throw(1, 2),
        move(
            0,
            note="Betting: from the opener round the table, each player passes or raises "
            "one stone. Raise with a white stone: a white stone makes you throw your two "
            "dice again when this stage's betting is over.",
            rule="D5",
            type="raise",
            white=1,
        ),
        move(
            1,
            note="After a raise every other player calls (puts in a stone too) or folds. "
            "Bot 2 calls with a black stone.",
            rule="D3",
            type="call",
            white=0,
        ),
        move(
            2,
            note="Bot 3 folds: it leaves the round. Its stones stay in the pot and its dice "
            "stay hidden.",
            rule="D7",
            type="fold",
        ),
        throw(
            6,
            5,
            note="You paid with a white stone, so you throw your two dice again: 6 and 5, now 11.",
            rule="D5",
        ),
        throw(7),
        throw(
            4,
            note="Stage two: everyone still in throws the twelve-sided die for all to see. "
            "You 7, Bot 2 4.",
            rule="D6",
        ),
        move(
            0,
            note="The betting goes round again, as in stage one. Pass.",
            rule="D6",
            type="pass",
        ),
        move(1, type="raise", white=0),
        move(
            0,
            note="Bot 2 raises. Call with a black stone (a white one would make you throw "
            "your twelve-sided die again).",
            rule="D5",
            type="call",
            white=0,
        ),
    ),
    outro=(
        "The showdown: everyone still in shows their dice. You 6 + 5 + 7 = 18, Bot 2 "
        "5 + 5 + 4 = 14. The highest total takes the whole pot (D8). In a real game rounds "
        "go on until one player holds all the stones, which wins a match (D10). That is "
        "the guide: start a real game from the lobby."
    ),
)
