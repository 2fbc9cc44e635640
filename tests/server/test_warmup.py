"""Start-up does the once-only work that would otherwise stall the event loop at the
first request (server/http/warmup.py): the routes are built, and the games' labels imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import fastapi.routing
import pytest

from tests.server.helpers import create, running

LABELS_IMPORT_NOTHING = """
import random, sys
from dicehall.core.chance import random_faces
from dicehall.server.tables.catalog import Catalog
from dicehall.server.http.warmup import warm_games

catalog = Catalog()
warm_games(catalog)
before = set(sys.modules)
rng = random.Random(1)
for gid in catalog.ids():  # a few games of each, every legal action labelled as a welcome does
    game = catalog.game_class(gid)()
    for _ in range(3):
        state = game.new_state()
        for _ in range(300):
            if state.is_over():
                break
            if state.is_chance():
                state.apply_chance(random_faces(state.chance_dice(), rng.random))
                continue
            seat = state.actors()[0]
            view = state.view(seat)
            legal = state.legal_actions(seat)
            for action in legal:
                game.choice_label(view, action)
            state.apply(seat, rng.choice(list(legal)))
print(sorted(set(sys.modules) - before))
"""


def test_labels_import_nothing_after_warm_up() -> None:
    """A fresh process: after warm_games, labelling every game's actions imports nothing
    (an import at a welcome ran on the event loop: Kariki's render.py and Rich, ~50 ms)."""
    done = subprocess.run(
        [sys.executable, "-c", LABELS_IMPORT_NOTHING],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.strip() == "[]", done.stdout


def test_routes_are_built_before_the_first_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After start-up no request makes FastAPI build a route's parameter models."""
    built: list[Any] = []
    real = fastapi.routing.create_model_field

    def counting(*args: Any, **kw: Any) -> Any:
        built.append(args)
        return real(*args, **kw)

    with running(tmp_path / "db.sqlite") as client:
        monkeypatch.setattr(fastapi.routing, "create_model_field", counting)
        assert client.get("/api/games").status_code == 200
        made = create(client, "duel")
        with client.websocket_connect(f"/ws/tables/{made['table_id']}") as ws:
            assert ws.receive_json()["type"] == "welcome"
    assert built == []
