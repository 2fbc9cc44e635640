"""`dicehall play`: a game in the terminal against bots, or people passing one terminal."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from dicehall.cli.common import (
    GameArg,
    OptionOpt,
    SeatsOpt,
    SeedOpt,
    app,
    configure,
    guarded,
    out,
    warn_bots,
)
from dicehall.cli.reroll_pick import dice_choice, pick_dice
from dicehall.core import RandomDice, Table, make_bots
from dicehall.core.words import name_seats, seat_name


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
    guide: Annotated[
        bool, typer.Option(help="A first game against bots, explained step by step.")
    ] = False,
) -> None:
    """You against bots in the terminal (or --hotseat: people sharing one terminal)."""
    if guide:
        from dicehall.cli.guide import run_guide

        run_guide(game)
        return
    g = guarded(lambda: configure(game, seats, option))
    rng = random.Random(seed)
    humans = set(range(g.seats)) if hotseat else {0}
    bot_name = bot or next(iter(g.bots()))
    if not hotseat:
        warn_bots(g, [bot_name])
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


TURN_HELP = """\
  Type the number of a choice (1 to {n}) and press Enter to play it.
  o: the odds and advice for this decision (what each choice is worth).
  ?: this help. `dicehall rules GAME` prints the rules; Ctrl-C leaves the game."""

HANDOVER_EVENTS = 12
"""Events shown to a hotseat player when the terminal reaches them: the recent story."""

SINGLE_CHOICE_PAUSE = 0.8
"""Seconds the table waits before it plays a seat's only legal choice, so people follow."""

CLEAR_SCROLLBACK = "\x1b[3J"
"""Erase the terminal's scrollback (xterm's E3, which tmux and most terminals honour)."""


class TerminalGame:
    """One game at the terminal: shows events as they happen, asks humans to act."""

    def __init__(self, table: Table, humans: set[int], bots: dict[int, Any], hotseat: bool) -> None:
        self.table = table
        self.humans = humans
        self.bots = bots
        self.hotseat = hotseat
        self.seen = 0  # events already printed
        self.watcher: int | None = None if hotseat else min(humans)
        self.holder: int | None = None  # hotseat: the seat whose player has the terminal

    def run(self) -> None:
        state = self.table.state
        try:
            with self.private_screen():
                self.play()
        except (EOFError, KeyboardInterrupt):
            out.print("\n[dim]Game abandoned.[/]")
            raise typer.Exit(1) from None
        self.print_events(recent=HANDOVER_EVENTS if self.hotseat else None)
        out.print(self.table.game.render(state.view(self.watcher), self.table.names))
        self.print_result()

    @contextlib.contextmanager
    def private_screen(self) -> Iterator[None]:
        """Hotseat play happens on the terminal's alternate screen, which keeps no
        scrollback: nobody scrolls up to the previous player's dice. The end is shown
        on the normal screen, with public facts only."""
        alternate = self.hotseat and out.set_alt_screen(True)
        try:
            yield
        finally:
            if self.hotseat:
                self.hide()
                self.watcher = self.holder = None
            if alternate:
                out.set_alt_screen(False)

    def hide(self) -> None:
        """Clear the screen and the scrollback: the last player's secrets leave with them."""
        out.clear()
        if out.is_terminal:
            out.file.write(CLEAR_SCROLLBACK)
            out.file.flush()

    def play(self) -> None:
        state = self.table.state
        while not state.is_over():
            if state.is_chance():
                self.own_throw(state.thrower())
                self.table.roll()
                continue
            self.print_events()
            for seat in state.actors():
                if seat in self.humans:
                    self.human_turn(seat)
                else:
                    bot = self.bots[seat]
                    self.table.act(seat, bot.choose(state.view(seat), state.legal_actions(seat)))
                break

    def own_throw(self, seat: int | None) -> None:
        """A person throws their own dice (State.thrower): Enter before each throw."""
        if seat is None or seat not in self.humans:
            return
        self.print_events()
        input(f"{self.table.names[seat]}, press Enter to throw. ")

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
        return name_seats(text, self.table.names)

    def human_turn(self, seat: int) -> None:
        state = self.table.state
        game = self.table.game
        legal = game.offered_choices(state.view(seat), state.legal_actions(seat))
        if len(legal) == 1:
            self.play_only_choice(seat, legal[0])
            return
        if self.hotseat and seat != self.holder:
            self.hand_over(seat)
        view = state.view(seat)
        out.print(game.render(view, self.table.names))
        hand = (view.get("dice") or [None] * game.seats)[seat]
        if hand and dice_choice(legal):
            self.table.act(seat, pick_dice(hand, legal, self.ask(seat), out.print))
            return
        for i, action in enumerate(legal, 1):
            label = self.name_seats(game.choice_label(view, action))
            out.print(f"  [bold]{i:>2}[/] {label}", highlight=False)
        while True:
            answer = input(
                f"{self.table.names[seat]}, your choice [1-{len(legal)}, ? help, o odds]: "
            ).strip()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                break
            if answer == "?":
                out.print(TURN_HELP.format(n=len(legal)), highlight=False)
            elif answer.lower() == "o":
                self.show_advice(view, legal)
            else:
                out.print(f"[red]Type a number from 1 to {len(legal)}, ? for help.[/]")
        self.table.act(seat, legal[int(answer) - 1])

    def show_advice(self, view: Any, legal: Sequence[Any]) -> None:
        """The odds and advice for this decision, as the page's odds panel shows them."""
        from dicehall.cli.odds import print_odds

        table = self.table.game.advice(view, legal)
        if table is None:
            out.print("[dim]No odds for this position.[/]")
            return
        print_odds(table.named(self.table.names))

    def ask(self, seat: int) -> Any:
        name = self.table.names[seat]
        return lambda hint: input(f"{name}, your choice, {hint}: ")

    def hand_over(self, seat: int) -> None:
        """Hotseat: the player at the terminal hides it, the next one takes it. A player
        whose turn comes again keeps the terminal and is not asked at all."""
        name = self.table.names[seat]
        if self.holder is not None:
            self.print_events()
            input("Press Enter to hide your dice. ")
        self.hide()
        self.watcher = None
        self.seen = len(self.table.state.log or [])
        typer.prompt(f"Pass the terminal to {name} and press Enter", default="", show_default=False)
        self.watcher = self.holder = seat
        self.print_events(recent=HANDOVER_EVENTS)

    def play_only_choice(self, seat: int, action: Any) -> None:
        """A seat with one legal choice is not asked: the table plays it after a pause. In
        hotseat play nothing of the seat is shown, since another may hold the terminal."""
        if not self.hotseat:
            out.print(self.table.game.render(self.table.state.view(seat), self.table.names))
        label = self.name_seats(self.table.game.action_label(action))
        out.print(f"  [dim]{self.table.names[seat]}: one choice, {label}; the table plays it[/]")
        time.sleep(SINGLE_CHOICE_PAUSE)
        self.table.act(seat, action)

    def print_result(self) -> None:
        result = self.table.state.result()
        winners = ", ".join(self.table.names[w] for w in result.winners)
        out.print(f"\n[bold green]Winner: {winners}[/]")
        for s, n in enumerate(result.net):
            out.print(f"  {self.table.names[s]}: {n:+d} {result.unit}")
