"""How deeply JSON nests, measured without recursion.

Python's own JSON reader and writer, `repr` and equality all recurse, so a value
nested a few hundred levels deep can end any of them in a RecursionError. Input
from outside (a transcript file, a WebSocket message) is measured with this first
and refused when deeper than anything the project writes.
"""

from __future__ import annotations

from typing import Any


def depth(value: Any, limit: int) -> int:
    """The nesting of lists and dicts in `value`; stops counting a little past `limit`."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level <= limit:
                children = item.values() if isinstance(item, dict) else item
                todo.extend((child, level + 1) for child in children)
    return deepest
