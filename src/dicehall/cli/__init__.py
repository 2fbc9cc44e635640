"""The dicehall command: play in the terminal, simulate, replay, odds, rules, serve.

One module per command group; importing this package registers them all on
`app`. Every command reaches the games through the registry and the core API
only, and turns bad input into one clear line on stderr and exit status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from dicehall.cli import bots, catalog, odds, play, ratings, serve, sim, strategy, transcripts
from dicehall.cli.common import app

__all__ = [
    "app",
    "bots",
    "catalog",
    "main",
    "odds",
    "play",
    "ratings",
    "serve",
    "sim",
    "strategy",
    "transcripts",
]


def main(argv: Sequence[str] | None = None) -> None:
    app(args=list(argv) if argv is not None else sys.argv[1:], prog_name="dicehall")
