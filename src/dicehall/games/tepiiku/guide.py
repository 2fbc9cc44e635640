"""Tepiiku's first-game guide: the thumbs, a tie, the Fish's reroll that beats both and
the Fish paying (T2-T9), each explained as it happens (`dicehall.core.guide`). The
purses are small so that the one round ends the game."""

from __future__ import annotations

from dicehall.core.guide import Guide, learner_names, move, throw

GUIDE = Guide(
    seats=3,
    names=learner_names(3),
    options={"bankroll": 6},
    intro=(
        "Tepiiku is played by three with rune dice. Whoever shows the lowest score is the "
        "Fish and pays the pot to the Hook, the highest, unless a reroll gets them out of "
        "it. Everyone starts this short game with 6 coins (20 at a real table)."
    ),
    steps=(
        throw(
            "water",
            "person",
            "water",
            note="Everyone throws three rune dice in secret. Yours: water, person, water. "
            "A water is worth 4 (0 if you also show a fire); each person is worth the "
            "number of persons you show, here 1. Your score: 9.",
            rule="T2",
        ),
        throw("fire", "fire", "fire"),
        throw("water", "water", "gem"),
        move(1, type="thumbs", up=False),
        move(2, type="thumbs", up=True),
        move(
            0,
            note="Everyone shows thumbs up or down at once, without seeing the others. The "
            "pot is 1 coin plus 1 for each thumbs up. Your 9 is good: thumbs up.",
            rule="T5",
            type="thumbs",
            up=True,
        ),
        move(1, type="reroll", dice=[2]),
        move(
            0,
            note="The dice are shown: Bot 2's three fires make 9 too. Players who tie each "
            "choose dice to reroll, all at once, until the three scores differ. Reroll one "
            "water.",
            rule="T6",
            type="reroll",
            dice=[0],
        ),
        throw("skull"),
        throw(
            "ingot",
            note="Your water became a skull (-2): 3. Bot 2's fire became an ingot: 7. The "
            "lowest score is the Fish (you), the highest the Hook (Bot 3, 10).",
            rule="T7",
        ),
        move(
            0,
            note="The Fish pays the pot to the Hook, or rerolls any of their dice. A reroll "
            "that does not raise your score is a bust: you pay twice the pot. Reroll the "
            "skull and the person.",
            rule="T8",
            type="reroll",
            dice=[0, 1],
        ),
        throw(
            "water",
            "water",
            note="Three waters: 12, better than both others. Beating a player doubles the "
            "pot, and the roles are given again: Bot 2 is the Fish now, and you the Hook.",
            rule="T8",
        ),
        move(
            1,
            note="Bot 2, the Fish, pays the pot to you, the Hook. Only the Fish pays and only "
            "the Hook is paid.",
            rule="T9",
            type="pay",
        ),
    ),
    outro=(
        "Bot 2 has no coins left, so the game ends: of the other two, the one with more "
        "coins wins, and that is you (T4). That is the guide: start a real game from the "
        "lobby."
    ),
)
