"""A complete dicehall bot that plays from outside the server (docs/bots.md).

It asks the server for a seat with its bot token (`dicehall bot-token NAME` issues one),
then plays that seat over the same WebSocket as a player's page: on every "welcome" or
"update" that lists legal actions it answers one of them, naming the step it answers.
This one picks at random; put your strategy in `choose`.

    python examples/bot_client.py --server http://127.0.0.1:8000 --token TOKEN --games 3
"""

from __future__ import annotations

import argparse
import json
import random
import time
import urllib.error
import urllib.request
from typing import Any

from websockets.sync.client import connect


def choose(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The bot's decision: one of the legal actions, sent back as is."""
    action: dict[str, Any] = random.choice(legal)["action"]
    return action


def sit(server: str, bot_token: str, game: str | None = None) -> dict[str, Any] | None:
    """A seat at a table that waits for a bot from outside, or None when none waits."""
    request = urllib.request.Request(
        f"{server}/api/bots/sit",
        data=json.dumps({"game": game}).encode(),
        headers={"Authorization": f"Bearer {bot_token}", "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            seat: dict[str, Any] = json.load(answer)
            return seat
    except urllib.error.HTTPError as e:
        if e.code in (404, 429):  # nobody waits for a bot yet, or we asked too often
            return None
        raise


def play(server: str, table_id: str, token: str) -> dict[str, Any]:
    """Play one seat to the end of the game; the result."""
    url = f"{server.replace('http', 'ws', 1)}/ws/tables/{table_id}?token={token}"
    seat = None
    with connect(url) as ws:
        for text in ws:
            message = json.loads(text)
            if message["type"] == "welcome":
                seat = message["seat"]
            if message["type"] not in ("welcome", "update"):
                if message["type"] == "over":
                    result: dict[str, Any] = message["result"]
                    return result
                continue
            step = message["step"]
            if seat is not None and message.get("throw_due") == seat:  # our own throw
                ws.send(json.dumps({"type": "throw", "step": step}))
            elif message["legal"]:
                action = choose(message["view"], message["legal"])
                ws.send(json.dumps({"type": "action", "step": step, "action": action}))
    raise ConnectionError("the server closed the connection before the game ended")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="the bot token from dicehall bot-token")
    parser.add_argument("--game", default=None, help="only tables of this game")
    parser.add_argument("--games", type=int, default=1, help="how many games to play")
    args = parser.parse_args()
    for _ in range(args.games):
        seat = sit(args.server, args.token, args.game)
        while seat is None:
            time.sleep(2)
            seat = sit(args.server, args.token, args.game)
        result = play(args.server, seat["table_id"], seat["token"])
        print(f"{seat['game']} table {seat['table_id']}, seat {seat['seat']}: {result}")


if __name__ == "__main__":
    main()
