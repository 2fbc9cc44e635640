"""The dicehall command, end to end, including what it says to bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.cli import app, play
from dicehall.core.transcript import check_schema
from dicehall.games import game_class, game_ids

runner = CliRunner()
GAMES = game_ids()
SHORT_GAME = {"tepiiku": ["-o", "bankroll=3"], "tao": ["-o", "length=single"]}
"""Options that keep a whole game short enough to play through the terminal in a test."""


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_games_lists_every_game_with_options() -> None:
    code, output = run("games", "--json")
    assert code == 0
    listed = json.loads(output)
    assert [g["id"] for g in listed] == GAMES
    for entry in listed:
        cls = game_class(entry["id"])
        assert (entry["min_seats"], entry["max_seats"]) == (cls.min_seats, cls.max_seats)
        assert [o["name"] for o in entry["options"]] == [o.name for o in cls.declared_options]
    code, output = run("games")
    assert code == 0
    for gid in GAMES:
        assert gid in output


@pytest.mark.parametrize("gid", GAMES)
def test_rules_cite_ruling_ids(gid: str) -> None:
    code, output = run("rules", gid)
    assert code == 0
    prefix = {"tepiiku": "T", "toplshteyner": "P", "tao": "D", "kariki": "K"}[gid]
    assert f"{prefix}1" in output


@pytest.mark.parametrize("gid", GAMES)
def test_sim_json_and_saved_transcripts_replay(gid: str, tmp_path: Path) -> None:
    code, output = run(
        "sim", gid, "--games", "3", "--seed", "5", "--json", "--save-transcripts", str(tmp_path)
    )
    assert code == 0, output
    stats = json.loads(output)
    assert stats["game"] == gid and stats["games"] == 3
    assert len(stats["wins"]) == stats["seats"] and sum(stats["wins"]) == pytest.approx(3)
    assert stats["mean_steps"] > 0
    saved = sorted(tmp_path.iterdir())
    assert len(saved) == 3
    for path in saved:
        check_schema(json.loads(path.read_text()))
    code, output = run("replay", str(saved[0]), "--json")
    assert code == 0, output
    final = json.loads(output)
    assert final["result"] == json.loads(saved[0].read_text())["result"]
    code, output = run("replay", str(saved[0]))
    assert code == 0 and "Winner" in output


@pytest.mark.parametrize("gid", GAMES)
def test_sim_is_reproducible_with_a_seed(gid: str) -> None:
    first = run("sim", gid, "--games", "4", "--seed", "11", "--json")[1]
    assert run("sim", gid, "--games", "4", "--seed", "11", "--json")[1] == first


@pytest.mark.parametrize("gid", GAMES)
def test_sim_prints_a_table(gid: str) -> None:
    code, output = run("sim", gid, "--games", "2", "--seed", "1")
    assert code == 0 and "win rate" in output and "mean steps" in output


def test_sim_batch_plays_random_kariki_reproducibly() -> None:
    code, output = run(
        "sim", "kariki", "-n", "3", "--games", "300", "--seed", "5", "--batch", "--json"
    )
    assert code == 0
    stats = json.loads(output)
    assert stats["games"] == 300 and sum(stats["wins"]) == 300 and sum(stats["net"]) == 0
    again = run("sim", "kariki", "-n", "3", "--games", "300", "--seed", "5", "--batch", "--json")
    assert again[1] == output


@pytest.mark.parametrize("gid", GAMES)
def test_sim_batch_plays_heuristic_bots(gid: str) -> None:
    code, output = run(
        "sim", gid, "-n", "3", "--games", "200", "--seed", "2", "--bots", "heuristic,random",
        "--batch", "--json", *(["-o", "length=round"] if gid == "tao" else []),
    )  # fmt: skip
    assert code == 0, output
    stats = json.loads(output)
    assert stats["bots"] == ["heuristic", "random", "heuristic"]
    assert stats["games"] == 200 and round(sum(stats["wins"])) == 200


def test_sim_batch_refuses_what_it_cannot_play() -> None:
    code, output = run("sim", "kariki", "--batch", "--bots", "solver")
    assert code == 2 and "plays the bots random, heuristic, not solver" in output
    code, output = run("sim", "kariki", "--batch", "--save-transcripts", "/tmp/nowhere")
    assert code == 2 and "saves no transcripts" in output


@pytest.mark.parametrize("gid", GAMES)
def test_play_against_bots_to_the_end(gid: str) -> None:
    code, output = run("play", gid, "--seed", "3", *SHORT_GAME.get(gid, []), input="1\n" * 5000)
    assert code == 0, output
    assert "Winner" in output


@pytest.mark.parametrize("gid", GAMES)
def test_odds_print(gid: str) -> None:
    code, output = run("odds", gid)
    assert code == 0, output


def test_unknown_game_is_a_clear_error() -> None:
    for args in (["rules", "chess"], ["sim", "chess"], ["play", "chess"], ["odds", "chess"]):
        code, output = run(*args)
        assert code == 2
        assert "unknown game 'chess'" in output


@pytest.mark.parametrize("gid", GAMES[:1])
def test_bad_options_and_bots_are_clear_errors(gid: str) -> None:
    code, output = run("sim", gid, "--option", "no_such=1")
    assert code == 2 and "unknown option 'no_such'" in output
    code, output = run("sim", gid, "--option", "nonsense")
    assert code == 2 and "NAME=VALUE" in output
    code, output = run("sim", gid, "--bots", "genius")
    assert code == 2 and "unknown bot 'genius'" in output
    code, output = run("sim", gid, "--seats", "99")
    assert code == 2 and "seats; got 99" in output


def test_malformed_transcripts_are_clear_errors(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text("{not json")
    code, output = run("replay", str(path))
    assert code == 2 and "is not JSON" in output
    path.write_text(json.dumps({"game": "chess", "seats": 2, "steps": []}))
    code, output = run("replay", str(path))
    assert code == 2 and "unknown game 'chess'" in output
    code, output = run("replay", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in output


@pytest.mark.parametrize("gid", GAMES)
def test_transcript_breaking_the_rules_names_the_step(gid: str, tmp_path: Path) -> None:
    run("sim", gid, "--games", "1", "--seed", "2", "--json", "--save-transcripts", str(tmp_path))
    path = next(tmp_path.iterdir())
    data = json.loads(path.read_text())
    index = next(i for i, s in enumerate(data["steps"]) if "action" in s)
    data["steps"][index]["action"] = {"type": "cheat"}
    path.write_text(json.dumps(data))
    code, output = run("replay", str(path))
    assert code == 2 and f"step {index}:" in output


@pytest.mark.parametrize("gid", GAMES)
def test_hotseat_passes_one_terminal_between_people(
    gid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(play, "SINGLE_CHOICE_PAUSE", 0)
    seats = game_class(gid).min_seats
    names = "\n" * seats
    turns = "\n1\n" * 5000  # hide and pass the terminal (blank lines), or choose
    args = ["play", gid, "--hotseat", "--seats", str(seats), "--seed", "4"]
    code, output = run(*args, *SHORT_GAME.get(gid, []), input=names + turns)
    assert code == 0, output[-2000:]
    assert "Winner" in output
    handovers = output.count("Pass the terminal to")
    # a player whose turn comes again keeps the terminal: never asked to hide, nor to take it
    assert 1 <= handovers <= output.count("your choice")
    assert output.count("Press Enter to hide your dice") == handovers - 1


def test_verify_proves_your_own_hidden_throws_with_your_openings(tmp_path: Path) -> None:
    from tests.sealed_play import sealed_game

    data, got = sealed_game("kariki", 4)
    transcript = tmp_path / "game.json"
    transcript.write_text(json.dumps(data))
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"seat": 0, "openings": got[None] + got[0]}))
    public = runner.invoke(app, ["verify", str(transcript), "--json"])
    assert public.exit_code == 0 and json.loads(public.stdout)["ok"]
    own = runner.invoke(app, ["verify", str(transcript), "--openings", str(mine), "--json"])
    report = json.loads(own.stdout)
    assert own.exit_code == 0 and report["your_throws"] > 0
    assert f"so are your own {report['your_throws']} hidden throws" in report["words"]
    mine.write_text("[1, 2]")
    bad = runner.invoke(app, ["verify", str(transcript), "--openings", str(mine)])
    assert bad.exit_code == 1 and "an openings file is a JSON object" in bad.stdout


def test_verify_says_in_words_what_was_promised_checked_and_kept_secret(tmp_path: Path) -> None:
    """The same words as the page's fair-dice panel, seats by their names, never by number."""
    from tests.sealed_play import sealed_game

    data, _ = sealed_game("kariki", 4)
    data["names"] = ["Ann", "Bo", "Cy", "Di"]
    transcript = tmp_path / "game.json"
    transcript.write_text(json.dumps(data))
    code, output = run("verify", str(transcript))
    report = json.loads(run("verify", str(transcript), "--json")[1])
    assert code == 0, output
    assert output.startswith("The dice were fair: all ")
    for heading in ("Promised before the game", "Checked now", "Still secret, and why"):
        assert heading in output
    for part in report["explained"].values():
        assert " ".join(part.split()[:6]) in " ".join(output.split())
    given = [data["names"][s] for s in report["entropy_from"]]
    assert given and all(name in " ".join(output.split()) for name in given)
    assert "seat 0" not in output.lower() and "seats 0" not in output.lower()
    data["steps"] = data["steps"][:-1]
    transcript.write_text(json.dumps(data))
    code, output = run("verify", str(transcript))
    assert code == 1 and output.startswith("Not verified")


def test_replay_names_every_seat_as_people_read_it(tmp_path: Path) -> None:
    args = ["sim", "kariki", "--seats", "2", "--games", "1", "--seed", "5"]
    code, output = run(*args, "--save-transcripts", str(tmp_path))
    assert code == 0, output
    saved = next(tmp_path.iterdir())
    data = json.loads(saved.read_text())
    assert data["names"] == ["Player 1", "Player 2"]
    data["names"] = ["Ann", "Bo"]
    saved.write_text(json.dumps(data))
    code, output = run("replay", str(saved))
    assert code == 0, output
    assert "Ann throws" in output and "Bo" in output
    assert "seat 0" not in output.lower() and "seat 1" not in output.lower()
    del data["names"]
    saved.write_text(json.dumps(data))
    code, output = run("replay", str(saved))
    assert "Player 1 throws" in output and "seat 0" not in output.lower()


def test_play_answers_help_and_the_odds_of_this_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "SINGLE_CHOICE_PAUSE", 0)
    code, output = run(
        "play",
        "kariki",
        "--seats",
        "3",
        "--seed",
        "7",
        "--bot",
        "solver",
        input="?\no\n" + "1\n" * 5000,
    )
    assert code == 0, output
    assert "o: the odds and advice for this decision" in output
    assert "Solver on Nine" in output and "solver plays it" in output
    # the advice's model names the other seat as the table does, never "seat 2"
    assert "the claim's owner, solver bot 3" in " ".join(output.split())
    assert "(seat " not in output


def test_rules_tao_say_the_token_still_moves_under_the_shorter_lengths() -> None:
    """D12: a single match or first to two still passes the token, which names the opener."""
    code, output = run("rules", "tao")
    assert code == 0
    words = " ".join(w for w in output.split() if w != "│")
    assert "Under the shorter lengths the token still changes hands as above" in words
    assert "still names the opener (D3, D12); only the end of the game differs" in words


def test_practice_asks_again_until_the_answer_is_a_choice() -> None:
    code, output = run("practice", "kariki", "--count", "1", input="0\nnine\n99\n1\n")
    assert code == 0, output
    assert "0 is not a choice" in output
    assert "99 is not a choice" in output
    assert "Puzzle 1 of 1" in output
