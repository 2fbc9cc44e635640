"""Three `dicehall serve` processes on one PostgreSQL and one Redis, over real sockets.

Whole games of every game with each seat on a different process, every raw
message checked against what its seat may see (helpers.check_messages, as the
single-process leak tests do); then the owner of a table in play is killed with
SIGKILL, another process takes the table over from its stored steps, the
clients reconnect and play on; then the next owner is stopped with SIGTERM and
hands the table over at once; the game ends on the last process, and its
transcript replays and verifies with no step lost or stored twice.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from dicehall.core.transcript import replay
from dicehall.games import make_game
from dicehall.server.tables.store import steps as steps_table
from tests.server.cluster.site import NetConn, Server, closed, site
from tests.server.helpers import Secrets, check_messages, drive, openings_of

# (game, seats, options): every game, short options where a game is long
GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("tepiiku", 3, {}),
    ("toplshteyner", 3, {}),
    ("tao", 3, {"length": "single"}),
    ("kariki", 3, {}),
]


@pytest.fixture
def servers(
    pg_site_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Server]]:
    folder = tmp_path_factory.mktemp("site")
    with site(pg_site_url, redis_url, 3, folder) as started:
        yield started


def test_a_site_of_three_processes(servers: list[Server], pg_site_url: str) -> None:
    """One test, so that one test worker starts the site (three processes) once: a whole
    game of every game, a single server refused beside the site, quick match and bots'
    seats across processes, then the owners of a table in play killed and stopped."""
    for game, seats, options in GAMES:
        full_game_with_seats_on_every_process(servers, pg_site_url, game, seats, options)
    a_single_server_does_not_start_beside_a_site(pg_site_url)
    quick_match_and_bot_seats_across_the_site(servers, pg_site_url)
    killed_owner_then_stopped_owner(servers, pg_site_url)


def secrets_of(db: str, table_id: str) -> Secrets:
    from dicehall.server.tables.store import Store

    store = Store(db, exclusive=False)
    try:
        record = store.get(table_id)
        assert record is not None
        return Secrets(record.fairness, record.seed, store.steps_of(table_id))
    finally:
        store.close()


def stored_indices(db: str, table_id: str) -> list[int]:
    engine = create_engine(db)
    try:
        with engine.connect() as c:
            query = select(steps_table.c.idx).where(steps_table.c.table_id == table_id)
            return sorted(c.execute(query).scalars())
    finally:
        engine.dispose()


def listed(server: Server, table_id: str) -> bool:
    lobby = httpx.get(f"{server.url}/api/tables", timeout=20).json()
    return table_id in [t["table_id"] for t in lobby]


def open_table(
    servers: list[Server], game: str, seats: int, options: dict[str, Any], humans: int = 2
) -> tuple[dict[str, Any], list[NetConn]]:
    """A table made on the first process with bots past the first `humans` seats, the
    other humans joined by room code on the next processes, each seat connected to its
    own process, a spectator on the last."""
    first = servers[0]
    bot = next(iter(make_game(game, seats, options).bots()))
    made = httpx.post(
        f"{first.url}/api/tables",
        json={
            "game": game,
            "seats": seats,
            "options": options,
            "bots": {str(s): bot for s in range(humans, seats)},
            "bot_delay_ms": 0,
        },
        timeout=20,
    )
    assert made.status_code == 200, made.text
    table = made.json()
    tid = table["table_id"]
    assert listed(servers[-1], tid)  # waiting for players, in every process's lobby
    tokens = {table["seat"]: table["token"]}
    for seat in range(1, humans):
        via = servers[seat % len(servers)]
        joined = httpx.post(
            f"{via.url}/api/rooms/{table['room'].lower()}/join", json={}, timeout=20
        )
        assert joined.status_code == 200, joined.text
        tokens[joined.json()["seat"]] = joined.json()["token"]
    conns = [NetConn(servers[-1], f"/ws/tables/{tid}", None)]
    for seat, token in sorted(tokens.items()):
        conns.append(NetConn(servers[seat % len(servers)], f"/ws/tables/{tid}?token={token}", seat))
    return table, conns


def check_finished(db: str, server: Server, table_id: str, conns: list[NetConn]) -> None:
    """Over, stored once and in order, replays and verifies (the seats' own throws too),
    and every message each connection got is exactly its seat's."""
    transcript = httpx.get(f"{server.url}/api/tables/{table_id}/transcript", timeout=30).json()
    report = httpx.get(f"{server.url}/api/tables/{table_id}/verify", timeout=30).json()
    assert report["ok"], report
    for conn in conns[1:]:
        mine = httpx.post(
            f"{server.url}/api/tables/{table_id}/verify",
            json={"openings": openings_of(conn)},
            timeout=30,
        ).json()
        assert mine["ok"], mine
    secret = secrets_of(db, table_id)
    assert stored_indices(db, table_id) == list(range(len(transcript["steps"])))
    assert replay(transcript).is_over()
    game = make_game(transcript["game"], transcript["seats"], transcript["options"])
    check_messages(conns, transcript, game, secret)


def full_game_with_seats_on_every_process(
    servers: list[Server], pg_site_url: str, game: str, seats: int, options: dict[str, Any]
) -> None:
    table, conns = open_table(servers, game, seats, options)
    try:
        drive(conns, random.Random(game))
        for conn in conns:  # the openings still on their way
            conn.ws.send_json({"type": "ping"})
            conn.read_until("pong")
    finally:
        for conn in conns:
            conn.close()
    check_finished(pg_site_url, servers[2], table["table_id"], conns)


def a_single_server_does_not_start_beside_a_site(pg_site_url: str) -> None:
    """The site's processes hold the database's server lock shared; a server without
    --redis wants it alone and stops at once, as beside another single server."""
    from dicehall.server.tables.store import DatabaseInUse, Store

    with pytest.raises(DatabaseInUse, match="another dicehall server is using the database"):
        Store(pg_site_url)
    Store(pg_site_url, exclusive=False).close()  # one more process of the site may


def owner_of(servers: list[Server], table_id: str, seconds: float = 20.0) -> Server:
    """The process whose metrics count the table as playing (its lease holder)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for s in servers:
            if s.proc.poll() is not None:
                continue
            with httpx.Client(timeout=5) as client:
                text = client.get(f"{s.url}/metrics").text
            if 'dicehall_tables{status="playing"} 1.0' in text:
                return s
        time.sleep(0.2)
    raise AssertionError("no process took the table")


def play_some(conns: list[NetConn], rng: random.Random, moves: int) -> bool:
    """Up to `moves` moves of the seated connections; True if the game ended."""
    try:
        drive(conns, rng, max_moves=moves)
    except AssertionError as e:
        if "did not end" not in str(e):
            raise
        return False
    return True


def killed_owner_then_stopped_owner(servers: list[Server], pg_site_url: str) -> None:
    """SIGKILL the owner mid-game: another takes the table within seconds and the clients
    carry on; SIGTERM the next owner: it hands over at once. Nothing lost or doubled."""
    rng = random.Random(20)
    table, conns = open_table(servers, "kariki", 4, {}, humans=3)
    tid = table["table_id"]
    try:
        first = owner_of(servers, tid)
        assert first is servers[0]  # the process that made it
        for conn in conns:  # every client on a process that will outlive the first owner
            if conn.server is first:
                conn.reconnect(servers[1])
        assert not play_some(conns, rng, 4)
        seen = max(c.step for c in conns)
        killed_at = time.monotonic()
        first.kill()
        for conn in conns:
            assert closed(conn) == 1012  # the relay saw the table move: reconnect
        second = owner_of(servers, tid)
        took = time.monotonic() - killed_at
        assert took < 15, f"taken over after {took:.1f} s"
        rest = [s for s in servers if s is not first]
        for i, conn in enumerate(conns):
            welcome = conn.rejoin(rest[i % 2])
            assert welcome["step"] >= seen  # every step a client saw was stored
        assert not play_some(conns, rng, 4)
        seen = max(c.step for c in conns)
        stopped_at = time.monotonic()
        second.terminate()
        last = next(s for s in rest if s is not second)
        for conn in conns:
            if conn.server is second:
                code = closed(conn)
                assert code in (1012, 1001, 1006), code
            else:
                assert closed(conn) == 1012
        assert owner_of([last], tid) is last
        handed = time.monotonic() - stopped_at
        for conn in conns:
            assert conn.rejoin(last)["step"] >= seen
        drive(conns, rng)
        for conn in conns:
            conn.ws.send_json({"type": "ping"})
            conn.read_until("pong")
    finally:
        for conn in conns:
            conn.close()
    print(f"taken over {took:.1f} s after SIGKILL; handed over {handed:.1f} s after SIGTERM")
    check_finished(pg_site_url, last, tid, conns)


def quick_match_and_bot_seats_across_the_site(servers: list[Server], pg_site_url: str) -> None:
    """A quick match and a bot's seat request reach a process that does not hold the
    table waiting for them: they are seated there all the same, not at a new table."""
    from dicehall.server.tables.outside_bots import BotTokens

    def post(server: Server, path: str, body: dict[str, Any], **kw: Any) -> dict[str, Any]:
        answer = httpx.post(f"{server.url}{path}", json=body, timeout=20, **kw)
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        return data

    first = post(servers[0], "/api/quickmatch", {"game": "kariki", "seats": 3, "name": "Ann"})
    assert first["opened"] is True
    second = post(servers[1], "/api/quickmatch", {"game": "kariki", "seats": 3, "name": "Bo"})
    assert second == {**second, "opened": False, "table_id": first["table_id"], "seat": 1}
    # a private table on the last process keeps a seat for a bot from outside
    kept = post(
        servers[2],
        "/api/tables",
        {"game": "kariki", "seats": 3, "bots": {"2": "outside"}, "listed": False},
    )
    engine = create_engine(pg_site_url)
    try:
        token = BotTokens(engine).issue("site-bot")
    finally:
        engine.dispose()
    sat = post(
        servers[0],
        "/api/bots/sit",
        {"game": "kariki"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert (sat["table_id"], sat["seat"], sat["name"]) == (kept["table_id"], 2, "site-bot")
    seats = httpx.get(f"{servers[1].url}/api/tables/{kept['table_id']}", timeout=20).json()
    assert seats["seats"][2]["taken"] is True and seats["status"] == "waiting"
