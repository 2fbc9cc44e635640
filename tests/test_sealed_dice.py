"""Sealed dice without a server: Merkle openings, the seats' hash chains, which throws
the rules show to whom, stand-ins, and the verify report with its tampering cases."""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

import pytest

from dicehall.core.chance import D6, ChanceError
from dicehall.core.commitments import (
    BATCH,
    CHAIN,
    Batch,
    Opening,
    SealedDice,
    batch_entropy,
    chain_checks,
    chain_commit,
    chain_value,
)
from dicehall.core.game import Game, State, field_names
from dicehall.core.shown import Observed, ShownThrows, events_of, logged_copy, stand_ins
from dicehall.core.transcript import apply_step
from dicehall.games import game_ids, make_game
from dicehall.server.tables.fairness import SealedTable, verify_transcript
from tests.sealed_play import SEED, sealed_game


def test_an_opening_proves_its_throw_and_nothing_else_passes() -> None:
    batch = Batch(SEED, 0)
    for k in (0, 1, 77, BATCH - 1):
        opening = batch.opening(k)
        assert opening.root() == batch.root
        assert Opening.from_json(opening.to_json()) == opening
    opening = batch.opening(5)
    wrong_secret = Opening(5, bytes(32), opening.path)
    wrong_place = Opening(6, opening.secret, opening.path)
    wrong_path = Opening(5, opening.secret, (bytes(32), *opening.path[1:]))
    for bad in (wrong_secret, wrong_place, wrong_path):
        assert bad.root() != batch.root
    assert Batch(SEED, 1).opening(BATCH + 3).root() == Batch(SEED, 1).root != batch.root


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "is a JSON object"),
        ({"throw": -1}, "a number from 0"),
        ({"throw": 3, "secret": "00", "path": []}, "lists 8 hashes"),
        ({"throw": 3, "secret": "zz" * 32, "path": ["00" * 32] * 8}, "64 hex digits"),
    ],
)
def test_a_malformed_opening_names_what_is_wrong(data: object, message: str) -> None:
    with pytest.raises(ChanceError, match=message):
        Opening.from_json(data)


def test_a_hash_chain_opens_batch_by_batch() -> None:
    x = b"\x07" * 32
    commit = chain_commit(x)
    for b in range(CHAIN):
        assert chain_checks(commit, b, chain_value(x, b))
        assert not chain_checks(commit, b + 1, chain_value(x, b))
    assert not chain_checks(commit, 0, x)
    assert not chain_checks(commit, CHAIN, x)


# --- the protocol: nobody steers the dice -----------------------------------------------


def test_the_server_cannot_pick_the_first_throw_once_its_root_is_out() -> None:
    """Throw 0's faces come from its secret, fixed by the root published first, and the
    seats' values; any other secret fails the root, and the faces move with the seats."""
    dice = SealedDice(SEED)
    root = dice.root(0)
    x = [b"\x01" * 32, b"\x02" * 32]
    values = [chain_value(v, 0) for v in x]
    honest = dice.batch(0).opening(0)
    two = (D6, D6)
    faces = honest.faces(batch_entropy(root, values), two)
    # another secret the server might like better does not open the committed root
    for other in (bytes(32), b"\xff" * 32, SealedDice(b"\x09" * 32).batch(0).secrets[0]):
        assert Opening(0, other, honest.path).root() != root
    # with the root fixed, each seat's value moves the faces: the server cannot foresee them
    spread = {
        honest.faces(batch_entropy(root, [chain_value(bytes([i]) * 32, 0), values[1]]), two)
        for i in range(60)
    }
    assert len(spread) > 15
    assert faces in {honest.faces(batch_entropy(root, values), two)}


def test_a_player_cannot_change_their_value_after_committing() -> None:
    game = make_game("kariki", 3)
    x = b"\x05" * 32
    fair = SealedTable(game, SEED, [chain_commit(x).hex(), None, None], bots={2})
    round_ = fair.open_round()
    assert round_["waiting"] == [0]
    for wrong in (chain_value(b"\x06" * 32, 0).hex(), chain_value(x, 1).hex(), "12"):
        with pytest.raises(ChanceError):
            fair.reveal(0, 0, wrong)
    assert fair.waiting(0) == [0]  # nothing changed
    with pytest.raises(ChanceError, match="no entropy commitment"):
        fair.reveal(1, 0, chain_value(x, 0).hex())
    with pytest.raises(ChanceError, match="no entropy round"):
        fair.reveal(0, 1, chain_value(x, 1).hex())
    fair.reveal(0, 0, chain_value(x, 0).hex())
    assert fair.waiting(0) == []


def test_a_player_who_knows_the_others_values_still_cannot_foresee_a_throw() -> None:
    """Even the last to reveal, knowing every other value, has two choices (reveal or
    withhold) and sees neither outcome: both hang on the server's secret, unknown to it."""
    root = SealedDice(SEED).root(0)
    mine = chain_value(b"\x03" * 32, 0)
    others = chain_value(b"\x04" * 32, 0)
    for choice in (mine, None):
        entropy = batch_entropy(root, [others, choice])
        outcomes = {
            Opening(0, secret, ()).faces(entropy, (D6, D6))
            for secret in (bytes([i]) * 32 for i in range(80))
        }
        assert len(outcomes) > 20  # over the secrets it cannot see, anything can happen


# --- which throws the rules show ---------------------------------------------------------


def play(game: Game, rng: random.Random, steps: int = 10_000) -> list[dict[str, Any]]:
    state = game.new_state(record=True)
    out: list[dict[str, Any]] = []
    dice = random.Random(rng.random())
    while not state.is_over() and len(out) < steps:
        if state.is_chance():
            step: dict[str, Any] = {"chance": [dice.choice(d) for d in state.chance_dice()]}
        else:
            seat = state.actors()[0]
            step = {"seat": seat, "action": dict(rng.choice(state.legal_actions(seat)))}
        apply_step(state, step)
        out.append(step)
    return out


def kariki_steps(pull: bool) -> list[dict[str, Any]]:
    """Roll-off 6-1-2, seat 0 sends play left, throws 3-5 under the mug, claims Four;
    seat 1 pulls it, or passes."""
    answer = {"type": "pull"} if pull else {"type": "pass"}
    return [
        {"chance": [6]},
        {"chance": [1]},
        {"chance": [2]},
        {"seat": 0, "action": {"type": "direction", "way": "left"}},
        {"chance": [3, 5]},
        {"seat": 0, "action": {"type": "claim", "rank": "4"}},
        {"seat": 1, "action": answer},
    ]


def test_K5_a_pulled_mug_is_shown_to_everyone_an_unpulled_one_to_its_thrower() -> None:
    game = make_game("kariki", 3)
    shown = ShownThrows(game)
    found = [shown.step(s) for s in kariki_steps(pull=False)]
    assert found[:3] == [[(0, None)], [(1, None)], [(2, None)]]  # the roll-off is public
    assert found[4] == [(3, 0)]  # the mug: its thrower alone
    assert shown.sealed(None) == [3] and shown.sealed(1) == [3] and shown.sealed(0) == []
    shown = ShownThrows(game)
    found = [shown.step(s) for s in kariki_steps(pull=True)]
    assert found[6] == [(3, None)] and shown.sealed(None) == []


def brute_force_shown(
    game: Game, steps: list[dict[str, Any]], k: int, audience: int | None
) -> bool:
    """Throw k is shown to `audience` if every other outcome changes something it observed
    (its events or its view, after any step): the definition, checked the slow way."""

    def observations(steps: list[dict[str, Any]]) -> list[Any] | None:
        state = game.new_state(record=True)
        seen = []
        try:
            for step in steps:
                logged = len(state.log or ())
                apply_step(state, step)
                seen.append((events_of(state, audience, logged), state.view(audience)))
        except ValueError:
            return None
        return seen

    index = [i for i, s in enumerate(steps) if "chance" in s][k]
    actual = observations(steps)
    before = game.new_state()
    for step in steps[:index]:
        apply_step(before, step)
    for faces in itertools.product(*before.chance_dice()):
        if list(faces) == steps[index]["chance"]:
            continue
        other = [*steps[:index], {"chance": list(faces)}, *steps[index + 1 :]]
        if observations(other) == actual:
            return False
    return True


@pytest.mark.parametrize("gid", game_ids())
def test_C6_a_throw_counts_as_shown_only_if_its_audience_could_tell_its_faces(gid: str) -> None:
    """Against the definition, replayed the slow way: nothing is opened to a seat that
    could not have told the faces from every other outcome."""
    game = make_game(gid)
    steps = play(game, random.Random(gid), steps=40)
    shown = ShownThrows(game)
    for step in steps:
        shown.step(step)
    for k in range(len(shown.shown)):
        for audience in shown.audiences:
            if shown.shown_to(k, audience):
                assert brute_force_shown(game, steps, k, audience), (k, audience)


@pytest.mark.parametrize("gid", game_ids())
def test_stand_ins_leave_everything_public_as_it_was(gid: str) -> None:
    game = make_game(gid)
    steps = play(game, random.Random(f"{gid}-stand-ins"), steps=300)
    shown = ShownThrows(game)
    for step in steps:
        shown.step(step)
    sealed = set(shown.sealed(None))
    public = stand_ins(game, steps, sealed)
    marked = [i for i, s in enumerate(public) if s.get("sealed")]
    assert len(marked) == len(sealed)

    def spectator(steps: list[dict[str, Any]]) -> list[Any]:
        state = game.new_state(record=True)
        out = []
        for step in steps:
            apply_step(state, step)
            out.append(state.view(None))
        return [out, state.events_for(None)]

    assert spectator(public) == spectator(steps)


def state_after(game: Game, steps: list[dict[str, Any]]) -> State:
    state = game.new_state(record=True)
    for step in steps:
        apply_step(state, step)
    return state


def test_a_view_is_compared_on_logged_copies_without_touching_the_game() -> None:
    game = make_game("kariki", 3)
    state = state_after(game, kariki_steps(pull=False)[:5])
    copy_ = logged_copy(state)
    copy_.apply(0, {"type": "claim", "rank": "4"})
    assert state.actors() == (0,) and copy_.log is not None and state.log is not copy_.log


def test_a_view_of_a_step_the_game_has_moved_on_from_is_never_compared() -> None:
    """Views are worked out when first compared, so only at the step the game is at: one
    asked for later would be of another step, and raises rather than compare wrongly."""
    game = make_game("kariki", 3)
    steps = kariki_steps(pull=False)
    state = state_after(game, steps[:4])
    logged = len(state.log or ())
    apply_step(state, steps[4])
    seen = Observed(state, logged)
    assert seen.view(1) == state.view(1) and seen.events(2) == events_of(state, 2, logged)
    at_throw = state.view(0)
    seen.moved_on([0])
    apply_step(state, steps[5])
    assert seen.view(0) == at_throw != state.view(0)  # kept from the step it was of
    assert seen.events(2) == events_of(state, 2, logged, seen.end)
    with pytest.raises(RuntimeError, match="moved on"):
        seen.view(2)


@pytest.mark.parametrize("gid", game_ids())
def test_a_copy_shares_every_field_and_a_clone_leaves_the_state_alone(gid: str) -> None:
    """The tracker copies a state for every outcome of every throw (`copier`)."""
    game = make_game(gid)
    state = state_after(game, play(game, random.Random(gid), steps=12))
    names = field_names(type(state))
    copied = state.shallow_copy()
    assert type(copied) is type(state)
    for n in names:
        value = getattr(state, n)
        if isinstance(value, int | float | str | tuple | frozenset):
            # compiled rules box a native number or tuple afresh on every read: equal, not
            # identical; what is mutable must be the very same object
            assert getattr(copied, n) == value, n
        else:
            assert getattr(copied, n) is value, n
    clone = state.clone()
    assert clone.view(None) == state.view(None) and clone.log is None


# --- a whole sealed game, verified -----------------------------------------------------


@pytest.fixture(scope="module")
def kariki() -> tuple[dict[str, Any], dict[int | None, list[dict[str, Any]]]]:
    return sealed_game("kariki", 4)


def test_every_public_throw_checks_and_the_others_stay_sealed(
    kariki: tuple[dict[str, Any], Any],
) -> None:
    data, got = kariki
    report = verify_transcript(data)
    assert report["ok"], report
    sealed = sum(1 for s in data["steps"] if s.get("sealed"))
    assert sealed and report["sealed_throws"] == sealed
    assert report["public_throws"] == len(data["openings"]) == len(got[None])
    assert report["entropy_from"] == [0, 1] and report["withheld"] == []
    assert f"all {report['public_throws']} throws everyone saw are the ones" in report["words"]
    assert f"{sealed} throws that only their thrower saw" in report["explained"]["secret"]
    assert "Player 1 and Player 2 also mixed in" in report["explained"]["promised"]
    mine = verify_transcript(data, mine={"seat": 0, "openings": got[None] + got[0]})
    assert mine["ok"], mine
    own = {o["throw"] for o in got[0]} - {o["throw"] for o in got[None]}
    assert mine["your_throws"] == len(own)
    assert mine["your_throws"] + (mine["sealed_throws"]) == sealed
    assert f"so are your own {mine['your_throws']} hidden throws" in mine["words"]


def test_the_public_transcript_cannot_recompute_a_sealed_throw(
    kariki: tuple[dict[str, Any], Any],
) -> None:
    data, _ = kariki
    text = repr(data)
    assert SEED.hex() not in text
    public = {o["throw"] for o in data["openings"]}
    dice = SealedDice(SEED)
    for k in range(sum(1 for s in data["steps"] if "chance" in s)):
        if k not in public:
            assert dice.batch(0).secrets[k].hex() not in text


def tamper(data: dict[str, Any], change: Any, mine: object = None) -> dict[str, Any]:
    copied = copy.deepcopy(data)
    change(copied)
    return verify_transcript(copied, mine=mine)


def public_throw_step(data: dict[str, Any]) -> int:
    return next(
        i for i, s in enumerate(data["steps"]) if "chance" in s and not s.get("sealed") and i > 2
    )


def test_a_tampered_public_throw_is_caught_at_its_step(kariki: tuple[dict[str, Any], Any]) -> None:
    data, _ = kariki
    i = public_throw_step(data)

    def change(d: dict[str, Any]) -> None:
        d["steps"][i]["chance"][0] = d["steps"][i]["chance"][0] % 6 + 1

    report = tamper(data, change)
    assert not report["ok"] and report["step"] == i
    assert "not what its opening gives" in report["error"] or "differs" in report["error"]


def test_a_tampered_opening_or_a_wrong_root_is_caught(kariki: tuple[dict[str, Any], Any]) -> None:
    data, got = kariki

    def secret(d: dict[str, Any]) -> None:
        d["openings"][3]["secret"] = "ab" * 32

    def path(d: dict[str, Any]) -> None:
        d["openings"][3]["path"][2] = "cd" * 32

    def root(d: dict[str, Any]) -> None:
        d["commitment"] = "ef" * 32

    def moved(d: dict[str, Any]) -> None:
        d["steps"][0]["entropy"]["root"] = "ef" * 32
        d["commitment"] = "ef" * 32

    for change, words in [
        (secret, "does not hash to its batch's root"),
        (path, "does not hash to its batch's root"),
        (root, "not the table's commitment"),
        (moved, "does not hash to its batch's root"),
    ]:
        report = tamper(data, change)
        assert not report["ok"] and words in report["error"], report
    # a player's own opening, forged, fails the same way
    forged = [dict(o) for o in got[0]]
    for o in forged:
        o["secret"] = "01" * 32
    report = verify_transcript(data, mine={"openings": forged})
    assert not report["ok"] and "root" in report["error"]


def test_a_public_throw_passed_off_as_sealed_is_caught(kariki: tuple[dict[str, Any], Any]) -> None:
    data, _ = kariki
    i = public_throw_step(data)
    k = sum(1 for s in data["steps"][:i] if "chance" in s)

    def change(d: dict[str, Any]) -> None:
        d["steps"][i]["sealed"] = True
        d["openings"] = [o for o in d["openings"] if o["throw"] != k]

    report = tamper(data, change)
    assert not report["ok"] and "kept sealed" in report["error"], report


def test_a_changed_entropy_value_is_caught_and_a_withheld_one_is_reported() -> None:
    data, _ = sealed_game("kariki", 4)

    def change(d: dict[str, Any]) -> None:
        d["steps"][0]["entropy"]["values"][0] = "00" * 32

    report = tamper(data, change)
    assert not report["ok"] and "does not match its commitment" in report["error"]
    withheld, _ = sealed_game("kariki", 4, reveal=False)
    report = verify_transcript(withheld)
    assert report["ok"] and report["withheld"] == [0] and report["entropy_from"] == [1]
    assert "Player 1 promised numbers but never revealed them" in report["explained"]["promised"]
    # the dice differ from the game where seat 0 revealed: its value counted there, not here
    assert withheld["steps"][1] != data["steps"][1] or withheld["openings"] != data["openings"]


def test_a_long_game_opens_a_new_batch_with_its_own_round() -> None:
    for seed in range(40):
        data, _ = sealed_game("tao", seed)
        if sum(1 for s in data["steps"] if "chance" in s) > BATCH:
            break
    rounds = [s["entropy"] for s in data["steps"] if "entropy" in s]
    assert [r["batch"] for r in rounds] == list(range(len(rounds))) and len(rounds) >= 2
    assert rounds[0]["root"] == data["commitment"] != rounds[1]["root"]
    assert verify_transcript(data)["ok"]
