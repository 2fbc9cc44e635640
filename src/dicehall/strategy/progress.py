"""The Rich progress bar every long computation shows: iterations, exploitability, time left."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class Bar:
    """One task's bar; `advance` moves it and shows the latest exploitability."""

    def __init__(self, progress: Progress | None, total: float, unit: str) -> None:
        self.progress = progress
        self.task = progress.add_task("", total=total, eps="") if progress else None
        self.unit = unit

    def advance(self, steps: float = 1, exploitability: float | None = None) -> None:
        if self.progress is None or self.task is None:
            return
        if exploitability is None:
            self.progress.update(self.task, advance=steps)
        else:
            eps = f"exploitability {exploitability:.2e}"
            self.progress.update(self.task, advance=steps, eps=eps)

    def describe(self, text: str) -> None:
        if self.progress is not None and self.task is not None:
            self.progress.update(self.task, description=text)


@contextmanager
def bar(total: float, what: str, console: Console | None, unit: str = "") -> Iterator[Bar]:
    """A progress bar on `console` (stderr for the CLI); None shows nothing."""
    if console is None:
        yield Bar(None, total, unit)
        return
    columns = (
        TextColumn(f"[bold]{what}[/] {{task.description}}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[eps]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        yield Bar(progress, total, unit)
