"""Test helpers: a server on a temporary database, WebSocket reads with a timeout,
and a driver that plays a table's human seats with random legal actions."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from dicehall.core.commitments import SealedDice, chain_value
from dicehall.core.game import Game
from dicehall.games import game_ids
from dicehall.server import create_app
from dicehall.server.ops.limits import Limits
from dicehall.server.ops.settings import ServerConfig
from tests.toy_game import GAMES as TOY

# (game id, games the server offers: None for the registry)
CASES: list[tuple[str, Mapping[str, type[Game]] | None]] = [("duel", TOY)] + [
    (gid, None) for gid in game_ids()
]


def sqlite_url(folder: Path) -> str:
    """A fresh SQLite database in a test's temporary folder."""
    return f"sqlite:///{folder / 'db.sqlite'}"


@contextlib.contextmanager
def running(
    db: Path | str, games: Mapping[str, type[Game]] | None = TOY, **kw: Any
) -> Iterator[TestClient]:
    """A server on `db`, an SQLite file or any database URL, with limits out of the way
    and odds worked out in threads (worker processes take a while to start)."""
    kw.setdefault("rate", 1000.0)
    kw.setdefault("burst", 1000)
    kw.setdefault("limits", Limits.generous())
    kw.setdefault("config", ServerConfig(compute_in_processes=False))
    app = create_app(db if isinstance(db, str) else f"sqlite:///{db}", games=games, **kw)
    with TestClient(app) as client:
        yield client


def receive(ws: WebSocketTestSession, timeout: float = 10.0) -> dict[str, Any]:
    """The next message, or fail after `timeout` seconds instead of hanging."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    data: dict[str, Any] = json.loads(message["text"])
    return data


def create(client: TestClient, game: str, **body: Any) -> dict[str, Any]:
    body.setdefault("bot_delay_ms", 0)
    response = client.post("/api/tables", json={"game": game, **body})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


class Conn:
    """One connection and every message it received, raw."""

    def __init__(
        self, ws: WebSocketTestSession, seat: int | None, entropy: bytes | None = None
    ) -> None:
        """`entropy`: the seat's hash-chain secret, whose values it sends as a page does."""
        self.ws = ws
        self.seat = seat
        self.entropy = entropy
        self.messages: list[dict[str, Any]] = []
        self.pos: dict[str, Any] = {}
        self.over: dict[str, Any] | None = None

    def read(self) -> dict[str, Any]:
        m = receive(self.ws)
        self.messages.append(m)
        round_ = (
            m if m["type"] == "entropy" else m.get("entropy") if m["type"] == "welcome" else None
        )
        if round_ and self.entropy is not None:
            value = chain_value(self.entropy, round_["batch"]).hex()
            self.ws.send_json({"type": "reveal", "batch": round_["batch"], "value": value})
        if m["type"] in ("welcome", "update"):
            self.pos = m
        elif m["type"] == "over":
            self.over = m
        elif m["type"] == "error":
            raise AssertionError(f"seat {self.seat} got an error: {m['message']}")
        return m

    def read_until(self, kind: str) -> dict[str, Any]:
        while True:
            m = self.read()
            if m["type"] == kind:
                return m

    @property
    def step(self) -> int:
        return int(self.pos["step"])


def drive(conns: list[Conn], rng: random.Random, max_moves: int = 20_000) -> None:
    """Play the seated connections with random legal actions until "over" reaches all."""
    for c in conns:
        if not c.pos:
            c.read_until("welcome")
    for _ in range(max_moves):
        latest = max(c.step for c in conns)
        for c in conns:
            while c.step < latest:
                c.read()
        if any(c.step != latest for c in conns):
            continue
        if conns[0].pos["status"] == "over":
            for c in conns:
                while c.over is None:
                    c.read()
            return
        due = conns[0].pos.get("throw_due")
        thrower = next((c for c in conns if due is not None and c.seat == due), None)
        if thrower is not None:  # a person's own throw (a Toplshteyner roller)
            thrower.ws.send_json({"type": "throw", "step": thrower.step})
            thrower.ws.send_json({"type": "ping"})
            thrower.read_until("pong")
            continue
        actor = next((c for c in conns if c.seat is not None and c.pos["legal"]), None)
        if actor is None:  # a bot's turn
            while conns[0].step == latest:
                conns[0].read()
            continue
        choice = rng.choice(actor.pos["legal"])["action"]
        actor.ws.send_json({"type": "action", "step": actor.step, "action": choice})
        # the server answers a connection in order: once the pong is in, so is our update
        actor.ws.send_json({"type": "ping"})
        actor.read_until("pong")
    raise AssertionError("the game did not end")


def settle(client: TestClient, table_id: str, conns: list[Conn]) -> None:
    """After the game: read every opening still on its way (the tracker thread finds them
    after the step; asking for the transcript waits for it, and a pong comes after them)."""
    assert client.get(f"/api/tables/{table_id}/transcript").status_code == 200
    for conn in conns:
        conn.ws.send_json({"type": "ping"})
        conn.read_until("pong")


def roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


@dataclass
class Secrets:
    """What only the server holds of a table: its mode, its seed and the real steps."""

    fairness: str
    seed: str
    steps: list[Any]


def secrets_of(client: TestClient, table_id: str) -> Secrets:
    store = client.app.state.hall.store  # type: ignore[attr-defined]
    record = store.get(table_id)
    return Secrets(record.fairness, record.seed, store.steps_of(table_id))


def check_messages(
    conns: list[Conn] | list[Frames], transcript: Mapping[str, Any], game: Game, secret: Secrets
) -> None:
    """Every message each connection got is exactly what its seat may see (C6).

    The oracle is the game itself, replayed from the table's real steps: at
    step k a connection of seat t must have been sent view(t), the legal
    actions of t and the events visible to t, nothing else; and view(t) must
    not change when everything hidden from t is redrawn. No message before
    the end may hold the seed (a sealed table's, never). At a sealed table
    every opening a seat got proves a throw the rules showed it, and no message
    holds the secret of a throw the rules did not show that seat. And the
    transcript meets the schema.
    """
    from dicehall.core.shown import shown_throws
    from dicehall.core.transcript import apply_step, check_schema

    check_schema(transcript)
    rng = random.Random(7)
    state = game.new_state(record=True)
    seats: list[int | None] = [None, *range(game.seats)]
    snapshots = []
    steps = secret.steps
    if secret.fairness == "seed":
        assert steps == transcript["steps"]
    for k in range(len(steps) + 1):
        if k:
            apply_step(state, steps[k - 1])
        over = state.is_over()
        per_seat = {}
        for t in seats:
            view = roundtrip(state.view(t))
            assert roundtrip(state.resample_hidden(t, rng).view(t)) == view, (k, t)
            # what a seat is offered: its legal actions, one per meaning (Tepiiku's equal runes)
            offered = (
                [] if over or t is None else game.offered_choices(view, state.legal_actions(t))
            )
            legal = roundtrip(offered)
            per_seat[t] = (view, legal)
        snapshots.append((len(state.log or ()), per_seat, list(state.actors())))
    log = state.log or []
    seed = secret.seed
    shown = shown_throws(game, steps)
    dice = SealedDice(bytes.fromhex(seed))
    for conn in conns:
        t = conn.seat
        seen_over = False
        hidden = [dice.opening(k).secret.hex() for k in shown.sealed(t)]
        for m in conn.messages:
            text = json.dumps(m)
            if m["type"] == "over":
                seen_over = True
                assert m["commitment"] == transcript["commitment"]
                assert m.get("seed") == (seed if secret.fairness == "seed" else None)
            if not seen_over or secret.fairness == "sealed":
                assert seed not in text, f"the seed reached seat {t}"
            if secret.fairness == "sealed":
                for h in hidden:
                    assert h not in text, f"seat {t} got the secret of a throw not shown to it"
                for opening in m.get("openings", []):
                    assert shown.shown_to(opening["throw"], t)
                    assert opening == dice.opening(opening["throw"]).to_json()
            if m["type"] not in ("welcome", "update"):
                continue
            k = m["step"]
            logged, per_seat, actors = snapshots[k]
            view, legal = per_seat[t]
            assert m["view"] == view, f"seat {t} step {k}: view differs from the game's"
            assert [entry["action"] for entry in m["legal"]] == legal
            assert m["actors"] == actors
            start = 0 if m["type"] == "welcome" else snapshots[m["from_step"]][0]
            expected = [e.to_json() for e in log[start:logged] if e.visible_to(t)]
            assert m["events"] == roundtrip(expected), f"seat {t} step {k}: events differ"
        assert seen_over
    if secret.fairness == "sealed":
        public_text = json.dumps(transcript)
        assert seed not in public_text
        for k in shown.sealed(None):
            assert dice.opening(k).secret.hex() not in public_text, f"throw {k} in the transcript"


def openings_of(conn: Conn) -> list[dict[str, Any]]:
    """Every opening a connection received, as its page keeps them."""
    return [o for m in conn.messages for o in m.get("openings", [])]


@dataclass
class Frames:
    """Messages not from a connection (a replay's frames), read by `check_messages` as the
    messages of one connection of `seat`."""

    seat: int | None
    messages: list[dict[str, Any]] = field(default_factory=list)


def example(name: str) -> Any:
    """A script of examples/ loaded as a module (examples/ is not a package)."""
    path = Path(__file__).resolve().parents[2] / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
