"""Online tables: the game server (REST + WebSocket), its database and fair dice.

app.py       create_app: the FastAPI application
api.py       the REST endpoints under /api
sockets.py   the WebSocket protocol at /ws/tables/{id}
hall.py      every table the server holds: create, join, rematch, resume
live.py      one table in play: steps, persistence, bots, timers, broadcasts
store.py     the database (SQLAlchemy Core): table rows and ordered steps
fairness.py  fair dice (sealed and seed tables) and the verify report
catalog.py   the games a server offers
limits.py    how much one client may create and join
commands.py  `dicehall serve` and `dicehall verify`
"""

from dicehall.server.app import create_app

__all__ = ["create_app"]
