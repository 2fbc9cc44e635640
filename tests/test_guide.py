"""The first-game guides: each script plays through the rules as written, shows the
rulings it promises, and runs to its end at the terminal (`dicehall play --guide`)."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from dicehall.cli import app
from dicehall.core.errors import DicehallError
from dicehall.core.guide import Guide, guide_frames, guide_json, load_guide, move, throw
from dicehall.games import game_ids, make_game

GAMES = game_ids()


def frames(gid: str) -> list[dict[str, Any]]:
    game, guide = load_guide(gid)
    return guide_frames(game, guide)


def texts(gid: str) -> list[str]:
    return [e["text"] for f in frames(gid) for e in f["events"]]


@pytest.mark.parametrize("gid", GAMES)
def test_every_game_has_a_guide_that_explains_each_decision(gid: str) -> None:
    shown = frames(gid)
    assert shown[-1].get("end") and shown[-1]["note"]
    assert all(f["note"] for f in shown), "every frame says something"
    decisions = [f for f in shown if f.get("legal")]
    assert decisions, "the learner decides at least once"
    for f in decisions:
        assert 0 <= f["choice"] < len(f["legal"])
        assert f["rule"], "a decision cites the rule it is about"
    # C6: the learner never sees another seat's hidden dice in a frame
    for f in shown:
        assert f["view"]["seat"] == 0


def test_kariki_guide_K5_pull_on_the_truth_and_on_a_lie_a_pass_and_K3_kariki() -> None:
    said = texts("kariki")
    assert "seat 1 passes" in said
    assert "seat 2 pulls: 5-6, the claim was true" in said
    assert "seat 2 gets a dingle berry (false accusation)" in said
    assert "seat 1 throws KARIKI! Crown 1" in said
    assert "seat 0 pulls: 3-1, the claim was a lie" in said
    assert "seat 2 gets a dingle berry (caught lying)" in said
    end = frames("kariki")[-1]["view"]
    assert end["berries"] == [0, 0, 3] and end["crowns"] == [0, 1, 0]


def test_tepiiku_guide_T5_thumbs_T6_tie_T8_beat_T9_the_fish_pays() -> None:
    said = texts("tepiiku")
    assert any(t.startswith("Thumbs up: 2; the pot is 3") for t in said)
    assert "Seat 0 and seat 1 tie and must reroll" in said
    assert "Seat 0 beats the middle and the Hook with 12: the pot doubles to 6" in said
    assert "Seat 1 pays 6 to seat 0" in said
    end = frames("tepiiku")[-1]["view"]
    assert end["over"] and end["coins"] == [12, 0, 6] and end["result"]["winners"] == [0]


def test_tao_guide_D5_a_white_raise_rerolls_D7_a_fold_D8_the_showdown() -> None:
    said = texts("tao")
    assert "Seat 0 raises with 1 white." in said
    assert "Seat 0 throws two dice again, hidden." in said and "You throw 6 and 5." in said
    assert "Seat 2 folds." in said
    assert "Showdown: seat 0: 6+5+7 = 18; seat 1: 5+5+4 = 14." in said
    assert frames("tao")[-1]["view"]["result"]["winners"] == [0]


def test_toplshteyner_guide_P3_point_and_seven_P8_high_fives_P9_trick_sixes_P5() -> None:
    said = texts("toplshteyner")
    assert "the point is 6" in said and "seat 0 made the point; seat 1 throws" in said
    assert "5-5: High Fives" in said and "seat 1 loses 1 life" in said
    assert "seat 1 takes a life from the pot" in said
    assert "seat 1 threw a seven; seat 2 throws" in said
    assert "2-2: Saving Grace" in said
    end = frames("toplshteyner")[-1]["view"]
    assert end["lives"] == [3, 2, 3] and end["pot"] == 1
    assert sum(1 for f in frames("toplshteyner") if f.get("throw")) == 3


def test_a_script_the_rules_refuse_fails_when_built() -> None:
    game = make_game("kariki", 2)

    def script(*steps: Any) -> Guide:
        return Guide(seats=2, names=("You", "Bot 2"), intro="", outro="", steps=steps)

    with pytest.raises(DicehallError, match="got 3 faces"):
        guide_frames(game, script(throw(1, 1, 1)))
    with pytest.raises(DicehallError, match="step 3: a throw is scripted where a seat must act"):
        guide_frames(game, script(throw(6), throw(1), throw(3, 4)))
    with pytest.raises(DicehallError, match="step 3: .* is not offered to the learner"):
        guide_frames(game, script(throw(6), throw(1), move(0, type="pull")))


@pytest.mark.parametrize("gid", GAMES)
def test_play_guide_at_the_terminal_runs_to_its_end(gid: str) -> None:
    game, guide = load_guide(gid)
    shown = guide_json(game, guide)["frames"]
    answers = ["0" if f.get("legal") else "" for f in shown if not f.get("end")]
    # a wrong answer is refused with the choice the guide wants, and asked again
    keys = [
        f"{a}\n" if a != "0" else f"99\n{f['choice'] + 1}\n"
        for a, f in zip(answers, shown, strict=False)
    ]
    result = CliRunner().invoke(app, ["play", gid, "--guide"], input="".join(keys))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "In this guide, choose" in result.output
    assert "That is the guide" in " ".join(result.output.split())
    assert "Guide left" not in result.output


def test_play_guide_names_an_unknown_game() -> None:
    result = CliRunner().invoke(app, ["play", "chess", "--guide"])
    assert result.exit_code == 2 and "chess" in result.output


def test_tepiiku_T7_equal_runes_make_one_offered_reroll_each() -> None:
    """water, person, water: "reroll water" once, "water and person" once; every rune set
    a legal reroll could take is still offered, and every legal reroll stays legal."""
    from dicehall.games.tepiiku.rules import FISH_ACTIONS

    game = make_game("tepiiku")
    hand = ["water", "person", "water"]
    view: dict[str, Any] = {"seat": 0, "dice": [hand, None, None]}
    offered = game.offered_choices(view, FISH_ACTIONS)
    labels = [game.choice_label(view, a) for a in offered]
    assert labels == [
        "pay the pot",
        "reroll water",
        "reroll person",
        "reroll water and person",
        "reroll water and water",
        "reroll all dice",
    ]
    assert all(a in FISH_ACTIONS for a in offered)
    sets = {tuple(sorted(hand[i] for i in a["dice"])) for a in FISH_ACTIONS if "dice" in a}
    assert sets == {tuple(sorted(hand[i] for i in a["dice"])) for a in offered if "dice" in a}
    # both orders of one pair read the same, whichever dice were picked
    assert game.choice_label(view, {"type": "reroll", "dice": [1, 2]}) == "reroll water and person"


def test_tepiiku_reroll_by_typing_the_dice_at_the_terminal() -> None:
    from dicehall.cli.reroll_pick import dice_choice, pick_dice
    from dicehall.games.tepiiku.rules import BET_ACTIONS, FISH_ACTIONS, REROLLS

    assert dice_choice(FISH_ACTIONS) and dice_choice(REROLLS) and not dice_choice(BET_ACTIONS)
    answers = iter(["", "4", "x", "31"])
    warned: list[str] = []
    hand = ["water", "person", "water"]
    picked = pick_dice(hand, FISH_ACTIONS, lambda hint: next(answers), warned.append)
    assert dict(picked) == {"type": "reroll", "dice": [0, 2]} and len(warned) == 3
    assert pick_dice(hand, FISH_ACTIONS, lambda hint: "p", warned.append) == {"type": "pay"}
    # a forced reroll has no pay: "p" is refused
    answers = iter(["p", "2"])
    assert pick_dice(hand, REROLLS, lambda hint: next(answers), warned.append)["dice"] == [1]
