"""The HTTP and WebSocket surface: the FastAPI app and everything a client reaches.

app.py           create_app: every group wired into one app; the page (server/web/) at /
answers.py       what every route answers with: its documented errors, a seat's grant
api.py           the tables' REST endpoints under /api: games, tables, rooms, odds, verify
account_api.py   /api/account, and who a request comes from (sessions, guests)
quickmatch.py    POST /api/quickmatch
bots.py          POST /api/bots/sit, for bots from outside
claims.py        POST /api/tables/{id}/claim
replay.py        GET /api/tables/{id}/replay and POST /api/replay
profiles.py      players' pages, leaderboards, a finished game's record
sockets.py       the WebSocket protocol at /ws/tables/{id}
health.py        /healthz, /readyz and /metrics
warmup.py        work done once at start-up so that no request does it
commands.py      `dicehall serve` and `dicehall verify`, as the CLI calls them

The top group: it may import every other (cluster/ only with --redis, inside
create_app), and nothing in the server imports it but dicehall.server's lazy
`create_app`. commands.py imports the web stack only when it serves: `dicehall
verify` runs without the server extra.
"""
