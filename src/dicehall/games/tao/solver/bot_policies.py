"""The heuristic and random bots' policies over the two-seat model, for exploitability.

A bot is asked through a seat's view. The model has 47 million betting
information states, too many to ask one by one, but these two bots look at
little of the view: the random bot at the legal actions only, the
heuristic (the game's `bots.py`) at its own 2d6 and d12, the other's d12 and whether
the other will reroll it, the stones it holds (what a bid costs it and
which colours it may pay) and the size of the pot. So each is asked once
per distinct combination of those, through a view that holds them, and the
answer is spread over every information state with that combination.
tests/strategy check the spread policy against the bot asked through the
engine's own views at random states.
"""

from __future__ import annotations

import random

import numpy as np

from dicehall.core import Action, Game, View
from dicehall.games.tao.bots import HeuristicBot
from dicehall.games.tao.rules import CALLS, FOLD, PASS, RAISES
from dicehall.games.tao.solver.model import (
    N_GO_ON,
    NODE_PLAYER,
    O,
    after_end,
)
from dicehall.games.tao.solver.solve import Model, Policy

SLOT_ACTIONS: tuple[tuple[Action, ...], tuple[Action, ...]] = (
    (PASS, RAISES[0], RAISES[1]),
    (CALLS[0], CALLS[1], FOLD),
)
"""The action of each slot at an opening node and at an answering node."""


def dice_of(hand: int) -> list[int]:
    """Two faces summing to hand + 2."""
    a = min(6, hand + 1)
    return [a, hand + 2 - a]


def heuristic_view(
    stage: int, hand: int, own: int | None, other: int | None, reroll: bool,
    black: int, white: int, pot: int,
) -> View:  # fmt: skip
    """A two-seat view holding what the heuristic reads (seat 0 is the one to act)."""

    def player(seat: int, **kw: object) -> dict[str, object]:
        base = {"seat": seat, "status": "in", "dice": None, "d12": None, "must_reroll": False,
                "black": 0, "white": 0, "bet": None, "paid": {"black": 0, "white": 0}}  # fmt: skip
        return {**base, **kw}

    return {
        "seat": 0, "phase": "bet", "stage": stage, "m": 1,
        "pot": {"black": pot, "white": 0},
        "players": [
            player(0, dice=dice_of(hand), d12=own, black=black, white=white),
            player(1, d12=other, must_reroll=reroll),
        ],
    }  # fmt: skip


def bot_policy(model: Model, name: str, game: Game | None = None) -> Policy:
    """The policy of the heuristic or the random bot at every decision of the model."""
    if name not in ("heuristic", "random"):
        raise ValueError(f"the two-seat model can ask the heuristic and random bots, not {name!r}")
    pos = model.positions
    n, h, d = len(pos), model.h, model.dice.twelve
    s1, s2 = model.uniform(0, n)
    ante_o = model.ante_legal.any(-1) / model.ante_legal.any(-1).sum(-1, keepdims=True)
    ante_x = model.ante_legal / np.maximum(model.ante_legal.sum(-1, keepdims=True), 1)
    if name == "random":
        return Policy(s1.astype(np.float32), s2.astype(np.float32), ante_o, ante_x)
    from dicehall.games import make_game

    bot = HeuristicBot(game or make_game("tao", 2), 0, random.Random(0))
    memo: dict[tuple[object, ...], np.ndarray] = {}

    def table(stage: int, node: int, mask: tuple[bool, ...], stones: tuple[int, int],
              pot: int, reroll: bool) -> np.ndarray:  # fmt: skip
        """The slot chosen per (own d12, other's d12, hand): d x d x h (stage one: 1 x 1 x h)."""
        key = (stage, node >= 2, mask, stones, pot, reroll)
        if key not in memo:
            actions = [a for a, ok in zip(SLOT_ACTIONS[node >= 2], mask, strict=True) if ok]
            faces = range(1, d + 1) if stage == 2 else [None]
            out = np.zeros((len(faces), len(faces), h), dtype=np.int64)
            for i, own in enumerate(faces):
                for j, other in enumerate(faces):
                    for hand in range(h):
                        view = heuristic_view(stage, hand, own, other, reroll, *stones, pot)
                        chosen = bot.choose(view, actions)
                        out[i, j, hand] = SLOT_ACTIONS[node >= 2].index(chosen)
            memo[key] = out
        return memo[key]

    total = pos.black + pos.white
    stage2 = np.zeros((6, 3, n, N_GO_ON, d * d, h), dtype=np.float32)
    stage1 = np.zeros((6, 3, n, h), dtype=np.float32)
    for i, stones in enumerate(pos.stones):
        starts = [(1, stones, -1)] + [(2, after_end(stones, e), e) for e in range(N_GO_ON)]
        for stage, before, end in starts:
            if before.min() < 0:
                continue  # a stage-one ending this position cannot reach
            masks = model.paths.stage1_masks[i] if stage == 1 else model.paths.stage2_masks[i, end]
            for node in range(6):
                me = NODE_PLAYER[node]
                paid = 1 if node >= 2 else 0  # the raiser's stone is in the pot
                pot = total - int(before.sum()) + paid
                mine = (int(before[2 * me]), int(before[2 * me + 1]))
                reroll = stage == 2 and node in (3, 5)  # the raiser paid white: its d12 is rethrown
                mask = tuple(bool(x) for x in masks[node])
                slots = table(stage, node, mask, mine, pot, reroll)
                onehot = np.eye(3, dtype=np.float32)[slots]  # d x d x h x 3
                if stage == 1:
                    stage1[node, :, i] = onehot[0, 0].T
                    continue
                if me != O:  # X's own d12 is the second of the pair
                    onehot = onehot.transpose(1, 0, 2, 3)
                stage2[node, :, i, end] = onehot.reshape(d * d, h, 3).transpose(2, 0, 1)
    # Unreachable stage-one endings keep the uniform policy (never played).
    reached = stage2.sum(1, keepdims=True) > 0
    stage2 = np.where(reached, stage2, s2.astype(np.float32))
    ante_o = np.zeros_like(ante_o)
    ante_x = np.zeros_like(ante_x)
    first = model.ante_legal.any(-1).argmax(-1)  # the fewest white stones: legal[0]
    ante_o[np.arange(len(first)), first] = 1.0
    firsts = model.ante_legal.argmax(-1)
    pre, k = np.indices(firsts.shape)
    ante_x[pre, k, firsts] = 1.0
    return Policy(stage1, stage2, ante_o, ante_x)
