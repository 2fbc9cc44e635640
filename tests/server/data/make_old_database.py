"""Writes old_database.sqlite (and old_database.json, the seats' tokens): a database as
the server wrote it before schema migrations, for tests/server/test_migrations.py.

Run once with that server's code (it needs nothing of the newer one):

    git archive <commit before migrations> | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src:/tmp/old .venv/bin/python tests/server/data/make_old_database.py

It holds, for each of the four games, a table in play waiting for its person's
move (bots in the other seats, a move made, a chat message), a finished
table, and a table waiting for its second player.
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from pathlib import Path

from tests.server.helpers import Conn, create, drive, receive, running

HERE = Path(__file__).parent
GAMES = ("tepiiku", "toplshteyner", "tao", "kariki")


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    db = folder / "old.sqlite"
    rng = random.Random(2026)
    seats: dict[str, dict[str, object]] = {}
    with running(db, None) as client:
        for gid in GAMES:
            info = next(g for g in client.get("/api/games").json() if g["id"] == gid)
            bot = info["bots"][0]
            n = info["default_seats"]
            tid = None
            while tid is None:  # a game that ended within its first moves is tried again
                table = create(client, gid, bots={s: bot for s in range(1, n)}, listed=False)
                tid = table["table_id"]
                with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
                    m, moves = receive(ws), 0
                    while m.get("status") != "over":
                        if m["type"] in ("welcome", "update") and m["legal"]:
                            if moves == 1:
                                break
                            choice = rng.choice(m["legal"])["action"]
                            ws.send_json({"type": "action", "step": m["step"], "action": choice})
                            moves += 1
                        m = receive(ws)
                    if m.get("status") == "over":
                        tid = None
                        continue
                    ws.send_json({"type": "chat", "text": f"good luck at {gid}"})
                    while receive(ws)["type"] != "chat":
                        pass
            seats[gid] = {"table_id": tid, "token": table["token"], "seat": 0}
        done = create(client, "kariki", seats=2, bots={1: "heuristic"})
        with client.websocket_connect(f"/ws/tables/{done['table_id']}?token={done['token']}") as ws:
            drive([Conn(ws, 0)], rng)
        seats["finished"] = {"table_id": done["table_id"], "token": done["token"], "seat": 0}
        waiting = create(client, "tao", seats=2)
        seats["waiting"] = {
            "table_id": waiting["table_id"],
            "room": waiting["room"],
            "token": waiting["token"],
            "seat": 0,
        }
    shutil.copy(db, HERE / "old_database.sqlite")
    (HERE / "old_database.json").write_text(json.dumps(seats, indent=2) + "\n")


if __name__ == "__main__":
    main()
