"""Provably fair dice: commitment before, seed after, and verify catching tampering."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from dicehall.core.chance import D6, derive_faces
from dicehall.games import game_ids
from dicehall.server.http.commands import verify
from dicehall.server.tables.catalog import Catalog
from dicehall.server.tables.fairness import verify_transcript
from tests.server.helpers import Conn, create, drive, running
from tests.toy_game import GAMES

MAKE = Catalog(GAMES).make


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    db = tmp_path_factory.mktemp("fair") / "db.sqlite"
    with running(db) as client:
        table = create(client, "duel", seats=3, bots={1: "random", 2: "random"}, fairness="seed")
        tid = table["table_id"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            drive([Conn(ws, 0)], random.Random(5))
        data: dict[str, Any] = client.get(f"/api/tables/{tid}/transcript").json()
        assert client.get(f"/api/tables/{tid}/verify").json()["ok"]
        assert client.get(f"/api/tables/{tid}").json()["seed"] == data["seed"]
    assert table["commitment"] == data["commitment"]
    return data


def test_seed_opens_the_commitment_and_gives_every_throw(finished: dict[str, Any]) -> None:
    seed = bytes.fromhex(finished["seed"])
    assert hashlib.sha256(seed).hexdigest() == finished["commitment"]
    throws = [s["chance"] for s in finished["steps"] if "chance" in s]
    dice = (D6,) * 3  # every Duel throw at three seats: one die each
    assert throws == [list(derive_faces(seed, k, dice)) for k in range(len(throws))]
    report = verify_transcript(finished, MAKE)
    assert report == {
        "ok": True,
        "game": "duel",
        "fairness": "seed",
        "commitment": finished["commitment"],
        "steps": len(finished["steps"]),
        "throws": len(throws),
        "error": None,
        "step": None,
        "words": f"the dice were fair: all {len(throws)} throws follow from the seed the "
        "server promised before the game",
        "explained": report["explained"],
    }
    assert set(report["explained"]) == {"promised", "checked", "secret"}


def tampered(data: dict[str, Any], change: Any) -> dict[str, Any]:
    copied = copy.deepcopy(data)
    change(copied)
    return verify_transcript(copied, MAKE)


def test_a_changed_throw_is_rejected_with_its_step(finished: dict[str, Any]) -> None:
    index = max(i for i, s in enumerate(finished["steps"]) if "chance" in s)

    def change(data: dict[str, Any]) -> None:
        faces = data["steps"][index]["chance"]
        faces[0] = faces[0] % 6 + 1

    report = tampered(finished, change)
    assert not report["ok"] and report["step"] == index
    assert report["error"].startswith(f"step {index}: throw ")


def test_a_changed_action_is_rejected_with_its_step(finished: dict[str, Any]) -> None:
    index = next(i for i, s in enumerate(finished["steps"]) if "action" in s)

    def change(data: dict[str, Any]) -> None:
        data["steps"][index]["action"] = {"type": "double"}

    report = tampered(finished, change)
    assert not report["ok"] and report["step"] == index and "may not play double" in report["error"]


def test_a_wrong_seed_result_or_cut_transcript_is_rejected(finished: dict[str, Any]) -> None:
    other_seed = tampered(finished, lambda d: d.update(seed="00" * 32))
    assert "does not hash to the commitment" in other_seed["error"]
    assert other_seed["step"] is None
    short_seed = tampered(finished, lambda d: d.update(seed="abcd"))
    assert "32 bytes" in short_seed["error"]
    no_seed = tampered(finished, lambda d: d.pop("seed"))
    assert "missing field 'seed'" in no_seed["error"]
    cut = tampered(finished, lambda d: d.update(steps=d["steps"][:-1], result=None))
    assert "does not end" in cut["error"]
    loser = next(s for s in range(3) if [s] != finished["result"]["winners"])
    result = tampered(finished, lambda d: d["result"].update(winners=[loser]))
    assert "differs from the replay" in result["error"]


@pytest.mark.skipif(not game_ids(), reason="no game installed")
def test_verify_command_reads_a_file(tmp_path: Path) -> None:
    gid = game_ids()[-1]
    cls = Catalog().game_class(gid)
    bot = next(iter(cls().bots()))
    with running(tmp_path / "db.sqlite", games=None) as client:
        table = create(client, gid, bots={s: bot for s in range(1, cls.default_seats)})
        tid = table["table_id"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            drive([Conn(ws, 0)], random.Random(9))
        data = client.get(f"/api/tables/{tid}/transcript").json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert verify(str(path))["ok"]
    throw = next(i for i, s in enumerate(data["steps"]) if "chance" in s)
    data["steps"][throw]["chance"] = [*data["steps"][throw]["chance"], 1]  # one die too many
    path.write_text(json.dumps(data))
    report = verify(str(path))
    assert not report["ok"] and report["step"] == throw
    path.write_text("{not json")
    assert verify(str(path))["error"].endswith(
        "is not JSON: Expecting property name enclosed in double quotes at line 1"
    )
