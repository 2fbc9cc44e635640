"""The FastAPI application: REST under /api, WebSockets under /ws, the browser page at /."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from dicehall import __version__
from dicehall.core.game import Game
from dicehall.server.http.account_api import Accounts, account_router
from dicehall.server.http.api import api_router
from dicehall.server.http.bots import bots_router
from dicehall.server.http.claims import claim_router
from dicehall.server.http.guides import guides_router
from dicehall.server.http.health import Check, Metrics, ops_router
from dicehall.server.http.profiles import profile_router
from dicehall.server.http.quickmatch import quickmatch_router
from dicehall.server.http.replay import replay_router
from dicehall.server.http.review import review_router
from dicehall.server.http.sockets import SocketCaps, serve_socket
from dicehall.server.http.warmup import warm_games, warm_routes
from dicehall.server.ops.compute import Compute
from dicehall.server.ops.limits import Caps, Limiter, Limits, LimitsUnavailable, TooManyRequests
from dicehall.server.ops.settings import DEFAULT_GRACE_SECONDS, ServerConfig
from dicehall.server.ops.workers import Busy
from dicehall.server.people.lobby_ratings import SitterRatings
from dicehall.server.people.profiles import Profiles
from dicehall.server.people.results import Results
from dicehall.server.tables.catalog import Catalog
from dicehall.server.tables.expiry import sweep_forever
from dicehall.server.tables.hall import Hall
from dicehall.server.tables.ladder import Ladder
from dicehall.server.tables.outside_bots import BotTokens
from dicehall.server.tables.store import SQLITE_SYNCHRONOUS, Store, schema_lock

log = logging.getLogger("dicehall.server")

WEB = Path(__file__).parents[1] / "web"  # the page: server/web/, served at /


def create_app(
    db_url: str,
    games: Mapping[str, type[Game]] | None = None,
    rate: float = 20.0,
    burst: int = 40,
    limits: Limits | None = None,
    sqlite_synchronous: str = SQLITE_SYNCHRONOUS,
    grace_seconds: float = DEFAULT_GRACE_SECONDS,
    config: ServerConfig | None = None,
    redis_url: str | None = None,
) -> FastAPI:
    """The server on a database; `games` replaces the registry (tests), `rate`/`burst`
    limit each connection's messages a second, `limits` what each client address may
    create, join and ask (ops/limits.py), `sqlite_synchronous` SQLite's pragma
    (tables/store.py), `grace_seconds` a gone seat's wait when its table's host chose
    none (tables/presence.py), `config` the worker pools, retries and logging
    (ops/settings.py's ServerConfig), `redis_url` the Redis of a site of several
    processes on one PostgreSQL database (server/cluster/).
    `dicehall serve` fills them from its settings (ops/settings.py)."""
    limits = limits or Limits()
    config = config or ServerConfig()
    if redis_url is not None and not db_url.startswith("postgresql"):
        raise ValueError(
            "several server processes (--redis) share one PostgreSQL database: give --db"
            f" a postgresql+psycopg:// URL, not {db_url.split(':', 1)[0]}"
        )
    with contextlib.nullcontext() if redis_url is None else schema_lock(db_url):
        store = Store(
            db_url,
            synchronous=sqlite_synchronous,
            busy_timeout=config.busy_timeout_seconds,
            write_queue=config.write_queue,
            exclusive=redis_url is None,
        )
        hall = Hall(
            store,
            Catalog(games),
            limits.max_waiting_tables,
            limits.waiting_minutes * 60,
            config,
            limits.waiting_per_address,
            limits.waiting_per_account,
        )
        bot_tokens = BotTokens(store.engine)
    compute = Compute(config)
    catalog = hall.catalog
    bot_names = {b for gid in catalog.ids() for b in catalog.describe(gid)["bots"]}
    limiter = Limiter(redis_url)  # a site's processes count in its Redis (ops/limits.py)
    accounts = Accounts(store, limits, config, bot_names, limiter)
    sockets = SocketCaps(
        Caps(limits.sockets_per_address, "from your address"),
        Caps(limits.sockets_per_account, "for your account"),
    )
    results = Results(store, accounts.db)
    hall.finish_hooks.append(results.finished)
    sitters = SitterRatings(store)
    results.on_recorded.append(sitters.forget)
    ladder = Ladder(hall, config.ladder_games_per_minute, config.ladder_bot_delay_ms)
    metrics = Metrics(hall)
    hall.on_move = metrics.moved

    async def database() -> str | None:
        await asyncio.to_thread(store.ping)
        return None

    checks: dict[str, Check] = {"database": database}
    node = None
    if redis_url is not None:
        from dicehall.server.cluster.node import Node

        node = Node(redis_url, hall)
        hall.on_open, hall.on_end = node.opened, node.ended
        ladder.take_turn = node.ladder_turn
        metrics.bus_errors = lambda: node.errors
        checks["redis"] = node.ready

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        warm_routes(app)
        warm_games(catalog)
        compute.warm()
        hall.tracker.warm()
        if node is not None:
            await node.start()
        else:
            resumed = await hall.resume_all()
            if resumed:
                log.info("resumed %d unfinished tables", resumed)
        recorded = await results.catch_up(hall)
        if recorded:
            log.info("recorded the results of %d tables a stop had left unrecorded", recorded)
        sweeper = asyncio.create_task(sweep_forever(hall))
        ladder.start()
        yield
        sweeper.cancel()
        await ladder.stop()
        await results.drain()
        if node is not None:
            await node.stop()
        hall.close()
        compute.close()
        accounts.passwords.close()
        accounts.new_passwords.close()
        accounts.suspect_passwords.close()
        await asyncio.sleep(0)

    app = FastAPI(title="dicehall", version=__version__, lifespan=lifespan)
    app.state.hall = hall
    app.state.compute = compute
    app.state.ladder = ladder
    app.state.sitters = sitters
    app.state.accounts = accounts
    app.state.sockets = sockets
    app.include_router(api_router(hall, limits, compute, grace_seconds, accounts, sitters, limiter))
    app.include_router(ops_router(metrics, checks))
    app.include_router(replay_router(hall))
    app.include_router(review_router(hall, limits, compute, limiter))
    app.include_router(guides_router(list(catalog.ids())))
    app.include_router(bots_router(hall, bot_tokens, limits, limiter))
    app.include_router(quickmatch_router(hall, limits, grace_seconds, accounts, limiter))

    async def forget(account_id: str) -> None:
        await results.forget(hall, account_id)

    app.include_router(account_router(accounts, forget))
    app.include_router(claim_router(hall, accounts, results))
    app.include_router(profile_router(Profiles(store.engine, accounts.db), results, catalog.ids()))

    @app.exception_handler(TooManyRequests)
    async def too_many(_request: Request, e: TooManyRequests) -> JSONResponse:
        headers = {"Retry-After": str(e.retry_after)}
        return JSONResponse({"detail": str(e)}, status_code=429, headers=headers)

    @app.exception_handler(LimitsUnavailable)
    async def limits_unavailable(_request: Request, e: LimitsUnavailable) -> JSONResponse:
        headers = {"Retry-After": str(config.retry_after_seconds)}
        return JSONResponse({"detail": str(e)}, status_code=503, headers=headers)

    @app.exception_handler(Busy)
    async def busy(_request: Request, e: Busy) -> JSONResponse:
        headers = {"Retry-After": str(e.retry_after)}
        return JSONResponse({"detail": str(e)}, status_code=503, headers=headers)

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        """Play (with ?token=, or ?seat=N logged in as its player) or watch a table."""
        account = await accounts.viewer(ws)
        await serve_socket(ws, hall, compute, table_id, rate, burst, account, sockets)

    if (WEB / "index.html").exists():
        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    if node is not None:
        from dicehall.server.cluster.forward import Router

        node.app = app
        app.add_middleware(Router, node=node)
    return app
