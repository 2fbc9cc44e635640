"""`dicehall play`: a game in the terminal against bots, or people passing one terminal."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any

import typer

from dicehall.cli.common import GameArg, OptionOpt, SeatsOpt, SeedOpt, app, configure, guarded, out
from dicehall.core import RandomDice, Table, make_bots
from dicehall.core.words import seat_name


@app.command(rich_help_panel="Play")
def play(
    game: GameArg,
    seats: SeatsOpt = None,
    seed: SeedOpt = None,
    option: OptionOpt = None,
    hotseat: Annotated[
        bool, typer.Option(help="Pass one terminal between people: every seat is human.")
    ] = False,
    bot: Annotated[str | None, typer.Option(help="Bot for the other seats.")] = None,
    name: Annotated[str, typer.Option(help="Your nickname.")] = "Player",
    save: Annotated[Path | None, typer.Option(help="Save the transcript here.")] = None,
) -> None:
    """You against bots in the terminal (or --hotseat: people sharing one terminal)."""
    g = guarded(lambda: configure(game, seats, option))
    rng = random.Random(seed)
    humans = set(range(g.seats)) if hotseat else {0}
    bot_name = bot or next(iter(g.bots()))
    if hotseat:
        names = [
            typer.prompt(f"Nickname for seat {s + 1}", default=seat_name(s)) for s in sorted(humans)
        ]
    else:
        names = [name] + [seat_name(s, bot_name) for s in range(1, g.seats)]
    bots = guarded(
        lambda: make_bots(g, [bot_name], rng, [s for s in range(g.seats) if s not in humans])
    )
    table = Table(g, RandomDice(rng.getrandbits(64)), names)
    TerminalGame(table, humans, bots, hotseat).run()
    if save is not None:
        save.write_text(json.dumps(table.transcript(), indent=1))
        out.print(f"Transcript saved to {save}")


HANDOVER_EVENTS = 12
"""Events shown to a hotseat player when the terminal reaches them: the recent story."""


class TerminalGame:
    """One game at the terminal: shows events as they happen, asks humans to act."""

    def __init__(self, table: Table, humans: set[int], bots: dict[int, Any], hotseat: bool) -> None:
        self.table = table
        self.humans = humans
        self.bots = bots
        self.hotseat = hotseat
        self.seen = 0  # events already printed
        self.watcher: int | None = None if hotseat else min(humans)

    def run(self) -> None:
        state = self.table.state
        try:
            while not state.is_over():
                if state.is_chance():
                    self.table.roll()
                    continue
                self.print_events()
                for seat in state.actors():
                    if seat in self.humans:
                        self.human_turn(seat)
                    else:
                        bot = self.bots[seat]
                        self.table.act(
                            seat, bot.choose(state.view(seat), state.legal_actions(seat))
                        )
                    break
            self.print_events()
            out.print(self.table.game.render(state.view(self.watcher), self.table.names))
            self.print_result()
        except (EOFError, KeyboardInterrupt):
            out.print("\n[dim]Game abandoned.[/]")
            raise typer.Exit(1) from None

    def print_events(self, recent: int | None = None) -> None:
        """Print the events the watcher has not seen; with `recent`, the last few it may see."""
        log = self.table.state.log or []
        if recent is None:
            shown = [e for e in log[self.seen :] if e.visible_to(self.watcher)]
        else:
            shown = [e for e in log if e.visible_to(self.watcher)][-recent:]
        for event in shown:
            out.print(f"  [cyan]·[/] {self.name_seats(event.text)}", highlight=False)
        self.seen = len(log)

    def name_seats(self, text: str) -> str:
        for s in reversed(range(self.table.game.seats)):
            text = text.replace(f"Seat {s}", self.table.names[s]).replace(
                f"seat {s}", self.table.names[s]
            )
        return text

    def human_turn(self, seat: int) -> None:
        state = self.table.state
        game = self.table.game
        if self.hotseat:
            out.clear()
            typer.prompt(
                f"Pass the terminal to {self.table.names[seat]} and press Enter",
                default="",
                show_default=False,
            )
            self.watcher = seat
            self.print_events(recent=HANDOVER_EVENTS)
        view = state.view(seat)
        out.print(game.render(view, self.table.names))
        legal = state.legal_actions(seat)
        for i, action in enumerate(legal, 1):
            label = self.name_seats(game.choice_label(view, action))
            out.print(f"  [bold]{i:>2}[/] {label}", highlight=False)
        while True:
            answer = input(f"{self.table.names[seat]}, your choice [1-{len(legal)}]: ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                break
            out.print(f"[red]Type a number from 1 to {len(legal)}.[/]")
        self.table.act(seat, legal[int(answer) - 1])
        if self.hotseat:
            self.print_events()
            input("Press Enter to hide your dice and pass on. ")
            out.clear()
            self.watcher = None
            self.seen = len(state.log or [])

    def print_result(self) -> None:
        result = self.table.state.result()
        winners = ", ".join(self.table.names[w] for w in result.winners)
        out.print(f"\n[bold green]Winner: {winners}[/]")
        for s, n in enumerate(result.net):
            out.print(f"  {self.table.names[s]}: {n:+d} {result.unit}")
