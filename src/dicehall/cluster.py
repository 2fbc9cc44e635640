"""Long computations in chunks, run in this process or on a Ray cluster, with one result.

Duels, the bot ladder and Kariki's solves split their work into chunks fixed
by their inputs alone (every seed drawn up front, scores in fixed groups),
hand each chunk to a module-level function, and combine the chunks' results
in chunk order. `Local` runs the chunks one after another here; the runner
`runner("local")` or `runner(ADDRESS)` gives runs them as Ray tasks, all
submitted at once. A
chunk's result depends only on the chunk, and the combination only on the
results in order, so both give the same result for the same seed, bit for
bit: `--ray` changes where the work runs, never what it finds.

Ray is optional (`pip install 'dicehall[cluster]'`); without it everything
runs locally as before and asking for Ray fails with one line saying what to
install.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from dicehall.core import DicehallError

T = TypeVar("T")
R = TypeVar("R")

LOCAL = "local"
"""The address that starts a Ray cluster on this machine for the one command (Ray's own name)."""
INSTALL_HINT = "--ray needs Ray: pip install 'dicehall[cluster]'"


class ClusterError(DicehallError):
    """Ray is missing, or the cluster cannot be reached."""


class Runner(Protocol):
    def map(self, fn: Callable[[T], R], chunks: Sequence[T]) -> Iterator[R]:
        """fn of every chunk, in the chunks' order (whatever order they finish in)."""
        ...


class Local:
    """Every chunk in this process, one after another."""

    def map(self, fn: Callable[[T], R], chunks: Sequence[T]) -> Iterator[R]:
        return (fn(chunk) for chunk in chunks)


class RayRunner:
    """Every chunk as a Ray task, all submitted at once, results taken in order."""

    def __init__(self, ray: Any) -> None:
        self.ray = ray
        self._remote: dict[Callable[..., Any], Any] = {}

    def map(self, fn: Callable[[T], R], chunks: Sequence[T]) -> Iterator[R]:
        if fn not in self._remote:
            self._remote[fn] = self.ray.remote(fn)
        refs = [self._remote[fn].remote(chunk) for chunk in chunks]
        for ref in refs:
            yield self.ray.get(ref)


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError(INSTALL_HINT) from None
    return ray


@contextmanager
def runner(address: str | None) -> Iterator[Runner]:
    """The runner for `--ray`: None runs locally; LOCAL starts a Ray cluster here for the
    duration; any other address is a cluster's (`host:6379`, `ray://host:10001`, `auto`).

    A process already connected to Ray (a test's shared cluster, a notebook)
    keeps its connection and the runner uses it.
    """
    if address is None:
        yield Local()
        return
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        check_reachable(address)
        try:
            # Workers' own output stays in Ray's logs: the command's stdout is its result.
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                logging_level="WARNING",
            )
        except (ConnectionError, ValueError, RuntimeError) as e:
            raise ClusterError(f"cannot reach the Ray cluster at {address!r}: {e}") from None
    try:
        yield RayRunner(ray)
    finally:
        if started:
            ray.shutdown()


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail at once on a HOST:PORT (or ray://HOST:PORT) nobody listens on: Ray itself
    would retry for minutes. Other addresses (LOCAL, auto) are left to Ray."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise ClusterError(f"cannot reach the Ray cluster at {address!r}: {e}") from None


def chunked(items: Sequence[T], size: int) -> list[list[T]]:
    """Consecutive runs of `size` items (the last may be shorter): chunks fixed by the input."""
    if size < 1:
        raise ValueError(f"a chunk holds at least one item; got {size}")
    return [list(items[i : i + size]) for i in range(0, len(items), size)]
