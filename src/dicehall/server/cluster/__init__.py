"""Several server processes serving one site, on one PostgreSQL and one Redis.

`dicehall serve --db postgresql+psycopg://... --redis redis://...` makes the
process a node of the site named by that Redis. Any number of nodes, on any
machines, serve the same tables behind one address:

lease.py    which node owns a table: a lease in Redis, renewed, lapsing when its owner dies
node.py     this node: renewing, taking over lapsed tables, handing them over on SIGTERM
bus.py      messages between nodes over Redis pub/sub
forward.py  requests about a table go to its owner (HTTP forwarded, the lobby gathered)
relay.py    a WebSocket whose client is on one node and whose table is on another

Without `--redis` none of this is imported and the server is the one process
of docs/server.md. See docs/server.md, "Several processes".
"""

from __future__ import annotations

from dicehall.server.cluster.forward import Router
from dicehall.server.cluster.node import ClusterError, Node

__all__ = ["ClusterError", "Node", "Router"]
