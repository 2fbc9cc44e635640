"""A small on-disk cache for tables that take seconds to compute and depend only on code.

A table is stored as JSON under a name, with a key computed from the source
files it is derived from (`source_key`): changing those files (a rule, the
solver) changes the key, so a stale table is never read. The cache lives in
$DICEHALL_CACHE, else $XDG_CACHE_HOME/dicehall, else ~/.cache/dicehall;
DICEHALL_CACHE=off turns it off. The cache is an optimisation only: a
missing, unreadable or unwritable cache means the table is computed again.
JSON rather than pickle, so a file in a shared folder cannot run code.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def cache_dir() -> Path | None:
    """Where tables are kept, or None when the cache is turned off."""
    explicit = os.environ.get("DICEHALL_CACHE")
    if explicit is not None:
        return None if explicit.strip().lower() in ("", "off", "0", "no") else Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dicehall"


def source_key(*files: str | Path) -> str:
    """A key for tables derived from these source files (usually modules' __file__)."""
    digest = hashlib.sha256()
    for file in files:
        digest.update(Path(file).read_bytes())
    return digest.hexdigest()[:20]


def source_key_of(text: str) -> str:
    """A short key for a table's parameters (its options, say), to name its file by."""
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def load(name: str, key: str) -> Any | None:
    """The table stored under `name` for `key`, or None."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        data = json.loads((folder / f"{name}.json").read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    return data.get("table")


def save(name: str, key: str, table: Any) -> None:
    """Store a JSON-able table under `name` for `key`, atomically; failures are ignored."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", dir=folder, prefix=f".{name}.", suffix=".tmp", delete=False
        ) as f:
            json.dump({"key": key, "table": table}, f)
        os.replace(f.name, folder / f"{name}.json")
    except OSError:
        return
