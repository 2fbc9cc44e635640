"""What an operator asks a running server: is it alive, is it ready, how is it doing.

`GET /healthz` answers 200 while the process serves requests at all (a
liveness probe: restart it when this fails). `GET /readyz` answers 200 when
it can play tables, its database and (with several processes) Redis
answering, and 503 naming what is not, and while it hands its tables over on
the way out (a readiness probe: send it no new clients). `GET /metrics` is in
Prometheus' text format (prometheus-client), one registry per app:

| metric | type | what |
| --- | --- | --- |
| `dicehall_tables{status}` | gauge | tables this process holds, by status |
| `dicehall_seats` | gauge | seats with a connection at those tables |
| `dicehall_connections` | gauge | WebSocket connections at those tables (relayed ones too) |
| `dicehall_moves_total` | counter | moves and timeouts played here |
| `dicehall_moves_per_second` | gauge | ... over the last 10 seconds |
| `dicehall_move_seconds` | histogram | a move from its arrival until stored and sent |
| `dicehall_store_errors_total` | counter | database writes refused |
| `dicehall_bus_errors_total` | counter | Redis calls that failed (several processes) |
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from dicehall.server.tables.hall import Hall

RATE_SECONDS = 10
"""moves_per_second is averaged over this many whole seconds."""
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
CHECK_SECONDS = 2.0
"""A readiness check that takes longer than this fails."""

Check = Callable[[], Awaitable[str | None]]
"""A readiness check: None when fine, else what is wrong, in words."""


class Metrics(Collector):
    """The server's metrics: the histogram is fed as moves happen, the rest is read
    from the hall when Prometheus scrapes."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.bus_errors: Callable[[], int] = lambda: 0
        self.registry = CollectorRegistry()
        self.latency = Histogram(
            "dicehall_move_seconds",
            "A move from its arrival until every listener was told (stored first)",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.moves = 0
        self._per_second: collections.deque[list[int]] = collections.deque(maxlen=RATE_SECONDS + 1)
        self.registry.register(self)

    def moved(self, seconds: float) -> None:
        """One move (or timeout) played, taking `seconds`."""
        self.moves += 1
        self.latency.observe(seconds)
        now = int(time.monotonic())
        if not self._per_second or self._per_second[-1][0] != now:
            self._per_second.append([now, 0])
        self._per_second[-1][1] += 1

    def moves_per_second(self) -> float:
        now = int(time.monotonic())
        done = sum(n for t, n in self._per_second if now - RATE_SECONDS <= t < now)
        return done / RATE_SECONDS

    def collect(self) -> Iterator[Metric]:
        tables = GaugeMetricFamily(
            "dicehall_tables", "Tables this process holds, by status", labels=["status"]
        )
        counts = collections.Counter(t.status for t in self.hall.live.values())
        counts.update(t.status for t in self.hall.finished.values())
        for status in ("waiting", "playing", "over", "closed"):
            tables.add_metric([status], counts.get(status, 0))
        yield tables
        live = list(self.hall.live.values())
        seats = sum(len({c.seat for c in t.listeners if c.seat is not None}) for t in live)
        yield GaugeMetricFamily("dicehall_seats", "Seats with a connection", value=seats)
        yield GaugeMetricFamily(
            "dicehall_connections",
            "WebSocket connections at this process's tables",
            value=sum(len(t.listeners) for t in live),
        )
        yield CounterMetricFamily("dicehall_moves", "Moves played here", value=self.moves)
        yield GaugeMetricFamily(
            "dicehall_moves_per_second",
            f"Moves a second over the last {RATE_SECONDS} s",
            value=self.moves_per_second(),
        )
        yield CounterMetricFamily(
            "dicehall_store_errors", "Database writes refused", value=self.hall.store.errors
        )
        yield CounterMetricFamily(
            "dicehall_bus_errors", "Redis calls that failed", value=self.bus_errors()
        )


async def _checked(check: Check) -> str | None:
    try:
        return await asyncio.wait_for(check(), CHECK_SECONDS)
    except TimeoutError:
        return "did not answer in time"
    except Exception as e:
        return f"failed: {type(e).__name__}"


def ops_router(metrics: Metrics, checks: dict[str, Check]) -> APIRouter:
    """/healthz, /readyz and /metrics; `checks` are readiness checks by name."""
    router = APIRouter(include_in_schema=False)

    @router.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @router.get("/readyz")
    async def readyz() -> JSONResponse:
        results = await asyncio.gather(*(_checked(c) for c in checks.values()))
        failed = {name: why for name, why in zip(checks, results, strict=True) if why}
        if failed:
            return JSONResponse({"status": "not ready", "failed": failed}, status_code=503)
        return JSONResponse({"status": "ready"})

    @router.get("/metrics")
    async def prometheus() -> Response:
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    return router
