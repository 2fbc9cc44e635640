"""Several server processes serving one site, on one PostgreSQL and one Redis.

`dicehall serve --db postgresql+psycopg://... --redis redis://...` makes the
process a node of the site named by that Redis. Any number of nodes, on any
machines, serve the same tables behind one address:

lease.py    which node owns a table: a lease in Redis, renewed, lapsing when its owner dies
node.py     this node: renewing, taking over lapsed tables, handing them over on SIGTERM
bus.py      messages between nodes over Redis pub/sub
forward.py  requests about a table go to its owner (HTTP forwarded, the lobby gathered)
relay.py    a WebSocket whose client is on one node and whose table is on another
seats.py    quick match and bots' seats over the whole site

Without `--redis` none of this is imported and the server is the one process
of docs/contributors/server.md. See docs/operators/several-processes.md.

Imports tables/ (the hall, its tables) and ops/; nothing of people/ or http/:
http/app.py hands a node the app it forwards to (`Node.app`). Within the group:
bus.py and lease.py import no sibling, relay.py imports bus.py, seats.py none,
forward.py those three, node.py all of them.
"""
