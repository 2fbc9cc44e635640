"""The dicehall command: play in the terminal, simulate, replay, odds, rules, serve.

Every command reaches the games through the registry and the core API only,
and turns bad input into one clear line on stderr and exit status 2.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.panel import Panel
from rich.progress import Progress
from rich.table import Table as RichTable

from dicehall.core import DicehallError, Game, RandomDice, Table, make_bots
from dicehall.core.odds import OddsTable, show
from dicehall.core.options import options_json, parse_option_args
from dicehall.core.sim import simulate
from dicehall.core.transcript import load
from dicehall.core.transcript import replay as replay_transcript
from dicehall.games import game_class, game_ids, make_game

app = typer.Typer(
    help="Hidden-information dice games: play, simulate, replay, study the odds, host tables.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True, soft_wrap=True)

T = TypeVar("T")


def fail(message: str) -> NoReturn:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(2)


def guarded(fn: Callable[[], T]) -> T:
    """Run a command body, turning the core's errors into a clean exit."""
    try:
        return fn()
    except DicehallError as e:
        fail(str(e))


def configure(game_id: str, seats: int | None, option: list[str] | None) -> Game:
    cls = game_class(game_id)
    options = parse_option_args(cls.id, cls.declared_options, option or [])
    return make_game(game_id, seats, options)


GameArg = Annotated[str, typer.Argument(help="Game id: tepiiku, toplshteyner, tao or kariki.")]
SeatsOpt = Annotated[int | None, typer.Option("--seats", "-n", help="Number of seats.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed for the dice and bots.")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A table option, NAME=VALUE; repeat for more."),
]


@app.command()
def games(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The games, their seat ranges and options."""
    classes = [game_class(g) for g in game_ids()]
    if as_json:
        data = [
            {
                "id": c.id,
                "name": c.name,
                "summary": c.summary,
                "min_seats": c.min_seats,
                "max_seats": c.max_seats,
                "default_seats": c.default_seats,
                "options": options_json(c.declared_options),
            }
            for c in classes
        ]
        print(json.dumps(data, indent=2))
        return
    for c in classes:
        seats = f"{c.min_seats}" if c.min_seats == c.max_seats else f"{c.min_seats}–{c.max_seats}"
        table = RichTable(title=f"[bold]{c.name}[/] ({c.id}) · {seats} seats", title_justify="left")
        table.add_column("option")
        table.add_column("default")
        table.add_column("allowed")
        table.add_column("meaning")
        for o in c.declared_options:
            table.add_row(o.name, json.dumps(o.default), o.allowed(), o.help)
        out.print(c.summary)
        out.print(table)
        out.print()


@app.command()
def rules(game: GameArg) -> None:
    """The rules in brief, with the ruling ids."""
    cls = guarded(lambda: game_class(game))
    out.print(Panel(cls.rules.strip(), title=f"{cls.name} ({cls.id})", expand=False))


@app.command()
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
        names = [typer.prompt(f"Nickname for seat {s}", default=f"Player {s}") for s in humans]
    else:
        names = [name] + [f"{bot_name.capitalize()} {s}" for s in range(1, g.seats)]
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
        out.print(game.render(state.view(seat), self.table.names))
        legal = state.legal_actions(seat)
        for i, action in enumerate(legal, 1):
            out.print(
                f"  [bold]{i:>2}[/] {self.name_seats(game.action_label(action))}", highlight=False
            )
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


@app.command()
def sim(
    game: GameArg,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games.")] = 100,
    seats: SeatsOpt = None,
    bots: Annotated[
        str, typer.Option(help="Bots by seat, comma-separated, repeated to fill the seats.")
    ] = "random",
    seed: SeedOpt = None,
    option: OptionOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    save_transcripts: Annotated[
        Path | None, typer.Option(help="Save every game's transcript in this folder.")
    ] = None,
) -> None:
    """Bots play many games; prints wins per seat, mean steps and the flow of money."""
    g = guarded(lambda: configure(game, seats, option))
    names = [b.strip() for b in bots.split(",") if b.strip()]
    guarded(lambda: make_bots(g, names, random.Random(0)))  # unknown bot names fail early
    if as_json:
        stats = guarded(lambda: simulate(g, names, games, seed, save_transcripts))
        print(json.dumps(stats.to_json()))
        return
    with Progress(console=err, transient=True) as progress:
        task = progress.add_task(f"{g.id}", total=games)
        stats = guarded(
            lambda: simulate(
                g, names, games, seed, save_transcripts, lambda i: progress.advance(task)
            )
        )
    table = RichTable(title=f"{g.name}: {games} games, {g.seats} seats")
    for col in ("seat", "bot", "wins", "win rate", f"net {stats.unit}", "mean net"):
        table.add_column(col, justify="right")
    for s in range(g.seats):
        table.add_row(
            str(s),
            stats.bots[s],
            f"{stats.wins[s]:g}",
            f"{stats.win_rate(s):.1%}",
            f"{stats.net[s]:+d}",
            f"{stats.net[s] / stats.games:+.3f}",
        )
    out.print(table)
    out.print(f"mean steps per game: {stats.mean_steps:.1f}")


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A transcript (JSON).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the final spectator view and result.")
    ] = False,
) -> None:
    """Re-apply a transcript exactly; prints the events and the final result."""
    data = guarded(lambda: load(file))
    state = guarded(lambda: replay_transcript(data))
    if as_json:
        final = {
            "view": state.view(None),
            "result": state.result().to_json() if state.is_over() else None,
        }
        print(json.dumps(final, indent=1))
        return
    names = data.get("names") or [f"Seat {s}" for s in range(state.game.seats)]
    for event in state.log or []:
        if event.visible_to(None):
            out.print(f"  · {event.text}", highlight=False)
    if state.is_over():
        result = state.result()
        out.print(f"[bold green]Winner: {', '.join(str(names[w]) for w in result.winners)}[/]")
        for s, n in enumerate(result.net):
            out.print(f"  {names[s]}: {n:+d} {result.unit}")
    else:
        out.print(f"[yellow]The game is not over: {len(data['steps'])} steps replayed.[/]")


@app.command()
def odds(
    game: GameArg,
    dice: Annotated[str | None, typer.Option(help="Your dice, comma-separated.")] = None,
    beat: Annotated[str | None, typer.Option(help="Tepiiku: the score to beat.")] = None,
    d12: Annotated[str | None, typer.Option(help="Tao: your twelve-sided die.")] = None,
    opponents: Annotated[
        str | None, typer.Option(help="Tao: the opponents' twelve-sided dice, comma-separated.")
    ] = None,
    seats: Annotated[str | None, typer.Option(help="Toplshteyner: players in the game.")] = None,
    lives: Annotated[
        str | None, typer.Option(help="Toplshteyner: lives per player, e.g. 3,2,1.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Exact odds: distributions, the chances of a claim, the best reroll."""
    cls = guarded(lambda: game_class(game))
    given = {
        "dice": dice,
        "beat": beat,
        "d12": d12,
        "opponents": opponents,
        "seats": seats,
        "lives": lives,
    }
    query = {k: v for k, v in given.items() if v is not None}
    tables = guarded(lambda: cls.odds(query))
    if as_json:
        print(json.dumps([t.to_json() for t in tables], indent=1))
        return
    for t in tables:
        out.print(odds_table(t))
        if t.note:
            out.print(f"[dim]{t.note}[/]")
        out.print()


def odds_table(t: OddsTable) -> RichTable:
    table = RichTable(title=t.title, title_justify="left")
    for c in t.columns:
        table.add_column(c)
    for row in t.rows:
        table.add_row(*(show(c) if not isinstance(c, (str, int)) else str(c) for c in row))
    return table


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    db: Annotated[
        str, typer.Option(help="SQLAlchemy database URL.")
    ] = "sqlite:///data/dicehall.sqlite",
) -> None:
    """Host online tables and the browser page."""
    from dicehall.server.commands import serve as run_server

    guarded(lambda: run_server(host, port, db))


@app.command()
def verify(file: Annotated[Path, typer.Argument(help="A finished table's transcript.")]) -> None:
    """Check that every throw follows from the table's revealed seed."""
    from dicehall.server.commands import verify as verify_transcript

    report = guarded(lambda: verify_transcript(str(file)))
    print(json.dumps(report, indent=1))
    if not report.get("ok"):
        raise typer.Exit(1)


def main(argv: Sequence[str] | None = None) -> None:
    app(args=list(argv) if argv is not None else sys.argv[1:], prog_name="dicehall")
