"""Game review and practice against brute force through the engine, C6, and bad input.

Each game's review is checked on a scripted game: the values the review shows
for a decision are recomputed here by brute force through the core API alone
(clone, apply, chance outcomes, views), with the model's own continuation
(the mix its advice gives at each actor's view) and Bayes' rule over what the
reviewing seat does not see, done by enumeration: every hidden outcome
consistent with the seat's views so far, weighed by its chance and by the
other seats' mixes along the way.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.core import Game, RandomDice, State, Table, make_bots
from dicehall.core.errors import DicehallError, TranscriptError
from dicehall.core.game import field_names
from dicehall.core.odds import action_values
from dicehall.core.shown import shown_throws, stand_ins
from dicehall.games import make_game
from dicehall.strategy.practice import NoPuzzles, draw, from_review
from dicehall.strategy.review import NotOver, label_of, review


def transcript(table: Table) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(table.transcript()))
    return data


def children(game: Game, state: State, mix: Mix | None = None) -> Iterator[tuple[float, State]]:
    """The next states with their chances: a throw's outcomes, or the actor's actions
    weighed by the model's mix at the actor's view (`mix`, else the advice's)."""
    if state.is_chance():
        for faces, p in state.chance_outcomes():
            child = state.clone()
            child.apply_chance(faces)
            yield float(p), child
        return
    (actor,) = state.actors()
    legal = state.legal_actions(actor)
    chances: tuple[float, ...] = (1.0,)
    if len(legal) > 1:
        chances = (mix or model_mix)(game, state.view(actor), legal)
    for action, q in zip(legal, chances, strict=True):
        if q > 0:
            child = state.clone()
            child.apply(actor, action)
            yield q, child


Mix = Callable[[Game, dict[str, Any], Any], tuple[float, ...]]
MIXES: dict[str, tuple[float, ...]] = {}


def model_mix(game: Game, view: dict[str, Any], legal: Any) -> tuple[float, ...]:
    """The model's mix at a view (the advice's), kept: many states share a view."""
    key = repr((game.id, game.seats, sorted(game.options.items()), view))
    if key not in MIXES:
        values = action_values(game.advice(view, legal), len(legal))
        assert values is not None and values.mix is not None
        MIXES[key] = values.mix
    return MIXES[key]


def key_of(state: State) -> str:
    """Every field of a state (a compiled state keeps them as native attributes)."""
    names = field_names(type(state)) or tuple(vars(state))
    return repr([(k, getattr(state, k)) for k in sorted(names) if k not in ("log", "game")])


# --- Kariki: the last round of a two-seat game, both one berry from out -------------------


def kariki_endgame() -> tuple[dict[str, Any], int]:
    """A two-seat game played by bots until both players have four berries at a fresh
    roll, then its last round scripted (K4-K6): the roller throws Double Fives and claims
    Double Sixes, the other passes, the roller pulls its own lie; and the step where that
    round's throw is due."""
    game = make_game("kariki", 2)
    for seed in range(400):
        table = Table(game, RandomDice(seed), record=False)
        bots = make_bots(game, ["heuristic"], random.Random(seed))
        state = table.state
        while not state.is_over():
            if state.is_chance():
                if getattr(state, "berries", None) == [4, 4] and state.view(None)["claim"] is None:
                    break
                table.roll()
                continue
            seat = state.actors()[0]
            table.act(seat, bots[seat].choose(state.view(seat), state.legal_actions(seat)))
        if state.is_over():
            continue
        start = len(table.steps)
        roller = state.view(None)["roller"]
        state.apply_chance((5, 5))
        table.steps.append({"chance": [5, 5]})
        table.act(roller, {"type": "claim", "rank": "6-6"})
        table.act(1 - roller, {"type": "pass"})
        table.act(roller, {"type": "pull"})
        assert state.is_over() and state.result().winners == (roller,)
        return transcript(table), start
    raise AssertionError("no game reached four berries each")


def brute_values(
    game: Game,
    data: dict[str, Any],
    start: int,
    seat: int,
    rated: Callable[[dict[str, Any]], bool] = lambda view: view["claim"] is not None,
    leaf: Callable[[State], float | None] = lambda state: None,
    key: Callable[[State], str] = key_of,
    mix: Mix | None = None,
) -> list[list[float]]:
    """Each decision of `seat` from step `start` on: its actions' chances of winning, by
    enumeration of the round (Bayes over the other's dice, both on the model's mix).

    By default a Kariki round: a fresh roll's claim is not brute-forced, the
    game's end is the only leaf, states are keyed by every field and the mix
    is the advice's. `rated` picks the decisions valued (the others give []),
    `leaf` values a state the enumeration stops at (None: go on), `key` names
    the states that share a value and `mix` replaces the advice's mix."""
    state = game.new_state()
    steps = data["steps"]
    for step in steps[:start]:
        _apply(state, step)
    particles: list[tuple[float, State]] = [(1.0, state)]
    memo: dict[str, float] = {}

    def value(s: State) -> float:
        if s.is_over():
            return 1.0 if seat in s.result().winners else 0.0
        k = key(s)
        if k not in memo:
            end = leaf(s)
            memo[k] = sum(p * value(c) for p, c in children(game, s, mix)) if end is None else end
        return memo[k]

    actual = state.clone()
    found: list[list[float]] = []
    for step in steps[start:]:
        if step.get("seat") == seat and len(actual.legal_actions(seat)) > 1:
            if not rated(actual.view(seat)):
                found.append([])
                _apply(actual, step)
                particles = [(w, _stepped(p, step)) for w, p in particles]
                continue
            total = sum(w for w, _ in particles)
            row = []
            for action in actual.legal_actions(seat):
                worth = 0.0
                for w, p in particles:
                    after = p.clone()
                    after.apply(seat, action)
                    worth += w * value(after)
                row.append(worth / total)
            found.append(row)
        _apply(actual, step)
        if actual.is_over():
            break
        seen = actual.view(seat)
        following: list[tuple[float, State]] = []
        for w, p in particles:
            if step.get("seat") == seat:
                nxt = p.clone()
                _apply(nxt, step)
                following.append((w, nxt))
                continue
            for q, c in children(game, p, mix):
                if c.view(seat) == seen:
                    following.append((w * q, c))
        particles = following
    return found


def _stepped(state: State, step: dict[str, Any]) -> State:
    after = state.clone()
    _apply(after, step)
    return after


def _apply(state: State, step: dict[str, Any]) -> None:
    from dicehall.core.transcript import apply_step

    apply_step(state, step)


def test_kariki_endgame_round_values_are_the_brute_forced_ones() -> None:
    game = make_game("kariki", 2)
    data, start = kariki_endgame()
    roller = data["steps"][start + 1]["seat"]
    for seat in (0, 1):
        reviewed = review(data, seat)
        last = [d for d in reviewed.decisions if d.step >= start]
        brute = brute_values(game, data, start, seat)
        assert len(last) == len(brute)
        assert [d.phase for d in last] == (["claim", "respond"] if seat == roller else ["respond"])
        for d, row in zip(last, brute, strict=True):
            assert d.model == "solver" and d.measure == "win"
            if not row:
                continue
            assert [c.value for c in d.choices] == pytest.approx(row, abs=2e-4)
            assert d.loss == pytest.approx(max(row) - row[d.chosen or 0], abs=2e-4)
            if d.phase == "respond":
                assert 0.0 <= d.facts["claim_true"] <= 1.0


# --- Toplshteyner: two players, the fourth life --------------------------------------


def top_key(state: State) -> str:
    view = state.view(None)
    fields = ("phase", "lives", "pot", "bought", "roller", "point")
    flags = ("snake_eyes", "threes", "high_fives", "winner")
    return repr([view[f] for f in (*fields, *flags)])


def top_win_chances(game: Game, root: State, seat: int) -> float:
    """The seat's chance of winning from `root`, both on the model's choices, by value
    iteration over every state the engine reaches (turn states keyed by the public view)."""
    graph: dict[str, list[tuple[float, str]]] = {}
    ends: dict[str, float] = {}
    todo = [root]
    first = top_key(root)
    while todo:
        s = todo.pop()
        k = top_key(s)
        if k in graph or k in ends:
            continue
        if s.is_over():
            ends[k] = 1.0 if seat in s.result().winners else 0.0
            continue
        edges: dict[str, float] = {}
        for p, c in children(game, s):
            ck = top_key(c)
            edges[ck] = edges.get(ck, 0.0) + p
            if ck not in graph and ck not in ends:
                todo.append(c)
        graph[k] = [(w, ck) for ck, w in edges.items()]
    value = {k: 0.5 for k in graph} | ends
    for _ in range(10_000):
        change = 0.0
        for k, out in graph.items():
            v = sum(w * value[ck] for w, ck in out)
            change = max(change, abs(v - value[k]))
            value[k] = v
        if change < 1e-12:
            break
    return value[first]


@pytest.mark.slow  # the value iteration over every reached state runs for minutes
def test_toplshteyner_two_player_end_game_values_are_the_brute_forced_ones() -> None:
    game = make_game("toplshteyner", 2)
    for seed in range(200):
        table = Table(game, RandomDice(seed), record=False)
        table.play(make_bots(game, ["solver"], random.Random(seed)))
        data = transcript(table)
        reviewed = [r for r in (review(data, s) for s in (0, 1)) if r.rated()]
        if reviewed:
            break
    else:
        raise AssertionError("no game with a fourth life to buy")
    r = reviewed[0]
    state = game.new_state()
    steps = data["steps"]
    d = r.rated()[0]
    for step in steps[: d.step]:
        _apply(state, step)
    assert d.phase == "buy" and d.model == "solver"
    for choice in d.choices:
        after = state.clone()
        after.apply(r.seat, choice.action)
        assert choice.value == pytest.approx(top_win_chances(game, after, r.seat), abs=1e-5)


# --- Tepiiku: a Fish with one die to reroll --------------------------------------------


def tepiiku_tables(monkeypatch: pytest.MonkeyPatch, cap: int) -> Any:
    """Tables of random values for a cap, found as if solved: what is checked is how the
    review reads them and that they value the Fish's reroll as the engine plays it."""
    from dicehall.games.tepiiku.solver import solve, stored

    model = solve.RoundSolver(cap)
    rng = np.random.default_rng(11)
    model.fish_value[:] = rng.normal(0, cap, model.fish_value.shape)
    model.forced_value[:] = rng.normal(0, cap, model.forced_value.shape)
    tables = stored.Tables(
        cap=cap,
        fish_policy=model.fish_policy.astype(np.int8),
        fish_value=model.fish_value.astype(np.float32),
        forced_policy=model.forced_policy.astype(np.int8),
        forced_value=model.forced_value.astype(np.float32),
        pair_strategy=np.zeros(1, dtype=np.float32),
        triple_strategy={},
        thumbs=rng.random((3, 56)),
        thumbs_value=rng.normal(0, 1, (3, 56, 2)),
        thumbs_nash_conv=0.0,
        heuristic_nash_conv=0.0,
        tie_epsilon=0.0,
    )
    monkeypatch.setattr(stored, "tables", lambda c: tables)
    return tables


def test_tepiiku_fish_with_one_die_to_reroll_values_are_the_brute_forced_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Skull, skull, gem (-2) below 2 and 9: the Fish rerolls one skull, busts and pays
    (T8); a bankroll of one coin ends the game there (T4)."""
    from dicehall.games.tepiiku.rules import RUNE, SUBSETS

    tables = tepiiku_tables(monkeypatch, 1)
    game = make_game("tepiiku", 3, {"bankroll": 1})
    hands: tuple[tuple[str, ...], ...] = (
        ("skull", "skull", "gem"),
        ("fire", "ingot", "skull"),
        ("person",) * 3,
    )
    table = Table(game, RandomDice(0), record=False)
    for faces in hands:
        table.state.apply_chance(list(faces))
        table.steps.append({"chance": list(faces)})
    for seat in range(3):
        table.act(seat, {"type": "thumbs", "up": False})
    table.act(0, {"type": "reroll", "dice": [0]})
    table.state.apply_chance(["skull"])  # still -2: a bust, twice the pot, all one has
    table.steps.append({"chance": ["skull"]})
    assert table.state.is_over()
    reviewed = review(transcript(table), 0)
    fish = next(d for d in reviewed.decisions if d.phase == "fish")
    assert fish.model == "solver" and fish.measure == "coins"
    before = make_game("tepiiku", 3, {"bankroll": 1}).new_state()
    for step in table.steps[: fish.step]:
        _apply(before, step)
    for choice in fish.choices:
        if choice.action["type"] == "pay":
            assert choice.value == pytest.approx(-1.0)  # the pot, one coin
            continue
        dice = tuple(choice.action["dice"])
        assert dice in SUBSETS
        total = 0.0
        for faces in _faces(tuple(str(r) for r in RUNE), len(dice)):
            after = before.clone()
            after.apply(0, choice.action)
            after.apply_chance(list(faces))
            total += _tepiiku_value(tables, after, 0)
        assert choice.value == pytest.approx(total / 6 ** len(dice), abs=1e-5)
    one = next(c for c in fish.choices if c.action.get("dice") == [0])
    assert fish.chosen is not None and fish.choices[fish.chosen] is one


def _faces(runes: tuple[str, ...], n: int) -> Iterator[tuple[str, ...]]:
    import itertools

    return itertools.product(runes, repeat=n)


def _tepiiku_value(tables: Any, state: Any, seat: int) -> float:
    """The Fish's value of a position reached: a payment made, or the tables' value."""
    from dicehall.games.tepiiku.rules import FISH, FORCED
    from dicehall.games.tepiiku.solver import solve
    from dicehall.games.tepiiku.solver.model import hand_index

    lay = solve.layout()
    if state.is_over() or state.phase not in (FISH, FORCED):
        return float(state.coins[seat] - 1)
    level = tables.level(state.pot)
    hands = [hand_index(d) for d in state.dice]
    if state.phase == FISH:
        seats = (state.fish, state.middle, state.hook)
        index = lay.fish_at[hands[seats[0]], hands[seats[1]], hands[seats[2]]]
        slots = tables.fish_value[level, index]
    else:
        x = state.forced
        y = next(s for s in range(3) if s != x and state.scores[s] == state.scores[x])
        seats = (x, y, 3 - x - y)
        index = lay.forced_at[hands[seats[0]], hands[seats[1]], hands[seats[2]]]
        slots = tables.forced_value[level, index]
    return float(slots[seats.index(seat)])


# --- Tao Dice: a two-seat match without a solved strategy on this machine -------------


def test_tao_review_without_a_strategy_names_its_model_and_rates_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dicehall.games.tao.solver import advice, stored

    monkeypatch.setattr(stored, "stored", lambda: None)
    monkeypatch.setattr(advice, "stored", lambda: None)
    game = make_game("tao", 2, {"length": "single", "opener": "0"})
    table = Table(game, RandomDice(4), record=False)
    table.play(make_bots(game, ["heuristic"], random.Random(4)))
    reviewed = review(transcript(table), 0)
    assert reviewed.decisions and not reviewed.rated()
    assert "naive showdown" in reviewed.models()
    assert reviewed.accuracy() is None
    with pytest.raises(NoPuzzles, match="naive showdown"):
        draw(game, 1, seed=0)


# --- Tao Dice: the last round of a two-seat match, one player two stones from out ------


def tao_last_round() -> tuple[dict[str, Any], int]:
    """A scripted single-match game (D12 option) whose seat 0 opens every round (D3
    option): seat 1 loses four quiet rounds (all pass, 6 + 6 + 12 beats 1 + 1 + 1, D8)
    down to one black and one white stone, then the last round: seat 1 antes black (D2;
    the antes come before the dice, so they say nothing of them), and from the step of
    the throws that follow, seat 0 raises black, seat 1 calls with its white stone and
    rerolls its 2d6 (D5); stage two (D6): the d12s show 4 and 8, seat 0 raises white,
    seat 1, with no stones, calls for free (D4), seat 0 rerolls its d12 and wins the
    showdown, 9 + 10 to 3 + 8 (D8): seat 1 is out, and the match is over (D10)."""
    game = make_game("tao", 2, {"length": "single", "opener": "0"})
    table = Table(game, RandomDice(0), record=False)

    def throw(*faces: int) -> None:
        table.state.apply_chance(list(faces))
        table.steps.append({"chance": list(faces)})

    for white in (1, 0, 0, 0):
        table.act(0, {"type": "ante", "white": 0})
        table.act(1, {"type": "ante", "white": white})
        throw(6, 6)
        throw(1, 1)
        for _ in range(2):
            table.act(0, {"type": "pass"})
            table.act(1, {"type": "pass"})
            if table.state.is_chance() and not table.state.is_over():
                throw(12)
                throw(1)
    assert (table.state.black, table.state.white) == ([7, 1], [3, 1])
    table.act(0, {"type": "ante", "white": 0})
    table.act(1, {"type": "ante", "white": 0})
    start = len(table.steps)
    throw(5, 4)
    throw(3, 3)
    table.act(0, {"type": "raise", "white": 0})
    table.act(1, {"type": "call", "white": 1})
    throw(1, 2)  # seat 1's reroll
    throw(4)
    throw(8)
    table.act(0, {"type": "raise", "white": 1})
    table.act(1, {"type": "call", "white": 0})  # gratis
    throw(10)  # seat 0's reroll
    assert table.state.is_over() and table.state.result().winners == (0,)
    return transcript(table), start


def tao_mix(game: Game, view: dict[str, Any], legal: Any) -> tuple[float, ...]:
    """The shipped strategy's chances at a view: what the advice reports as its mix."""
    from dicehall.games.tao.solver.policy import model_chances
    from dicehall.games.tao.solver.stored import stored

    strategy = stored()
    assert strategy is not None
    chances = model_chances(strategy, view, legal)
    assert chances is not None
    return tuple(chances)


def tao_key(state: State) -> str:
    """What a Tao state's value depends on: the public view, whose throw is due, and each
    player's 2d6 sum (the faces never score apart, D8)."""
    s: Any = state
    return repr((s.view(None), [a + b for a, b in s.dice], s.queue, s.pos))


def tao_leaf(seat: int) -> Callable[[State], float | None]:
    """At the next betting round's throw (a new round, or a tie-break, D9), the model's
    chance of winning the match from its position, for `seat`."""
    from dicehall.games.tao.solver.policy import positions
    from dicehall.games.tao.solver.stored import stored

    strategy = stored()
    assert strategy is not None

    def leaf(state: State) -> float | None:
        s: Any = state
        if s.phase != "throw" or any(d != (0, 0) for d in s.dice):
            return None
        o, x = s.opener, 1 - s.opener
        where = positions().index[(s.black[o], s.white[o], s.black[x], s.white[x])]
        opener_wins = float(strategy.values[where])
        return opener_wins if seat == o else 1.0 - opener_wins

    return leaf


def check_tao_last_round(stages: tuple[int, ...]) -> None:
    game = make_game("tao", 2, {"length": "single", "opener": "0"})
    data, start = tao_last_round()
    seen = 0
    for seat in (0, 1):
        reviewed = review(data, seat)
        last = [d for d in reviewed.decisions if d.step >= start]
        brute = brute_values(
            game,
            data,
            start,
            seat,
            rated=lambda view: view["phase"] == "bet" and view["stage"] in stages,
            leaf=tao_leaf(seat),
            key=tao_key,
            mix=tao_mix,
        )
        assert len(last) == len(brute)
        for d, row in zip(last, brute, strict=True):
            assert d.model == "solver"
            if not row:
                continue
            assert d.measure == "win"
            state = game.new_state()
            for step in data["steps"][: d.step]:
                _apply(state, step)
            legal = state.legal_actions(seat)
            plays = [c.model_plays for c in d.choices]
            assert plays == pytest.approx(tao_mix(game, state.view(seat), legal), abs=1e-6)
            assert [c.value for c in d.choices] == pytest.approx(row, abs=2e-4)
            assert d.loss == pytest.approx(max(row) - row[d.chosen or 0], abs=2e-4)
            seen += 1
    assert seen == 2 * len(stages)


def test_tao_last_round_stage_two_values_are_the_brute_forced_ones() -> None:
    """Stage two's decisions of the scripted last round, from each seat (seat 0's raise,
    seat 1's free call, D4), valued by enumeration through the engine from the round's
    antes: Bayes over the other's hidden 2d6 on the shipped strategy's chances (D5's
    reroll included), the d12 rerolls thrown, the showdown scored by the engine.

    Where a round leaves the match undecided the review's values go on with the
    model's match values (solved over every position, not reproducible at a test's
    cost), so the enumeration stops at the next betting round's throw and reads there
    what the model states: the strategy's chance of winning from that position (after
    the next antes, which it walks on the strategy's ante chances)."""
    check_tao_last_round((2,))


@pytest.mark.slow  # stage one's enumeration runs through every throw of the round
def test_tao_last_round_stage_one_values_are_the_brute_forced_ones() -> None:
    """The same round's stage-one decisions too (seat 0's raise, seat 1's white call),
    every 2d6 reroll, d12 pair and stage-two line below them enumerated."""
    check_tao_last_round((1, 2))


# --- labels, summary, practice ----------------------------------------------------------


def test_labels_follow_the_stated_thresholds() -> None:
    assert [label_of(x, "win") for x in (0.0, 0.01, 0.03, 0.07, 0.2)] == [
        "best",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    assert [label_of(x, "coins") for x in (0.0, 0.05, 0.2, 0.4, 0.6)] == [
        "best",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    ]


def test_summary_counts_every_decision_and_names_the_biggest_mistakes() -> None:
    game = make_game("kariki", 2)
    table = Table(game, RandomDice(5), record=False)
    table.play(make_bots(game, ["random"], random.Random(5)))
    reviewed = review(transcript(table), 0)
    summary = reviewed.summary()
    assert sum(summary["counts"].values()) == summary["decisions"] == len(reviewed.decisions)
    assert summary["models"].get("solver", 0) == summary["rated"] > 0
    losses = [d.loss or 0.0 for d in reviewed.biggest()]
    assert losses == sorted(losses, reverse=True)
    assert all(d.label in ("inaccuracy", "mistake", "blunder") for d in reviewed.biggest())
    puzzles = from_review(reviewed, 3)
    assert [p.decision.number for p in puzzles] == [
        d.number
        for d in sorted(reviewed.rated(), key=lambda d: (-(d.loss or 0.0), d.number))
        if (d.loss or 0.0) > 0
    ][:3]
    json.dumps(reviewed.to_json())


def test_practice_draws_the_same_set_for_a_seed_and_scores_answers() -> None:
    game = make_game("toplshteyner", 2)
    first = draw(game, 3, seed=2)
    again = draw(game, 3, seed=2)
    assert [p.to_json() for p in first] == [p.to_json() for p in again]
    stakes = [p.stakes for p in first]
    assert stakes == sorted(stakes, reverse=True) and stakes[-1] > 0
    for p in first:
        best = p.score(p.decision.best[0])
        assert best["loss"] == 0 and best["label"] == "best"
        worst = min(range(len(p.decision.choices)), key=lambda i: p.decision.choices[i].value or 0)
        assert p.score(worst)["loss"] == pytest.approx(
            max(c.value or 0 for c in p.decision.choices) - (p.decision.choices[worst].value or 0)
        )
        hidden = p.to_json(answers=False)
        assert all(c["value"] is None for c in hidden["choices"]) and hidden["best"] == []
    with pytest.raises(DicehallError, match="not a choice"):
        first[0].score(99)


# --- C6: a review from seat s ignores another seat's never-shown dice -----------------


C6_GAMES = [("kariki", 2), ("kariki", 3), ("toplshteyner", 2), ("tepiiku", 3), ("tao", 2)]


@pytest.mark.parametrize(("game_id", "seats"), C6_GAMES, ids=[f"{g}-{n}" for g, n in C6_GAMES])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_C6_a_review_ignores_other_seats_never_shown_dice(
    game_id: str, seats: int, seed: int
) -> None:
    """The throws never shown to seat s replaced by other outcomes that look the same to
    everyone (a sealed transcript's stand-ins): seat s's review is the same."""
    game = make_game(game_id, seats)
    table = Table(game, RandomDice(seed), record=False)
    table.play(make_bots(game, ["heuristic"], random.Random(seed)))
    data = transcript(table)
    steps = data["steps"]
    shown = shown_throws(game, steps)
    for seat in range(seats):
        hidden = set(shown.sealed(seat))
        other = {**data, "steps": stand_ins(game, steps, hidden)}
        if other["steps"] == [dict(s) for s in steps] and hidden:
            continue  # every never-shown throw is its own stand-in: nothing changed
        assert review(other, seat).to_json() | {"stand_ins": False} == review(
            data, seat
        ).to_json() | {"stand_ins": False}


# --- bad input --------------------------------------------------------------------------


def finished(game_id: str = "kariki", seats: int = 2) -> dict[str, Any]:
    game = make_game(game_id, seats)
    table = Table(game, RandomDice(1), record=False)
    table.play(make_bots(game, ["random"], random.Random(1)))
    return transcript(table)


def test_bad_input_gets_a_clear_error() -> None:
    data = finished()
    with pytest.raises(TranscriptError, match="there is no seat 2; seats are 0 to 1"):
        review(data, 2)
    with pytest.raises(TranscriptError, match="there is no seat -1"):
        review(data, -1)
    with pytest.raises(TranscriptError, match="steps"):
        review({k: v for k, v in data.items() if k != "steps"}, 0)
    with pytest.raises(TranscriptError, match="game"):
        review({**data, "game": "chess"}, 0)
    broken = [*data["steps"]]
    k = next(i for i, s in enumerate(broken) if "seat" in s)
    broken[k] = {"seat": broken[k]["seat"], "action": {"type": "fly"}}
    with pytest.raises(TranscriptError, match=f"step {k}"):
        review({**data, "steps": broken}, 0)
    unfinished = {**data, "steps": data["steps"][:-3]}
    unfinished.pop("result", None)
    with pytest.raises(NotOver, match="not over"):
        review(unfinished, 0)
