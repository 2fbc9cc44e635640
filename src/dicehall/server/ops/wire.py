"""Messages to clients as JSON text, made with orjson: every step sends one message per
seat (and per spectator), and the standard library's encoder was the largest single
cost of a move after the socket writes themselves."""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(message: Any) -> str:
    """`json.dumps(message)` as compact text; what orjson refuses (an integer beyond 64
    bits) falls back to the standard encoder."""
    try:
        return orjson.dumps(message, option=_OPTIONS).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"))
