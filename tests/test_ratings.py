"""Ratings: OpenSkill's own numbers for each rated game, and a reproducible bot ladder."""

from __future__ import annotations

import json

import pytest
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from dicehall.cli import app
from dicehall.core.game import Result
from dicehall.games import make_game
from dicehall.ratings import RatingBook, entrants, ladder, ranks_of


def result(winners: tuple[int, ...], seats: int) -> Result:
    return Result(winners=winners, net=tuple(0 for _ in range(seats)), unit="stakes")


def test_a_rated_result_updates_every_seat_exactly_as_the_library_computes() -> None:
    book = RatingBook()
    book.record(["ann", "bob", "cy"], result((1,), 3))
    model = PlackettLuce()
    a, b, c = (model.rating(name=n) for n in ("ann", "bob", "cy"))
    expected = model.rate([[a], [b], [c]], ranks=[2.0, 1.0, 2.0])
    for name, team in zip(("ann", "bob", "cy"), expected, strict=True):
        assert book.standings[name].rating.mu == pytest.approx(team[0].mu, abs=1e-12)
        assert book.standings[name].rating.sigma == pytest.approx(team[0].sigma, abs=1e-12)
    assert book.table()[0].name == "bob"
    assert book.standings["bob"].wins == 1 and book.standings["ann"].games == 1


def test_a_shared_win_ties_the_winners_and_splits_the_win() -> None:
    assert ranks_of(result((0, 2), 3)) == [1.0, 2.0, 1.0]
    book = RatingBook()
    book.record(["a", "b", "c"], result((0, 2), 3))
    assert book.standings["a"].rating.mu == pytest.approx(book.standings["c"].rating.mu)
    assert book.standings["a"].wins == 0.5


def test_one_player_in_two_seats_is_refused() -> None:
    with pytest.raises(ValueError, match="only one seat"):
        RatingBook().record(["a", "a"], result((0,), 2))


def test_numbered_copies_fill_a_table_larger_than_the_bots() -> None:
    assert entrants(["random", "heuristic"], 2) == ["random", "heuristic"]
    assert entrants(["random", "heuristic"], 5) == [
        "random",
        "heuristic",
        "random 2",
        "heuristic 2",
        "random 3",
    ]


def test_the_same_seed_gives_the_same_ladder_and_the_heuristic_outranks_random() -> None:
    game = make_game("kariki", 2)
    first = [s.to_json() for s in ladder(game, ["random", "heuristic"], 120, seed=5).table()]
    again = [s.to_json() for s in ladder(game, ["random", "heuristic"], 120, seed=5).table()]
    assert first == again
    assert first[0]["name"] == "heuristic"
    assert sum(s["games"] for s in first) == 240


def test_ladder_command_prints_ratings_as_json() -> None:
    run = CliRunner().invoke(
        app, ["ladder", "tepiiku", "--games", "20", "--seed", "1", "--bots", "heuristic,random"]
    )
    assert run.exit_code == 0, run.output
    run = CliRunner().invoke(app, ["ladder", "tao", "--games", "10", "--seed", "1", "--json"])
    data = json.loads(run.stdout)  # a warning about the bots goes to stderr
    assert data["game"] == "tao" and data["model"] == "openskill.PlackettLuce"
    assert {r["name"] for r in data["ratings"]} >= set(make_game("tao").bots())


def test_ladder_with_an_unknown_bot_fails_cleanly() -> None:
    run = CliRunner().invoke(app, ["ladder", "kariki", "--bots", "nobody"])
    assert run.exit_code == 2 and "nobody" in run.output


def test_the_shown_rating_is_openskills_ordinal_on_a_1500_scale_never_negative() -> None:
    from dicehall.ratings import PROVISIONAL_GAMES, SHOWN_SCALE, provisional, shown

    model = PlackettLuce()
    fresh = model.rating()
    assert shown(fresh.mu, fresh.sigma) == 1500  # a new player stands at the centre
    strong = model.rating(mu=30.0, sigma=2.0)
    assert shown(strong.mu, strong.sigma) == round(1500 + SHOWN_SCALE * strong.ordinal())
    assert shown(-200.0, 5.0) == 0  # never a negative number on screen
    book = RatingBook()
    for _ in range(3):
        book.record(["a", "b"], Result((0,), (1, -1), "stakes"))
    a, b = book.standing("a").to_json(), book.standing("b").to_json()
    assert a["shown"] > 1500 > b["shown"] > 0 and a["provisional"]
    assert provisional(PROVISIONAL_GAMES - 1) and not provisional(PROVISIONAL_GAMES)
