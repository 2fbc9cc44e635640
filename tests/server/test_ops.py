"""Health, readiness and metrics of one server process (server/http/health.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from dicehall.server import create_app
from tests.server.helpers import Conn, create, drive, running


def samples(text: str) -> dict[str, float]:
    """Every sample of a Prometheus text page, by name and labels."""
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            out[f"{s.name}{{{labels}}}" if labels else s.name] = s.value
    return out


def test_health_readiness_and_metrics_follow_a_game(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        assert client.get("/readyz").json() == {"status": "ready"}
        page = client.get("/metrics")
        assert page.headers["content-type"].startswith("text/plain")
        before = samples(page.text)
        assert before["dicehall_tables{status=playing}"] == 0
        assert before["dicehall_moves_total"] == 0
        table = create(client, "duel", bots={1: "random"})
        url = f"/ws/tables/{table['table_id']}?token={table['token']}"
        with client.websocket_connect(url) as ws:
            conn = Conn(ws, 0)
            conn.read_until("welcome")
            during = samples(client.get("/metrics").text)
            assert during["dicehall_tables{status=playing}"] == 1
            assert during["dicehall_seats"] == 1
            assert during["dicehall_connections"] == 1
            drive([conn], random.Random(3))
        after = samples(client.get("/metrics").text)
    steps = len(client.get(f"/api/tables/{table['table_id']}/transcript").json()["steps"])
    moves = after["dicehall_moves_total"]
    assert 0 < moves < steps  # every seat's move (the bot's too), never a throw of the dice
    assert after["dicehall_move_seconds_count"] == moves
    assert after["dicehall_tables{status=over}"] == 1
    assert after["dicehall_moves_per_second"] >= 0
    assert after["dicehall_store_errors_total"] == 0
    assert after["dicehall_bus_errors_total"] == 0


def test_readiness_names_what_is_down(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with running(tmp_path / "db.sqlite") as client:
        store = client.app.state.hall.store  # type: ignore[attr-defined]

        def gone() -> None:
            raise OSError("connection refused")

        monkeypatch.setattr(store, "ping", gone)
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert answer.json()["failed"] == {"database": "failed: OSError"}
        assert client.get("/healthz").status_code == 200


def test_several_processes_need_postgresql(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="share one PostgreSQL database"):
        create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", redis_url="redis://127.0.0.1:1/0")
