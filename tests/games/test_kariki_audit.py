"""An independent audit of Kariki's rules: the edges the rule text and K1-K10 leave sharp.

The pass chain (K5, K6) in both directions and after a roll higher, the
Double Sixes case, who begins when the one who should is out (C2), third
crowns (K3), and the dice under the mug reaching nobody but their thrower
until a pull or a Kariki shows them (C6).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from dicehall.core import ScriptedDice, Table
from dicehall.games import make_game
from dicehall.games.kariki.rules import KARIKI, RANK
from tests.games.test_kariki_rules import (
    BUY,
    GO_OUT,
    PASS,
    PULL,
    ROLL,
    act,
    claim,
    legal_types,
    start,
    state_of,
)

ALL_SEATS_AND_SPECTATOR = (None, 0, 1, 2, 3)


def choices(table: Table) -> tuple[int, list[str], bool, bool]:
    """The responder, its legal action types, and what the public view says it may do."""
    view = table.state.view(None)
    seat = view["responder"]
    return seat, legal_types(table, seat), view["may_roll"], view["may_pass"]


def dice_seen_by(table: Table, seat: int | None) -> Iterator[list[int]]:
    """Every pair of dice that reaches `seat`: its view and the events it may see."""
    view = table.state.view(seat)
    if view["your_dice"] is not None:
        yield view["your_dice"]
    if view["last_shown"] is not None:
        yield view["last_shown"]["dice"]
    for event in table.state.events_for(seat):
        if "dice" in event:
            yield event["dice"]


# --- K5, K6: the pass chain --------------------------------------------------------------


def test_K6_chain_returns_to_the_thrower_then_the_first_passer_playing_right() -> None:
    table = start(4, [[2, 3]], first=2, way="right")  # right: 2 -> 1 -> 0 -> 3 -> 2
    act(table, 2, claim("9"))
    assert choices(table) == (1, ["roll", "pull", "pass"], True, True)
    act(table, 1, PASS)
    assert choices(table) == (0, ["roll", "pull", "pass"], True, True)
    act(table, 0, PASS)
    assert choices(table) == (3, ["roll", "pull", "pass"], True, True)
    act(table, 3, PASS)
    assert choices(table) == (2, ["pull", "pass"], False, True)  # the thrower (K6)
    act(table, 2, PASS)
    assert choices(table) == (1, ["roll", "pull"], True, False)  # the first passer
    view = table.state.view(None)
    assert view["pass_chain"] == [1, 0, 3, 2] and view["claim_owner"] == 2


def test_K6_first_passer_pulls_a_lie_the_thrower_who_passed_it_back_pays() -> None:
    table = start(3, [[2, 3], [3, 4]])  # Five under the mug
    act(table, 0, claim("9"))
    for seat in (1, 2, 0):
        act(table, seat, PASS)
    act(table, 1, PULL)
    state = state_of(table)
    assert state.berries == [1, 0, 0]  # the claim's owner: the thrower, by the last pass
    assert state.actors() == (1,)  # the puller begins


def test_K6_first_passer_pulls_the_truth_and_the_thrower_who_passed_it_back_begins() -> None:
    table = start(3, [[4, 5], [3, 4]])
    act(table, 0, claim("9"))
    for seat in (1, 2, 0):
        act(table, seat, PASS)
    act(table, 1, PULL)
    state = state_of(table)
    assert state.berries == [0, 1, 0]
    assert state.actors() == (0,)


def test_K6_thrower_pulls_own_lie_the_player_before_him_pays_and_he_begins() -> None:
    table = start(4, [[2, 3], [3, 4]], first=2, way="right")
    act(table, 2, claim("9"))
    for seat in (1, 0, 3):
        act(table, seat, PASS)
    act(table, 2, PULL)
    state = state_of(table)
    assert state.berries == [0, 0, 0, 1]  # seat 3 passed last: it owns the lie
    assert state.actors() == (2,)
    assert state.view(None)["last_shown"] == {
        "dice": [2, 3],
        "rank": "5",
        "thrower": 2,
        "how": "pull",
        "claim": "9",
        "previous_claim": None,
        "puller": 2,
        "berry_to": 3,
    }


def test_K6_thrower_who_pulls_own_truth_pays_and_the_last_passer_begins() -> None:
    table = start(3, [[3, 6], [3, 4]])
    act(table, 0, claim("9"))
    act(table, 1, PASS)
    act(table, 2, PASS)
    act(table, 0, PULL)
    state = state_of(table)
    assert state.berries == [1, 0, 0]
    assert state.actors() == (2,)


def test_K6_a_roll_higher_after_the_chain_makes_a_new_claim_everyone_may_pass_again() -> None:
    table = start(4, [[2, 3], [4, 5]])
    act(table, 0, claim("9"))
    for seat in (1, 2, 3, 0):
        act(table, seat, PASS)
    act(table, 1, ROLL)  # the first passer, who could not pass again
    ranks = [a["rank"] for a in table.state.legal_actions(1)]
    assert ranks[0] == "10"  # strictly above the claim passed round (K4)
    act(table, 1, claim("10"))
    assert table.state.view(None)["pass_chain"] == []
    assert choices(table) == (2, ["roll", "pull", "pass"], True, True)
    act(table, 2, PASS)
    act(table, 3, PASS)
    assert choices(table) == (0, ["roll", "pull", "pass"], True, True)  # no longer the thrower
    act(table, 0, PASS)
    assert choices(table) == (1, ["pull", "pass"], False, True)  # the new thrower
    act(table, 1, PASS)
    assert choices(table) == (2, ["roll", "pull"], True, False)


def test_K6_two_players_after_a_roll_higher() -> None:
    table = start(2, [[2, 3], [1, 1], [3, 4]])
    act(table, 0, claim("8"))
    act(table, 1, ROLL)
    act(table, 1, claim("1-1"))
    assert choices(table) == (0, ["roll", "pull", "pass"], True, True)
    act(table, 0, PASS)
    assert choices(table) == (1, ["pull", "pass"], False, True)
    act(table, 1, PASS)
    assert choices(table) == (0, ["roll", "pull"], True, False)
    act(table, 0, PULL)  # 1-1 is Double Ones: a false accusation
    state = state_of(table)
    assert state.berries == [1, 0]
    assert state.actors() == (1,)


def test_K5_at_least_pull_by_the_thrower_on_an_underclaim_is_a_false_accusation() -> None:
    table = start(3, [[5, 5], [3, 4]], {"pull": "at-least"})
    act(table, 0, claim("9"))  # below the dice: not caught under "at least"
    act(table, 1, PASS)
    act(table, 2, PASS)
    act(table, 0, PULL)
    state = state_of(table)
    assert state.berries == [1, 0, 0]
    assert state.actors() == (2,)


# --- K5: Double Sixes ----------------------------------------------------------------------


def test_K5_forced_roll_over_double_sixes_after_the_chain() -> None:
    table = start(3, [[6, 6], [5, 5], [3, 4]])
    act(table, 0, claim("6-6"))
    for seat in (1, 2, 0):
        act(table, seat, PASS)
    assert legal_types(table, 1) == ["roll", "pull"]
    act(table, 1, ROLL)
    state = state_of(table)
    assert state.berries == [0, 1, 0]
    assert state.actors() == (2,)  # the player after the failed roller begins afresh
    assert state.view(None)["claim"] is None and state.view(None)["last_shown"] is None
    for viewer in (None, 0, 2):
        assert [5, 5] not in list(dice_seen_by(table, viewer))  # the failed throw stays hidden
    for viewer in (None, 1, 2):
        assert [6, 6] not in list(dice_seen_by(table, viewer))  # so do the dice taken over
    assert [5, 5] in list(dice_seen_by(table, 1))  # the roller looked
    assert state.view(2)["your_dice"] == [3, 4]


def test_K5_failed_roll_over_double_sixes_hands_on_past_an_out_seat_playing_right() -> None:
    table = start(4, [], way="right")  # right: 0 -> 3 -> 2 -> 1
    state = state_of(table)
    state.out[2], state.berries[2], state.in_count = True, 5, 3
    table.dice = ScriptedDice([[6, 6], [4, 4], [3, 4]])
    table.settle()
    act(table, 0, claim("6-6"))
    act(table, 3, ROLL)
    assert state.berries == [0, 0, 5, 1]
    assert state.actors() == (1,)


def test_K5_kariki_over_double_sixes_wins_the_crown() -> None:
    table = start(3, [[6, 6], [2, 1], [3, 4]])
    act(table, 0, claim("6-6"))
    act(table, 1, PASS)
    act(table, 2, ROLL)
    state = state_of(table)
    assert state.crowns == [0, 0, 1]
    assert state.berries == [1, 0, 0]  # the player after the Kariki's roller
    assert state.actors() == (2,)


def test_K4_double_sixes_may_be_claimed_on_a_fresh_roll_and_over_a_lower_claim() -> None:
    table = start(3, [[2, 3], [1, 4]])
    assert table.state.legal_actions(0)[-1]["rank"] == "6-6"
    act(table, 0, claim("5-5"))
    act(table, 1, ROLL)
    assert [a["rank"] for a in table.state.legal_actions(1)] == ["6-6"]


# --- K3 and C2: Kariki, third crowns, who begins --------------------------------------------


def test_K3_C2_berry_receiver_out_playing_right_the_next_player_in_begins() -> None:
    table = start(4, [], {"after_kariki": "berry"}, way="right")
    state = state_of(table)
    state.berries[3] = 4
    table.dice = ScriptedDice([[1, 2], [3, 4]])
    table.settle()
    assert state.out == [False, False, False, True]
    assert state.actors() == (2,)  # right of seat 3


def test_K3_C2_third_crown_puts_the_berry_receiver_out_and_the_next_in_begins() -> None:
    table = start(4, [], {"after_kariki": "berry"})
    state = state_of(table)
    state.crowns[0] = 2
    state.berries[1] = 3  # the Kariki's berry and the third crown's
    table.dice = ScriptedDice([[2, 1], [3, 4]])
    table.settle()
    assert state.berries == [0, 5, 1, 1]
    assert state.out == [False, True, False, False]
    assert state.actors() == (2,)


def test_K3_crowns_are_counted_per_player() -> None:
    table = start(3, [])
    state = state_of(table)
    state.crowns[1] = 2  # three crowns on the table, but nobody's third
    table.dice = ScriptedDice([[1, 2], [3, 4]])
    table.settle()
    assert state.crowns == [1, 2, 0]
    assert state.berries == [0, 1, 0]


def test_K3_sixth_crown_skips_the_roller_and_players_already_out() -> None:
    table = start(5, [])
    state = state_of(table)
    state.crowns[0] = 5
    state.out[2], state.berries[2], state.in_count = True, 5, 4
    table.dice = ScriptedDice([[1, 2], [3, 4]])
    table.settle()
    assert state.crowns[0] == 6
    assert state.berries == [0, 2, 5, 1, 1]
    assert state.actors() == (0,)
    assert state.conserved() == {"money": 0}


def test_K3_third_crown_from_a_roll_higher_drops_the_chain() -> None:
    table = start(3, [[4, 4], [1, 2], [5, 6]])
    state = state_of(table)
    state.crowns[1] = 2
    act(table, 0, claim("4-4"))
    act(table, 1, ROLL)
    assert state.crowns == [0, 3, 0]
    assert state.berries == [1, 0, 2]  # seat 2 is next after the roller: two berries
    assert state.actors() == (1,)
    assert [4, 4] not in list(dice_seen_by(table, None))
    shown = [e for e in state.events_for(None) if e["type"] == "kariki"]
    assert shown[-1]["crowns"] == 3 and "everyone else" in shown[-1]["text"]


def test_K9_third_crown_emergency_then_the_berry_receiver_begins_or_hands_on() -> None:
    table = start(3, [], {"high_rollers": True, "after_kariki": "berry"})
    state = state_of(table)
    state.crowns[0] = 2
    state.berries[1:] = [4, 4]
    table.dice = ScriptedDice([[1, 2], [3, 4]])
    table.settle()
    assert state.actors() == (1,)
    act(table, 1, GO_OUT)
    assert state.actors() == (2,)
    act(table, 2, BUY)
    assert state.out == [False, True, False] and state.berries[2] == 4
    assert state.actors() == (2,)  # the berry receiver was out: the next player in begins


# --- C6: the dice under the mug ------------------------------------------------------------


def test_C6_a_roller_who_rolls_higher_never_sees_the_dice_taken_over() -> None:
    table = start(4, [[6, 4], [2, 5], [3, 3], [3, 4]])
    act(table, 0, claim("10"))
    act(table, 1, PASS)
    act(table, 2, ROLL)
    assert table.state.view(0)["your_dice"] is None  # the mug has left the first thrower
    act(table, 2, claim("11"))
    act(table, 3, ROLL)
    act(table, 3, claim("4-4"))
    act(table, 0, PULL)  # a lie: 3-3
    for seat in ALL_SEATS_AND_SPECTATOR:
        seen = list(dice_seen_by(table, seat))
        assert ([6, 4] in seen) == (seat == 0)
        assert ([2, 5] in seen) == (seat == 2)
        assert [3, 3] in seen
    assert state_of(table).berries == [0, 0, 0, 1]


def test_C6_private_throws_are_addressed_to_their_thrower_alone() -> None:
    table = start(3, [[6, 4], [2, 5], [6, 6], [1, 2], [4, 4]])
    act(table, 0, claim("10"))
    act(table, 1, ROLL)
    act(table, 1, claim("6-6"))
    act(table, 2, ROLL)  # fails without a Kariki; seat 0 begins afresh with a Kariki
    state = state_of(table)
    assert state.crowns == [1, 0, 0] and state.view(0)["your_dice"] == [4, 4]
    assert state.log is not None
    for event in state.log:
        if "dice" in event.data and event.type not in ("kariki", "pull"):
            assert event.to == frozenset({event.data["seat"]}), event


def test_C6_after_the_game_only_shown_dice_are_known() -> None:
    table = start(2, [[6, 4], [2, 5]])
    state = state_of(table)
    state.berries[1] = 4
    act(table, 0, claim("10"))
    act(table, 1, ROLL)
    act(table, 1, claim("11"))
    act(table, 0, PULL)
    assert state.is_over()
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert view["your_dice"] is None
        seen = list(dice_seen_by(table, seat))
        assert ([6, 4] in seen) == (seat == 0)
        assert "dice" not in str(view["result"])


def test_C6_resample_redraws_the_mug_for_all_but_its_thrower() -> None:
    table = start(3, [[6, 4]])
    act(table, 0, claim("10"))
    state = state_of(table)
    rng = random.Random(7)
    drawn: set[tuple[int, int]] = set()
    for _ in range(300):
        for seat in (None, 1, 2):
            copy = state.resample_hidden(seat, rng)
            assert copy.view(seat) == state.view(seat)
            assert RANK[copy.die1][copy.die2] != KARIKI  # a Kariki is never under the mug
            assert copy.dice_rank == RANK[copy.die1][copy.die2]
            drawn.add((copy.die1, copy.die2))
        kept = state.resample_hidden(0, rng)
        assert (kept.die1, kept.die2) == (6, 4)
    assert len(drawn) == 34


def test_C6_views_hold_no_dice_of_the_mug_for_anyone_but_the_thrower() -> None:
    table = start(3, [[6, 4]])
    act(table, 0, claim("10"))
    act(table, 1, PASS)
    state = state_of(table)
    public: dict[str, Any] = state.view(None)
    for seat in (1, 2):
        view = state.view(seat)
        assert view == {**public, "seat": seat}


# --- K8: what the table does for an absent seat ----------------------------------------------


def test_K8_C6_the_table_claims_for_an_absent_roller_without_looking_at_the_dice() -> None:
    for dice in ([2, 3], [4, 5], [6, 6]):
        table = start(3, [dice])
        table.timeout(0)
        assert table.state.view(None)["claim"] == "4"  # the same whatever lies under the mug
    higher = start(3, [[2, 3], [5, 5]])
    act(higher, 0, claim("9"))
    act(higher, 1, ROLL)
    higher.timeout(1)
    assert higher.state.view(None)["claim"] == "10"  # not the Double Fives it threw


def test_K8_C6_the_absent_thrower_passes_whether_or_not_it_lied() -> None:
    for dice in ([2, 3], [4, 5]):
        table = start(3, [dice])
        act(table, 0, claim("9"))
        act(table, 1, PASS)
        act(table, 2, PASS)
        table.timeout(0)
        assert table.state.view(None)["pass_chain"] == [1, 2, 0]


# --- the odds panel ------------------------------------------------------------------------


def test_K5_advice_to_the_thrower_follows_the_tables_pull_rule() -> None:
    for options, best in (({}, "pull"), ({"pull": "at-least"}, "pass")):
        table = start(3, [[5, 5]], options)
        act(table, 0, claim("9"))  # an underclaim: a lie only under the exact rule
        act(table, 1, PASS)
        act(table, 2, PASS)
        odds = table.game.advice(table.state.view(0), table.state.legal_actions(0))
        assert odds is not None
        if odds.extra.get("model") == "solver":  # the chance of winning after each choice
            worth = {row[0]: row[3] for row in odds.rows}
        else:  # no strategy solved for these options: the truthful model (the thrower knows)
            worth = {row[0]: float(row[2]) for row in odds.rows}  # the chance each choice wins
        assert max(worth, key=worth.__getitem__) == best


# --- a second reading of the rulings, played against the engine -----------------------------

ORDER = ["4", "5", "6", "7", "8", "9", "10", "11", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"]
"""K2, worst first; a Kariki is above them all and never claimed."""


def rank_id(a: int, b: int) -> str:
    if {a, b} == {1, 2}:
        return "kariki"
    return f"{a}-{a}" if a == b else str(a + b)


class Reading:
    """Kariki as the rulings state it, written apart from the engine, to play beside it."""

    def __init__(self, n: int, options: dict[str, Any]) -> None:
        self.n, self.options = n, options
        self.berries, self.crowns = [0] * n, [0] * n
        self.out, self.bought = [False] * n, [False] * n
        self.pot = n
        self.contenders, self.faces = list(range(n)), {}  # type: ignore[var-annotated]
        self.phase, self.way, self.roller = "roll-off", 1, -1
        self.dice: tuple[int, int] | None = None
        self.claim: str | None = None
        self.owner, self.passed = -1, []  # type: ignore[var-annotated]
        self.pending: list[int] = []
        self.then = -1

    def next(self, seat: int) -> int:
        seat = (seat + self.way) % self.n
        return seat if not self.out[seat] else self.next(seat)

    def berry(self, seat: int) -> None:
        if self.berries[seat] < 5:
            self.berries[seat] += 1
            if self.berries[seat] == 5:
                if self.options.get("high_rollers") and not self.bought[seat]:
                    self.pending.append(seat)
                else:
                    self.out[seat] = True

    def fresh(self, seat: int) -> None:
        if self.pending:
            self.phase, self.then = "emergency", seat
            return
        self.dice, self.claim, self.passed = None, None, []
        if self.out.count(False) == 1:
            self.phase = "over"
        else:
            self.phase, self.roller = "throw", seat if not self.out[seat] else self.next(seat)

    def throw(self, a: int, b: int) -> None:
        if self.phase == "roll-off":  # C5
            self.faces[self.contenders[len(self.faces)]] = a
            if len(self.faces) == len(self.contenders):
                best = max(self.faces.values())
                top = [s for s in self.contenders if self.faces[s] == best]
                self.faces = {}
                if len(top) > 1:
                    self.contenders = top
                else:
                    self.roller, self.phase = top[0], "direction"
        elif rank_id(a, b) == "kariki":  # K3
            self.crowns[self.roller] += 1
            victim = self.next(self.roller)
            self.berry(victim)
            if self.crowns[self.roller] % 3 == 0:
                others = [s for s in range(self.n) if s != self.roller and not self.out[s]]
                others.sort(key=lambda s: (s - self.roller) * self.way % self.n)
                for seat in others:
                    self.berry(seat)
            self.fresh(victim if self.options.get("after_kariki") == "berry" else self.roller)
        elif self.claim == "6-6":  # K5: only a Kariki beats Double Sixes
            after = self.next(self.roller)
            self.berry(self.roller)
            self.fresh(after)
        else:
            self.dice, self.phase = (a, b), "claim"

    def actor(self) -> int | None:
        if self.phase in ("direction", "claim"):
            return self.roller
        if self.phase == "respond":
            return self.next(self.owner)
        return self.pending[0] if self.phase == "emergency" else None

    def legal(self) -> list[str]:
        if self.phase == "claim":
            above = ORDER.index(self.claim) + 1 if self.claim else 0
            return [f"claim {rank}" for rank in ORDER[above:]]
        if self.phase == "respond":
            seat = self.actor()
            if seat == self.roller:  # K6: the thrower, when it comes back
                return ["pull", "pass"]
            return ["roll", "pull"] if seat in self.passed else ["roll", "pull", "pass"]
        if self.phase == "emergency":
            return ["emergency", "go-out"]
        return ["direction left", "direction right"] if self.phase == "direction" else []

    def act(self, seat: int, move: str) -> None:
        if move.startswith("direction"):
            self.way, self.phase = (1 if move.endswith("left") else -1), "throw"
        elif move.startswith("claim"):
            self.claim, self.owner, self.passed = move.split()[1], seat, []
            self.phase = "respond"
        elif move == "pass":
            self.passed.append(seat)
            self.owner = seat
        elif move == "roll":
            self.roller, self.dice, self.phase = seat, None, "throw"
        elif move == "pull":
            assert self.dice is not None and self.claim is not None
            dice, claim = ORDER.index(rank_id(*self.dice)), ORDER.index(self.claim)
            holds = dice >= claim if self.options.get("pull") == "at-least" else dice == claim
            loser, other = (seat, self.owner) if holds else (self.owner, seat)
            self.berry(loser)
            self.fresh(other)
        else:
            chooser = self.pending.pop(0)
            if move == "emergency":
                self.pot *= 2
                self.berries[chooser], self.bought[chooser] = 4, True
            else:
                self.out[chooser] = True
            if not self.pending:
                self.fresh(self.then)


def move_name(action: Any) -> str:
    if action["type"] == "claim":
        return f"claim {action['rank']}"
    if action["type"] == "direction":
        return f"direction {action['way']}"
    return str(action["type"])


@pytest.mark.parametrize(
    "options",
    [{}, {"pull": "at-least", "after_kariki": "berry"}, {"high_rollers": True}],
)
def test_K1_to_K9_the_engine_plays_as_a_second_reading_of_the_rulings(
    options: dict[str, Any],
) -> None:
    rng = random.Random(2024)
    for game_number in range(150):
        n = 2 + game_number % 9
        table = Table(make_game("kariki", n, options))
        state, reading = state_of(table), Reading(n, options)
        while reading.phase != "over":
            if state.is_chance():
                faces = [rng.randint(1, 6) for _ in state.chance_dice()]
                state.apply_chance(faces)
                reading.throw(faces[0], faces[-1])
            else:
                seat = state.actors()[0]
                legal = state.legal_actions(seat)
                assert [move_name(a) for a in legal] == reading.legal()
                action = legal[rng.randrange(len(legal))]
                state.apply(seat, action)
                reading.act(seat, move_name(action))
            assert (state.actors() or (None,))[0] == reading.actor()
            assert state.berries == reading.berries and state.crowns == reading.crowns
            assert state.out == reading.out and state.pot == reading.pot
        assert state.is_over()
