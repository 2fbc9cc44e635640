"""Kariki's table best response (three seats and more) against plain enumeration.

On a small Kariki (one round, three seats, at most two throws under the mug)
the whole game is walked through the core API from each first roller. The
best responder at seat 0 remembers every view it was shown at each of its
decisions, and the bots are asked at every node through their views: the best
response found by backward induction over the best responder's histories must
have the value the round decomposition gives, position by position.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Hashable
from typing import Any

import pytest

from dicehall.core import Game, State
from dicehall.core.bots import BotFactory
from dicehall.games import make_game
from dicehall.games.kariki.rules import LEFT, KarikiState
from dicehall.games.kariki.solver.best_response import (
    OUT,
    TableModel,
    after_round,
    end_label,
    set_score,
    simulate,
    subgame_root,
    table_best_response,
)
from dicehall.games.kariki.solver.solve import action_chances

SMALL = {"one_round": True, "throws": 2}


def brute_force(game: Game, factory: BotFactory, first: int) -> float:
    """Seat 0's chance of not losing the round when it best-responds with full recall."""
    root = game.new_state()
    assert isinstance(root, KarikiState)
    root.roll_off_seats = []
    root.first_roller = root.roller = first
    root.phase = 2  # DIRECTION
    root.apply(first, LEFT)

    # Every node: (kind, data). Kinds: "leaf" value; "chance" [(p, child)];
    # "bot" [(chance, child)]; "me" (infoset, [child]).
    nodes: list[tuple[str, Any]] = []
    depth: dict[Hashable, int] = {}

    def walk(state: State, history: tuple[Hashable, ...]) -> int:
        index = len(nodes)
        nodes.append(("", None))
        if state.is_over():
            nodes[index] = ("leaf", 1.0 if 0 in state.result().winners else 0.0)
        elif state.is_chance():
            children = []
            for faces, p in state.chance_outcomes():
                child = state.clone()
                child.apply_chance(faces)
                children.append((float(p), walk(child, history)))
            nodes[index] = ("chance", children)
        else:
            seat = state.actors()[0]
            legal = list(state.legal_actions(seat))
            view = state.view(seat)
            if seat == 0:
                infoset = (*history, json.dumps(view, sort_keys=True))
                depth[infoset] = len(infoset)
                kids = []
                for a, action in enumerate(legal):
                    child = state.clone()
                    child.apply(seat, action)
                    kids.append(walk(child, (*infoset, a)))
                nodes[index] = ("me", (infoset, kids))
            else:
                bot = factory(game, seat, random.Random(seat))
                chances = action_chances(bot, view, tuple(legal))
                kids2 = []
                for action, chance in zip(legal, chances, strict=True):
                    if chance > 0:
                        child = state.clone()
                        child.apply(seat, action)
                        kids2.append((float(chance), walk(child, history)))
                nodes[index] = ("bot", kids2)
        return index

    walk(root, ())
    choice: dict[Hashable, int] = {}

    def value(i: int) -> float:
        kind, data = nodes[i]
        if kind == "leaf":
            return float(data)
        if kind in ("chance", "bot"):
            assert isinstance(data, list)
            return float(sum(p * value(c) for p, c in data))
        infoset, kids = data
        return value(kids[choice[infoset]])

    # Each infoset's nodes with the weight (chance and bots) of reaching them.
    members: dict[Hashable, list[tuple[float, int]]] = defaultdict(list)

    def reach(i: int, w: float) -> None:
        kind, data = nodes[i]
        if kind in ("chance", "bot"):
            assert isinstance(data, list)
            for p, c in data:
                reach(c, w * p)
        elif kind == "me":
            infoset, kids = data
            members[infoset].append((w, i))
            for c in kids:
                reach(c, w)

    reach(0, 1.0)
    # Deeper histories first: a choice's value uses only the choices after it.
    for infoset in sorted(members, key=lambda k: -depth[k]):
        kids_of = [nodes[i][1][1] for _, i in members[infoset]]
        width = len(kids_of[0])
        totals = [
            sum(w * value(kids[a]) for (w, _), kids in zip(members[infoset], kids_of, strict=True))
            for a in range(width)
        ]
        choice[infoset] = max(range(width), key=totals.__getitem__)
    return value(0)


@pytest.mark.parametrize(
    "bot",
    [
        "heuristic",
        # minutes each: the table bot solves the small options' round game first
        pytest.param("table", marks=pytest.mark.slow),
        pytest.param("random", marks=pytest.mark.slow),
    ],
)
def test_table_best_response_matches_brute_force(bot: str) -> None:
    game = make_game("kariki", 3, SMALL)
    factory = game.bots()[bot]
    result, _ = table_best_response(TableModel(game), bot, factory)
    for k in range(3):
        first = (0 - k) % 3
        brute = brute_force(
            make_game("kariki", 3, {**SMALL, "first_roller": str(first)}), factory, first
        )
        assert result.by_offset[k] == pytest.approx(brute, abs=1e-9)


def test_a_table_of_equals_shares_fairly() -> None:
    """Seat 0 playing the bot too: by symmetry the positions average the fair share."""
    game = make_game("kariki", 3, {"berries": 2})
    result, _ = table_best_response(
        TableModel(game), "heuristic", game.bots()["heuristic"], evaluate=True
    )
    assert result.value == pytest.approx(1 / 3, abs=1e-12)
    best, _ = table_best_response(TableModel(game), "heuristic", game.bots()["heuristic"])
    assert all(b >= e - 1e-12 for b, e in zip(best.by_offset, result.by_offset, strict=True))


def test_round_ends_K3_K7() -> None:
    """A third crown gives every other player a berry, the victim two (K3); five is out (K7)."""
    cells = (0 * 3 + 2, 4 * 3 + 0, 3 * 3 + 1)  # seat 0 two crowns; seat 1 in the poo
    assert after_round(cells, ("kariki", 0, 0), 5, False) == ((0, OUT, 4 * 3 + 1), 0)
    assert after_round((4 * 3, 0, 0), ("berry", 0, 1), 5, False) == 0.0
    assert after_round((0, 4 * 3, OUT), ("berry", 1, 0), 5, False) == 1.0


@pytest.mark.parametrize("after_kariki", ["roller", "berry"])
def test_round_ends_as_the_engine_plays_them(after_kariki: str) -> None:
    """Random rounds from random scores: `after_round` of the label read at no berries is
    where the engine goes from the real score (berries, crowns, outs, who begins)."""
    game = make_game("kariki", 4, {"after_kariki": after_kariki})
    rng = random.Random(5)
    cells_of = [OUT, *range(15)]
    for _ in range(300):
        cells = tuple(rng.choice(cells_of) if s else rng.randrange(15) for s in range(4))
        if sum(c != OUT for c in cells) < 2:
            continue
        ins = [c != OUT for c in cells]
        roller = rng.choice([s for s in range(4) if ins[s]])
        real = subgame_root(game, ins, (roller, -1, -1))
        set_score(real, cells, 5)
        blank = subgame_root(game, ins, (roller, -1, -1))
        while True:
            if blank.is_chance():
                faces = rng.choice([f for f, _ in blank.chance_outcomes()])
                blank.apply_chance(faces)
                real.apply_chance(faces)
            else:
                seat = blank.actors()[0]
                action = rng.choice(list(blank.legal_actions(seat)))
                blank.apply(seat, action)
                real.apply(seat, action)
            if any(blank.berries) or any(blank.crowns):
                break
        nxt = after_round(cells, end_label(blank, ins), 5, False)
        if isinstance(nxt, float):
            assert real.out[0] or real.is_over()
            assert nxt == (1.0 if real.is_over() and not real.out[0] else 0.0)
            continue
        expect = tuple(
            OUT if real.out[s] else real.berries[s] * 3 + real.crowns[s] % 3 for s in range(4)
        )
        assert nxt == (expect, real.roller)


def test_the_best_response_played_from_its_view_wins_what_was_computed() -> None:
    """Seat 0 playing the computed best response through its view, against random bots
    (no memory, either direction of play): the win rate is the computed value."""
    game = make_game("kariki", 3, {"one_round": True})
    model = TableModel(game)
    factory = game.bots()["random"]
    result, kept = table_best_response(model, "random", factory, keep=True)
    assert kept is not None
    rate, half = simulate(model, kept, factory, 1500, 3)
    assert abs(rate - result.value) < max(half, 0.01) * 1.5
