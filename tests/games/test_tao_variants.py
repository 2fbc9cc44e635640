"""Tao Dice's research variants that bound and shrink the game: tie-breaks, dice, stones.

`tiebreaks=N` allows N tie-break rounds (D9); a tie after the last is
settled by lot, a die whose faces are the tied seats. `hidden_faces`,
`shown_faces`, `black_stones` and `white_stones` shrink the dice and the
stones. All are off by default (the D9 tests in test_tao_rules.py play the
real game), and together they make a game small enough to walk whole.
"""

from __future__ import annotations

import random

import pytest

from dicehall.core import OptionError, RandomDice, ScriptedDice, State, Table, make_bots
from dicehall.games import make_game
from dicehall.games.tao.rules import TaoDice, TaoState
from tests.games.tao_script import (
    PASS,
    SMALL,
    SMALL_HISTORIES,
    ante,
    call,
    held,
    play,
    pot,
    raise_,
    table,
)

TIE = [[2, 2], [2, 2], [3], [3]]  # 7 against 7
PASSES = [(s, PASS) for s in (0, 1, 0, 1)]


def test_D9_tiebreaks_bound_ends_the_round_by_lot_after_the_last_tie_break() -> None:
    t = table(2, [*TIE, [1, 2], [2, 1], [6], [6], [1]], tiebreaks=1)
    state = play(t, (0, ante()), (1, ante()), *PASSES)
    assert state.tiebreak == 1 and state.phase == "bet"  # the one tie-break round
    state = play(t, (0, raise_()), (1, call()), (0, PASS), (1, PASS))
    # tied again with no tie-break left: the lot names seat 1, which takes the pot
    assert state.round_no == 2 and state.tiebreak == 0 and state.phase == "ante"
    assert held(state, 1) == (4 + 2, 2) and held(state, 0) == (2, 2) and pot(state) == (0, 0)
    lots = [e for e in t.state.log or [] if e.type == "lot"]
    assert [e.data["seat"] for e in lots] == [1]


def test_D9_tiebreaks_zero_settles_the_first_tie_by_lot_and_ends_one_round() -> None:
    t = table(2, TIE, tiebreaks=0, length="round")
    state = play(t, (0, ante()), (1, ante(1)), *PASSES)
    assert state.phase == "lot" and state.is_chance() and state.actors() == ()
    assert state.chance_dice() == ((0, 1),)  # one face per tied seat
    assert [p for _, p in state.chance_outcomes()] == [0.5, 0.5]  # a fair lot
    t.dice = ScriptedDice([[0]])
    state = play(t)
    result = state.result()
    assert state.is_over() and result.winners == (0,) and result.net == (1, -1)
    assert state.view(1)["winner"] == 0


def test_D9_lot_is_among_the_tied_seats_only() -> None:
    throws = [[3, 3], [1, 1], [3, 3], [5], [1], [5]]  # 11, 3, 11: seats 0 and 2 tie
    t = table(3, throws, tiebreaks=0)
    state = play(t, *[(s, ante()) for s in (0, 1, 2)], *[(s, PASS) for s in (0, 1, 2) * 2])
    assert state.phase == "lot" and state.chance_dice() == ((0, 2),)
    t.dice = ScriptedDice([[1]])
    with pytest.raises(Exception, match="1"):
        t.roll()  # seat 1 is not in the lot
    assert state.phase == "lot"


def test_default_options_keep_ties_going_and_the_real_dice() -> None:
    game = make_game("tao", 2)
    assert isinstance(game, TaoDice) and game.options["tiebreaks"] == -1
    state = game.new_state()
    assert isinstance(state, TaoState) and state.tiebreaks_max == -1
    assert game.small_dice() == "" and game.encoding.max_game_length is None
    assert "lot" not in game.encoding.layout.markdown()  # the phases' layout as it was
    assert "lot" in make_game("tao", 2, {"tiebreaks": 3}).encoding.layout.markdown()


def test_small_dice_and_stones_are_thrown_and_counted() -> None:
    game = make_game("tao", 2, SMALL)
    state = game.new_state()
    assert isinstance(state, TaoState)
    assert (state.black, state.white) == ([1, 1], [1, 1])
    state.apply(0, ante(1))
    state.apply(1, ante())
    assert state.chance_dice() == ((1, 2), (1, 2))
    state.apply_chance([2, 2])
    state.apply_chance([1, 2])
    for seat in (0, 1):
        other = state.resample_hidden(seat, random.Random(seat))
        assert all(face in (1, 2) for face in other.dice[1 - seat])
    state.apply(0, raise_(0))  # seat 0's last stone is black
    assert state.legal_actions(1) == (call(1), {"type": "fold"})
    state.apply(1, call(1))
    state.apply_chance([1, 1])  # seat 1 paid white: it rerolls its two d2
    assert state.chance_dice() == ((1, 2),)  # the shown die, two faces


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"tiebreaks": -2}, "tiebreaks"),
        ({"tiebreaks": 21}, "tiebreaks"),
        ({"hidden_faces": 1}, "hidden_faces"),
        ({"hidden_faces": 7}, "hidden_faces"),
        ({"shown_faces": 13}, "shown_faces"),
        ({"black_stones": 5}, "black_stones"),
        ({"white_stones": 3}, "white_stones"),
        ({"black_stones": 0, "white_stones": 0}, "at least one stone"),
    ],
)
def test_bad_values_are_refused_by_name(options: dict[str, object], words: str) -> None:
    with pytest.raises(OptionError, match=words):
        make_game("tao", 2, options)


def count_histories(state: State) -> tuple[int, int]:
    """Every node of the game tree (decisions, throws, ends), and the longest path's steps."""
    nodes, longest = 1, 0
    if state.is_over():
        return nodes, longest
    if state.is_chance():
        children = []
        for faces, _ in state.chance_outcomes():
            child = state.clone()
            child.apply_chance_trusted(faces)
            children.append(child)
    else:
        (seat,) = state.actors()
        children = []
        for action in state.legal_actions(seat):
            child = state.clone()
            child.apply_trusted(seat, action)
            children.append(child)
    for child in children:
        more, deep = count_histories(child)
        nodes += more
        longest = max(longest, deep + 1)
    return nodes, longest


def test_the_small_variant_is_small_and_bounded() -> None:
    game = make_game("tao", 2, SMALL)
    nodes, longest = count_histories(game.new_state())
    assert nodes == SMALL_HISTORIES  # as OpenSpiel's get_all_states counts them
    bound = game.encoding.max_game_length
    assert bound is not None and longest <= bound == game.encoding.length_cap


@pytest.mark.parametrize("options", [SMALL, {"length": "round", "tiebreaks": 1}])
def test_random_heuristic_and_solver_play_bounded_ties_to_the_end(
    options: dict[str, object],
) -> None:
    game = make_game("tao", 2, options)
    names = ["random"] if game.small_dice() else ["heuristic", "solver"]
    for seed in range(20):
        t = Table(game, RandomDice(seed))
        bots = make_bots(game, {0: names[0], 1: names[-1]}, random.Random(seed))
        while not t.state.is_over():
            if t.state.is_chance():
                t.roll()
                continue
            (seat,) = t.state.actors()
            t.act(seat, bots[seat].choose(t.state.view(seat), t.state.legal_actions(seat)))
        assert sum(t.state.result().net) == 0


@pytest.mark.parametrize("bot", ["heuristic", "solver"])
def test_bots_that_reckon_with_the_real_dice_refuse_small_ones(bot: str) -> None:
    game = make_game("tao", 2, {"hidden_faces": 3})
    assert next(iter(game.bots())) == "random"  # what a table seats by default
    with pytest.raises(OptionError, match=f"{bot} bot .* hidden_faces=3.*random bot"):
        make_bots(game, {0: bot}, random.Random(0))
    assert game.advice(game.new_state().view(0), []) is None


def test_the_solver_warns_of_bounded_ties_and_its_commands_refuse_the_variants() -> None:
    warning = make_game("tao", 2, {"tiebreaks": 2}).bot_warning("solver")
    assert warning is not None and "tiebreaks=2" in warning
    for options in ({"tiebreaks": 0}, {"shown_faces": 6}, {"white_stones": 0}):
        game = make_game("tao", 2, {"length": "single", **options})
        with pytest.raises(OptionError, match="research variant"):
            game.solver()


@pytest.mark.parametrize(
    "options", [{"tiebreaks": 0}, {"hidden_faces": 5}, {"shown_faces": 6}, {"black_stones": 2}]
)
def test_the_batch_and_the_vector_environment_refuse_the_variants(
    options: dict[str, object],
) -> None:
    from dicehall.batch.tao import TaoBatch
    from dicehall.rl.vector import DicehallVectorEnv

    game = make_game("tao", 2, {"length": "round", **options})
    with pytest.raises(OptionError, match="research variant"):
        TaoBatch(game, 4, 1)
    with pytest.raises(OptionError, match="research variant"):
        DicehallVectorEnv(2, "tao", seats=2, length="round", **options)
