"""The process: what it is told, how much each client may ask, and how it does slow work.

settings.py  every setting: DICEHALL_* variables, the config file, `dicehall serve`'s
             flags; ServerConfig, the knobs that are not per-client limits
limits.py    how much one client may create, join and ask (token buckets, 429)
workers.py   bounded pools of threads or processes that keep slow work off the
             event loop (503 past their cap)
compute.py   odds and advice, worked out in worker processes and cached
wire.py      the JSON text the server writes: messages to clients, stored steps

The bottom group: it imports nothing from tables/, people/, cluster/ or http/, and
every other group may import it. limits.py and workers.py need nothing of the
server extra (fair dice use workers.py, and `dicehall verify` runs without it).
"""
