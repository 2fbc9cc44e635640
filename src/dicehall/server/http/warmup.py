"""Work the server does once at start-up so that no request does it on the event loop.

Some things are done the first time they are needed: FastAPI builds an included
router's routes (their parameter models) when a request first walks past them,
and a game imports its labels (`render.py`, which imports Rich) at the first
label asked for, in the first seat's welcome. Either is a few tens of ms of CPU
at once on the event loop, which a loaded machine stretches to several hundred
ms during which no table moves and no ping is answered (measured with
benchmarks/server_load.py: one spectator ping of 165-700 ms at the start of
every run). Doing them in the lifespan, before the server accepts anyone, costs
nobody a wait.
"""

from __future__ import annotations

import random

from fastapi import FastAPI

from dicehall.core.chance import random_faces
from dicehall.server.tables.catalog import Catalog

CHANCE_STEPS = 100  # throws to pass before a game's first decision (each game needs a few)


def warm_routes(app: FastAPI) -> None:
    """Have FastAPI build every route's request handling now: a path that no route serves
    walks them all (over HTTP and WebSocket), and the answers to it are thrown away."""
    for kind in ("http", "websocket"):
        for route in app.router.routes:
            route.matches({"type": kind, "path": "/\0", "method": "GET", "headers": []})


def warm_games(catalog: Catalog) -> None:
    """Label every legal action of each game's first decision, as a welcome does, so
    that whatever a label needs is imported now."""
    rng = random.Random(0)
    for gid in catalog.ids():
        game = catalog.game_class(gid)()
        state = game.new_state()
        for _ in range(CHANCE_STEPS):
            if state.is_over() or not state.is_chance():
                break
            state.apply_chance(random_faces(state.chance_dice(), rng.random))
        if state.is_over() or state.is_chance() or not state.actors():
            continue
        seat = state.actors()[0]
        view = state.view(seat)
        for action in state.legal_actions(seat):
            game.choice_label(view, action)
