"""`dicehall review` and `dicehall practice`: learning from the solvers' values.

The logic is the strategy engine's (`strategy/review.py`, `strategy/practice.py`);
this module reads the arguments, prints, and asks the questions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table as RichTable
from rich.text import Text

from dicehall.cli.common import (
    GameArg,
    JsonOpt,
    OptionOpt,
    SeatsOpt,
    app,
    configure,
    fail,
    guarded,
    out,
)

if TYPE_CHECKING:
    from dicehall.core import Game
    from dicehall.strategy.practice import Puzzle
    from dicehall.strategy.review import Decision, Review

SeatOpt = Annotated[int, typer.Option("--seat", "-s", help="Whose decisions: a seat number.")]


@app.command(rich_help_panel="Study")
def review(
    file: Annotated[Path, typer.Argument(help="A finished game's transcript (JSON).")],
    seat: SeatOpt = 0,
    as_json: JsonOpt = False,
) -> None:
    """Rate one seat's decisions in a finished game against the solver's values."""
    from dicehall.core.transcript import load
    from dicehall.strategy.review import review as review_game

    data = guarded(lambda: load(file))
    result = guarded(lambda: review_game(data, seat))
    if as_json:
        print(json.dumps(result.to_json(), indent=1))
        return
    print_review(result)


def print_review(result: Review) -> None:
    from dicehall.strategy.review import MEASURE_WORDS

    game = result.game
    out.print(
        Text(
            f"Review of {result.names[result.seat]} (seat {result.seat}) in {game.name}, "
            f"{game.seats} seats: {len(result.decisions)} decisions",
            style="bold",
        )
    )
    if result.stand_ins:
        out.print(
            "[yellow]This transcript has stand-ins for sealed throws: a seat's own hidden "
            "dice are real only in the transcript its own player saved.[/]"
        )
    for d in result.decisions:
        print_decision(d)
    summary = result.summary()
    counts = ", ".join(f"{label} {n}" for label, n in summary["counts"].items() if n)
    out.print(Text(f"\nSummary: {summary['rated']} of {summary['decisions']} rated: {counts}"))
    accuracy = summary["accuracy"]
    if accuracy is not None:
        out.print(Text(f"  accuracy (best or good): {accuracy:.0%}"))
    for measure, loss in summary["mean_loss"].items():
        from dicehall.strategy.review import show_loss

        words = MEASURE_WORDS[measure]
        out.print(Text(f"  mean loss: {show_loss(loss, measure)} of {words}"))
    out.print(
        Text("  values from: " + "; ".join(f"{m} ({n})" for m, n in summary["models"].items()))
    )
    biggest = result.biggest()
    if biggest:
        out.print(Text("Biggest mistakes:", style="bold"))
        for d in biggest:
            out.print(Text("  " + one_line(d)))


def one_line(d: Decision) -> str:
    from dicehall.strategy.review import show_loss, show_value

    chosen = d.choices[d.chosen] if d.chosen is not None else None
    best = d.choices[d.best[0]] if d.best else None
    what = chosen.label if chosen is not None else "timed out"
    line = f"#{d.number} (step {d.step}) {what}"
    if chosen is not None and best is not None and d.loss is not None:
        line += (
            f" ({show_value(chosen.value, d.measure)}); best {best.label} "
            f"({show_value(best.value, d.measure)}): lost {show_loss(d.loss, d.measure)}, {d.label}"
        )
    return line


def print_decision(d: Decision) -> None:
    from dicehall.strategy.review import MEASURE_WORDS, show_loss, show_value

    head = f"#{d.number} step {d.step}"
    if d.phase:
        head += f" ({d.phase})"
    if d.loss is not None:
        head += f": {d.label}, lost {show_loss(d.loss, d.measure)}"
    else:
        head += f": {d.label}"
    out.print(Text(f"\n{head}", style=LABEL_STYLE.get(d.label, "")))
    if d.chosen is None:
        out.print(Text("  timed out"))
    claim = d.facts.get("claim_true")
    if isinstance(claim, float):
        out.print(Text(f"  the claim was true with chance {claim:.1%} (the solver's posterior)"))
    table = RichTable(box=None, show_header=True, pad_edge=False)
    table.add_column("")
    table.add_column("choice")
    valued = any(c.value is not None for c in d.choices)
    if valued:
        table.add_column(MEASURE_WORDS[d.measure], justify="right")
    if any(c.model_plays is not None for c in d.choices):
        table.add_column("model plays it", justify="right")
    for i, c in enumerate(d.choices):
        mark = ">" if i == d.chosen else ""
        cells = [mark, c.label + (" (best)" if i in d.best else "")]
        if valued:
            cells.append(show_value(c.value, d.measure))
        if c.model_plays is not None:
            cells.append(f"{c.model_plays:.0%}")
        table.add_row(*cells)
    out.print(table)
    out.print(Text(f"  values: {d.model}", style="dim"))


LABEL_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


@app.command(rich_help_panel="Study")
def practice(
    game: GameArg,
    seats: SeatsOpt = None,
    option: OptionOpt = None,
    count: Annotated[int, typer.Option("--count", "-c", min=1, help="How many puzzles.")] = 5,
    seed: Annotated[int, typer.Option("--seed", help="Which positions are drawn.")] = 0,
    answers: Annotated[
        str | None,
        typer.Option(help="Answer without asking: choice numbers, comma-separated (1 = first)."),
    ] = None,
    from_game: Annotated[
        Path | None,
        typer.Option("--from", help="Puzzles from your own costliest decisions in this game."),
    ] = None,
    seat: SeatOpt = 0,
    as_json: JsonOpt = False,
) -> None:
    """Puzzles where the choice matters most, scored against the solver's values."""
    from dicehall.strategy.practice import draw, from_review

    if from_game is not None:
        from dicehall.core.transcript import load
        from dicehall.strategy.review import review as review_game

        data = guarded(lambda: load(from_game))
        if data.get("game") != game:
            fail(f"{from_game} is a game of {data.get('game')!r}, not {game!r}")
        reviewed = guarded(lambda: review_game(data, seat))
        puzzles = from_review(reviewed, count)
        if not puzzles:
            fail(f"seat {seat} lost nothing the values can see in {from_game}: no puzzle")
        g = reviewed.game
    else:
        g = guarded(lambda: configure(game, seats, option))
        puzzles = guarded(lambda: draw(g, count, seed))
    given = parse_answers(answers, puzzles) if answers is not None else None
    if as_json:
        from dicehall.strategy.practice import report as practice_report

        report = practice_report(g, puzzles, seed, answers=given is not None)
        if given is not None:
            report["scores"] = [p.score(a) for p, a in zip(puzzles, given, strict=True)]
        print(json.dumps(report, indent=1))
        return
    ask(g, puzzles, given)


def parse_answers(text: str, puzzles: list[Puzzle]) -> list[int]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if len(parts) != len(puzzles):
        fail(f"--answers has {len(parts)} answers for {len(puzzles)} puzzles")
    picked = []
    for k, (part, puzzle) in enumerate(zip(parts, puzzles, strict=True)):
        n = len(puzzle.decision.choices)
        if not part.isdigit() or not 1 <= int(part) <= n:
            fail(f"answer {k + 1} is {part!r}: puzzle {k + 1} has choices 1 to {n}")
        picked.append(int(part) - 1)
    return picked


def ask(g: Game, puzzles: list[Puzzle], given: list[int] | None) -> None:
    from dicehall.strategy.review import show_loss, show_value

    names = [f"Seat {s}" for s in range(g.seats)]
    losses: dict[str, float] = {}
    for k, puzzle in enumerate(puzzles):
        d = puzzle.decision
        out.print(Text(f"\nPuzzle {puzzle.number} of {len(puzzles)}: you are seat {puzzle.seat}"))
        out.print(g.render(d.view, names))
        for i, c in enumerate(d.choices):
            out.print(Text(f"  {i + 1}. {c.label}"))
        if given is not None:
            answer = given[k]
        else:
            try:
                answer = _ask_choice(len(d.choices))
            except (EOFError, KeyboardInterrupt):
                out.print("\n[dim]Practice stopped.[/]")
                raise typer.Exit(1) from None
        scored = puzzle.score(answer)
        chosen = d.choices[answer]
        best = d.choices[d.best[0]]
        label = scored["label"]
        out.print(
            Text(
                f"{chosen.label}: {label}"
                + ("" if label == "best" else f", lost {show_loss(scored['loss'], d.measure)}"),
                style=LABEL_STYLE.get(label, "green"),
            )
        )
        for c in d.choices:
            mark = " (best)" if c is best else ""
            out.print(Text(f"    {c.label}{mark}: {show_value(c.value, d.measure)}"))
        out.print(Text(f"  values: {d.model}", style="dim"))
        losses[d.measure] = losses.get(d.measure, 0.0) + scored["loss"]
    for measure, total in losses.items():
        out.print(Text(f"\nTotal lost: {show_loss(total, measure)}", style="bold"))


def _ask_choice(count: int) -> int:
    """The 0-based index of the choice typed, asked again until it is one of 1..count.

    typer vendors its own copy of click since 0.22, so click's ``IntRange`` is not
    ours to import: the range is checked here.
    """
    while True:
        number = typer.prompt("Your choice", type=int)
        if 1 <= number <= count:
            return int(number) - 1
        typer.echo(f"Error: {number} is not a choice; type a number from 1 to {count}.", err=True)
