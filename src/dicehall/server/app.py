"""The FastAPI application: REST under /api, WebSockets under /ws, the browser page at /."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from dicehall import __version__
from dicehall.core.game import Game
from dicehall.server.api import api_router
from dicehall.server.catalog import Catalog
from dicehall.server.compute import Compute
from dicehall.server.config import ServerConfig
from dicehall.server.expiry import sweep_forever
from dicehall.server.hall import Hall
from dicehall.server.limits import Limits, TooManyRequests
from dicehall.server.outside_bots import BotTokens, bots_router
from dicehall.server.quickmatch import quickmatch_router
from dicehall.server.replay import replay_router
from dicehall.server.settings import DEFAULT_GRACE_SECONDS
from dicehall.server.sockets import serve_socket
from dicehall.server.store import SQLITE_SYNCHRONOUS, Store
from dicehall.server.workers import Busy

log = logging.getLogger("dicehall.server")

WEB = Path(__file__).parent / "web"


def create_app(
    db_url: str,
    games: Mapping[str, type[Game]] | None = None,
    rate: float = 20.0,
    burst: int = 40,
    limits: Limits | None = None,
    sqlite_synchronous: str = SQLITE_SYNCHRONOUS,
    grace_seconds: float = DEFAULT_GRACE_SECONDS,
    config: ServerConfig | None = None,
) -> FastAPI:
    """The server on a database; `games` replaces the registry (tests), `rate`/`burst`
    limit each connection's messages a second, `limits` what each client address may
    create, join and ask (limits.py), `sqlite_synchronous` SQLite's pragma (store.py),
    `grace_seconds` a gone seat's wait when its table's host chose none (presence.py),
    `config` the worker pools, retries and logging (config.py).
    `dicehall serve` fills them from its settings (server_settings.py)."""
    limits = limits or Limits()
    config = config or ServerConfig()
    store = Store(
        db_url,
        synchronous=sqlite_synchronous,
        busy_timeout=config.busy_timeout_seconds,
        write_queue=config.write_queue,
    )
    hall = Hall(
        store, Catalog(games), limits.max_waiting_tables, limits.waiting_minutes * 60, config
    )
    compute = Compute(config)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        compute.warm()
        resumed = await hall.resume_all()
        if resumed:
            log.info("resumed %d unfinished tables", resumed)
        sweeper = asyncio.create_task(sweep_forever(hall))
        yield
        sweeper.cancel()
        hall.close()
        compute.close()
        await asyncio.sleep(0)

    app = FastAPI(title="dicehall", version=__version__, lifespan=lifespan)
    app.state.hall = hall
    app.include_router(api_router(hall, limits, compute, grace_seconds))
    app.include_router(replay_router(hall))
    app.include_router(bots_router(hall, BotTokens(store.engine), limits))
    app.include_router(quickmatch_router(hall, limits, grace_seconds))

    @app.exception_handler(TooManyRequests)
    async def too_many(_request: Request, e: TooManyRequests) -> JSONResponse:
        headers = {"Retry-After": str(e.retry_after)}
        return JSONResponse({"detail": str(e)}, status_code=429, headers=headers)

    @app.exception_handler(Busy)
    async def busy(_request: Request, e: Busy) -> JSONResponse:
        headers = {"Retry-After": str(e.retry_after)}
        return JSONResponse({"detail": str(e)}, status_code=503, headers=headers)

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        """Play (with ?token=) or watch a table."""
        await serve_socket(ws, hall, compute, table_id, rate, burst)

    if (WEB / "index.html").exists():
        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app
