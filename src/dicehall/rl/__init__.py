"""Training environments and the adapters for the libraries researchers use.

- `dicehall.rl.env`: dependency-free multi-agent and single-agent environments.
- `dicehall.rl.pettingzoo`, `dicehall.rl.gymnasium`: `pip install 'dicehall[rl]'`.
- `dicehall.rl.openspiel`: `pip install 'dicehall[openspiel]'`.

docs/researchers/environments.md has the tour.
"""
