"""Two-seat Tao Dice cut into rounds, for the solver: positions, betting paths, showdowns.

With two seats the bid unit is always one stone (D11), and a round is:
antes (public choices of colour, D2), then a *betting round* that starts
with both players' hidden 2d6 freshly thrown: stage one (D3, D4), the
2d6 rerolls of white payers (D5), both d12s shown (D6), stage two, the d12
rerolls, the showdown (D8). A tie starts a tie-break round (D9), which is
again a betting round with fresh dice, the pot carried over.

So a betting round starts from a public *position*, with nothing private
carried in: the stones each player holds, by colour (the pot holds the
rest), and who opens. In one match the opener never changes (the token
moves only between matches, D12), so everything is written in the
*opener's frame*: player O opens, player X is the other, and a value is
O's chance of winning the match. A position is (bO, wO, bX, wX); between
rounds, before the antes, a *pre-ante* position is O's (b, w) alone.

Inside a betting round each stage has the same shape (node: who acts,
the actions in slot order):

    node 0  O: pass | raise (no white) | raise (white)
    node 1  X, after O passed:  pass | raise | raise (white)
    node 2+k  X, after O raised with k white:  call | call (white) | fold
    node 4+k  O, after X raised with k white:  call | call (white) | fold

and thirteen ends: 0 both passed; 1 + 2k + j O raised k, X called j;
5 + 2k + j X raised k, O called j; 9 + k X folded; 11 + k O folded. The
first nine go on (to stage two, or the showdown). A slot the player
cannot pay for is masked out (a gratis player, D4, "calls" in slot 0 for
free and cannot raise).

The private information of a player is the sum of its 2d6 (the faces
never matter); after a reroll the old sum is forgotten, losslessly: it
never scores again and, given the public history, says nothing about the
other player's dice.

`Dice` makes the dice sizes a parameter, so the tests can check this model
against the engine's own game tree with small dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
Array = npt.NDArray[Any]
"""Reaches, values and chances: single or double precision, as a pass runs."""

O, X = 0, 1  # noqa: E741 (the opener and the other player, as the docs name them)
N_NODES = 6
N_ENDS = 13
N_GO_ON = 9
N_SLOTS = 3
NODE_PLAYER = (O, X, X, X, O, O)
PASS_SLOT, FOLD_SLOT = 0, 2
CHILD: tuple[tuple[tuple[str, int], ...], ...] = (
    (("node", 1), ("node", 2), ("node", 3)),
    (("end", 0), ("node", 4), ("node", 5)),
    (("end", 1), ("end", 2), ("end", 9)),
    (("end", 3), ("end", 4), ("end", 10)),
    (("end", 5), ("end", 6), ("end", 11)),
    (("end", 7), ("end", 8), ("end", 12)),
)
"""Where each slot of each node leads."""
PARENT = {child: (node, slot) for node, row in enumerate(CHILD) for slot, child in enumerate(row)}


def end_bets(end: int) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """((raiser, white), (caller, white)) of an end; None where nobody did."""
    if end == 0:
        return None, None
    if end <= 8:
        raiser = O if end <= 4 else X
        k, j = divmod(end - (1 if end <= 4 else 5), 2)
        return (raiser, k), (1 - raiser, j)
    raiser = O if end <= 10 else X
    return (raiser, (end - 9) % 2), None


FOLD_WINNER = {9: O, 10: O, 11: X, 12: X}


@dataclass(frozen=True)
class Dice:
    """The dice of the model: two `six`-sided dice hidden, one `twelve`-sided die shown."""

    six: int = 6
    twelve: int = 12
    black: int = 4
    white: int = 2
    """The stones each player starts a match with (D1)."""

    @property
    def hands(self) -> int:
        return 2 * self.six - 1

    @cached_property
    def hand_chances(self) -> FloatArray:
        """q[h]: the chance that 2d6 sum to h + 2."""
        q = np.zeros(self.hands)
        for a in range(1, self.six + 1):
            for b in range(1, self.six + 1):
                q[a + b - 2] += 1
        chances: FloatArray = q / q.sum()
        return chances

    @cached_property
    def showdown(self) -> tuple[FloatArray, FloatArray]:
        """(win, tie): O's chances at the showdown, by (O rerolls the d12, X rerolls,
        O's d12 - 1, X's d12 - 1, O's hand, X's hand), the d12 rerolls thrown."""
        d, h = self.twelve, self.hands
        keep = np.eye(d)
        fresh = np.full((d, d), 1.0 / d)
        faces = np.arange(1, d + 1)
        sums = np.arange(2, 2 * self.six + 1)
        total_o = faces[:, None] + sums[None, :]  # (final d12, hand)
        diff = total_o[:, None, :, None] - total_o[None, :, None, :]  # a, b, hO, hX
        above = (diff > 0).astype(np.float64)
        level = (diff == 0).astype(np.float64)
        win = np.empty((2, 2, d, d, h, h))
        tie = np.empty((2, 2, d, d, h, h))
        for fo in (0, 1):
            for fx in (0, 1):
                po = fresh if fo else keep
                px = fresh if fx else keep
                win[fo, fx] = np.einsum("ia,jb,abhk->ijhk", po, px, above)
                tie[fo, fx] = np.einsum("ia,jb,abhk->ijhk", po, px, level)
        return win, tie


Stones = tuple[int, int, int, int]
"""(bO, wO, bX, wX): what each player holds; the pot holds the rest."""


def pays(stones: IntArray, player: int, white: IntArray | int, call: bool) -> IntArray:
    """(black, white) a raise or call of `white` white stones takes from `player` (m = 1).

    A call by a player with no stones is free (D4). Vectorised over positions.
    """
    b, w = stones[..., 2 * player], stones[..., 2 * player + 1]
    white = np.broadcast_to(np.asarray(white), b.shape)
    has = (b + w > 0) | (not call)
    return np.stack([np.where(has, 1 - white, 0), np.where(has, white, 0)], axis=-1)


def after_end(stones: IntArray, end: int) -> IntArray:
    """The stones each player holds after a stage that ended with `end`."""
    out = stones.copy()
    for bet, is_call in zip(end_bets(end), (False, True), strict=True):
        if bet is not None:
            player, k = bet
            paid = pays(stones, player, k, is_call)
            out[..., 2 * player] -= paid[..., 0]
            out[..., 2 * player + 1] -= paid[..., 1]
    return out


def rerolls(end: int) -> tuple[int, int]:
    """(O rerolls, X rerolls) after a stage that ended with `end` (D5: a white stone paid)."""
    flags = [0, 0]
    for bet in end_bets(end):
        if bet is not None and bet[1] == 1:
            flags[bet[0]] = 1
    return flags[0], flags[1]


def masks(stones: IntArray) -> FloatArray:
    """1.0 for each slot a player may take at each node, given the stones before the stage."""
    out = np.zeros((*stones.shape[:-1], N_NODES, N_SLOTS))
    for node, player in enumerate(NODE_PLAYER):
        b, w = stones[..., 2 * player], stones[..., 2 * player + 1]
        if node <= 1:  # pass, raise black, raise white
            out[..., node, 0] = 1.0
            out[..., node, 1] = b >= 1
            out[..., node, 2] = w >= 1
        else:  # call (free with no stones), call white, fold
            out[..., node, 0] = (b >= 1) | (b + w == 0)
            out[..., node, 1] = w >= 1
            out[..., node, 2] = 1.0
    return out


class Positions:
    """Every position of a two-seat match and every pre-ante position, with their indices.

    `ext` values are laid out as [positions, pre-ante positions, O loses the
    match, O wins the match].
    """

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.black = 2 * dice.black
        self.white = 2 * dice.white
        self.all: list[Stones] = [
            (bo, wo, bx, wx)
            for bo in range(self.black + 1)
            for bx in range(self.black + 1 - bo)
            for wo in range(self.white + 1)
            for wx in range(self.white + 1 - wo)
            if self.black + self.white - (bo + bx + wo + wx) >= 2
        ]
        self.index = {p: i for i, p in enumerate(self.all)}
        self.pre: list[tuple[int, int]] = [
            (b, w)
            for b in range(self.black + 1)
            for w in range(self.white + 1)
            if 0 < b + w < self.black + self.white
        ]
        self.pre_index = {p: i for i, p in enumerate(self.pre)}
        self.stones = np.array(self.all, dtype=np.int64).reshape(-1, 4)
        self.lose = len(self.all) + len(self.pre)
        self.win = self.lose + 1
        self.n_ext = self.win + 1
        # For array lookups: post[bo, wo, bx, wx] and pre[b, w] (-1 where none).
        self.post_table = np.full((self.black + 1, self.white + 1) * 2, -1, dtype=np.int64)
        for i, (bo, wo, bx, wx) in enumerate(self.all):
            self.post_table[bo, wo, bx, wx] = i
        self.pre_table = np.full((self.black + 1, self.white + 1), -1, dtype=np.int64)
        for i, (b, w) in enumerate(self.pre):
            self.pre_table[b, w] = len(self.all) + i

    def __len__(self) -> int:
        return len(self.all)

    @property
    def start(self) -> int:
        """The pre-ante position a match starts from, as an `ext` index."""
        return int(self.pre_table[self.dice.black, self.dice.white])

    def taken(self, stones: IntArray, winner: int) -> IntArray:
        """The `ext` index after `winner` takes the pot: a pre-ante position, or the match's end."""
        s = np.clip(stones, 0, None)
        pot_b = self.black - s[..., 0] - s[..., 2]
        pot_w = self.white - s[..., 1] - s[..., 3]
        bo = s[..., 0] + (pot_b if winner == O else 0)
        wo = s[..., 1] + (pot_w if winner == O else 0)
        loser_left = (s[..., 2] + s[..., 3]) if winner == O else (s[..., 0] + s[..., 1])
        bo, wo = np.clip(bo, 0, self.black), np.clip(wo, 0, self.white)
        pre = self.pre_table[bo, wo]
        end = self.win if winner == O else self.lose
        return np.where(loser_left == 0, end, np.maximum(pre, 0))

    def tied(self, stones: IntArray) -> IntArray:
        """The `ext` index of the tie-break round these stones start (D9)."""
        s = np.clip(stones, 0, None)
        return np.maximum(self.post_table[s[..., 0], s[..., 1], s[..., 2], s[..., 3]], 0)

    def antes(self) -> tuple[IntArray, FloatArray]:
        """For each pre-ante position: the position after O antes k white and X j white
        (pre x k x j), and 1.0 where that pair of antes is legal."""
        n = len(self.pre)
        post = np.zeros((n, 2, 2), dtype=np.int64)
        legal = np.zeros((n, 2, 2))
        for i, (b, w) in enumerate(self.pre):
            bx, wx = self.black - b, self.white - w
            for k in (0, 1):
                for j in (0, 1):
                    stones = (b - (1 - k), w - k, bx - (1 - j), wx - j)
                    if min(stones) >= 0:
                        post[i, k, j] = self.index[stones]
                        legal[i, k, j] = 1.0
        return post, legal


@dataclass
class Paths:
    """Per position: the stones and masks of each stage and where each end leads."""

    stage1_masks: FloatArray
    """positions x nodes x slots."""
    stage2_masks: FloatArray
    """positions x 9 stage-one ends x nodes x slots."""
    fold1: IntArray
    """positions x 13: the `ext` index a stage-one fold leads to (ends 9-12; 0 elsewhere)."""
    fold2: IntArray
    """positions x 9 x 13: the same for stage two."""
    show: IntArray
    """positions x 9 x 9 x 3: for a showdown, the `ext` index if O wins, if X wins, if tied."""


def paths(positions: Positions) -> Paths:
    stones = positions.stones
    n = len(stones)
    s1 = np.stack([after_end(stones, e) for e in range(N_ENDS)], axis=1)  # n x 13 x 4
    fold1 = np.zeros((n, N_ENDS), dtype=np.int64)
    for e, winner in FOLD_WINNER.items():
        fold1[:, e] = positions.taken(s1[:, e], winner)
    go = s1[:, :N_GO_ON]  # n x 9 x 4
    s2 = np.stack([after_end(go, e) for e in range(N_ENDS)], axis=2)  # n x 9 x 13 x 4
    fold2 = np.zeros((n, N_GO_ON, N_ENDS), dtype=np.int64)
    for e, winner in FOLD_WINNER.items():
        fold2[:, :, e] = positions.taken(s2[:, :, e], winner)
    final = s2[:, :, :N_GO_ON]
    show = np.stack(
        [positions.taken(final, O), positions.taken(final, X), positions.tied(final)], axis=-1
    )
    return Paths(masks(stones), masks(np.clip(go, 0, None)), fold1, fold2, show)


def betting_start(game: object, stones: Stones, opener: int = 0) -> object:
    """An engine state at the start of a betting round from a position, opener's frame undone.

    Seat `opener` is O. The pot holds the rest of the stones; the 2d6 are
    about to be thrown (the state a tie-break round starts in, D9). Tests and
    the tools that check this model against the engine use it.
    """
    from dicehall.games.tao.rules import TaoState

    state = game.new_state()  # type: ignore[attr-defined]
    assert isinstance(state, TaoState) and state.n == 2
    total = state.conserved()
    bo, wo, bx, wx = stones
    x = 1 - opener
    state.black[opener], state.white[opener] = bo, wo
    state.black[x], state.white[x] = bx, wx
    state.pot_black = total["black"] - bo - bx
    state.pot_white = total["white"] - wo - wx
    state.first_player = opener
    state.out = [False, False]
    state.in_round = [True, True]
    state._start_round(ante=False)
    return state


# --- a seat's view, placed in the model ------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """Where a two-seat betting decision lies in the model (the opener's frame)."""

    position: int
    """The position the betting round started from."""
    stage: int
    end: int
    """Stage two: how stage one ended (0-8); -1 in stage one."""
    pair: int
    """Stage two: the d12 pair, (O's - 1) * twelve + X's - 1; -1 in stage one."""
    node: int
    hand: int
    """The seat's 2d6 sum - 2."""
    player: int
    """O or X: the seat's part."""


def stage_node(bets: list[tuple[int, str, int]]) -> int:
    """The node a stage is at after these bets ((player, type, white) each)."""
    if not bets:
        return 0
    first = bets[0]
    if first[1] == "raise":
        return 2 + first[2]
    if len(bets) == 1:
        return 1
    return 4 + bets[1][2]


def stage_end(bets: list[tuple[int, str, int]]) -> int:
    """The end (0-8) of a stage that went on to the next, from its bets."""
    node = stage_node(bets[:-1])
    kind, white = bets[-1][1], bets[-1][2]
    if kind == "pass":
        return 0
    if kind == "fold":
        raise ValueError("a folded stage does not go on")
    return 1 + 2 * (node - 2) + white if node in (2, 3) else 5 + 2 * (node - 4) + white


def locate(view: Mapping[str, Any], positions: Positions) -> Decision | None:
    """The decision a two-seat betting view is at, or None if the model does not hold it."""
    if view.get("phase") != "bet" or len(view["players"]) != 2 or view.get("m") != 1:
        return None
    players = view["players"]
    o = view["opener"]
    frame = (o, 1 - o)
    stones = [0, 0, 0, 0]
    for part, seat in enumerate(frame):
        stones[2 * part] = players[seat]["black"]
        stones[2 * part + 1] = players[seat]["white"]
    per_stage: dict[int, list[tuple[int, str, int]]] = {1: [], 2: []}
    for bet in view["bets"]:
        part = frame.index(bet["seat"])
        stones[2 * part] += bet["black"]
        stones[2 * part + 1] += bet["white"]
        per_stage[bet["stage"]].append((part, bet["type"], bet["white"]))
    position = positions.index.get((stones[0], stones[1], stones[2], stones[3]))
    me = view["seat"]
    dice = players[me]["dice"]
    if position is None or dice is None:
        return None
    stage = int(view["stage"])
    end = pair = -1
    if stage == 2:
        end = stage_end(per_stage[1])
        twelve = positions.dice.twelve
        pair = (players[frame[0]]["d12"] - 1) * twelve + players[frame[1]]["d12"] - 1
    node = stage_node(per_stage[stage])
    hand = dice[0] + dice[1] - 2
    return Decision(position, stage, end, pair, node, hand, frame.index(me))


def slot_of(action: Mapping[str, Any]) -> int:
    """The slot of a betting action: pass 0, raise 1 + white; call white, fold 2."""
    kind = action["type"]
    if kind == "pass":
        return PASS_SLOT
    if kind == "fold":
        return FOLD_SLOT
    return (1 if kind == "raise" else 0) + int(action["white"])
