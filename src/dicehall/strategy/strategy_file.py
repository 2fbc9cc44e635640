"""Strategy files: a solved policy on disk, versioned, checksummed, tied to its game.

A strategy file is a NumPy `.npz` archive (zip, compressed) of named arrays
plus one JSON header. The header says the format and its version, the game,
the seat count and the options the strategy was solved for, free-form `meta`
(iterations, exploitability, how the arrays are laid out), and a SHA-256
checksum over the header and every array's name, dtype, shape and bytes.

`load` refuses, with a message naming what is wrong, a file that is not a
strategy file, has another format version, fails its checksum, or was solved
for another game, seat count or options: a policy for `pull=at-least` played
at an `exact` table would be quietly wrong.

NumPy is imported only where arrays are read, written or checksummed: the
names and folders of strategy files (`data_dir`) cost a command nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dicehall.core import DicehallError

if TYPE_CHECKING:
    import numpy.typing as npt

FORMAT = "dicehall-strategy"
VERSION = 1
HEADER = "header"


def data_dir() -> Path:
    """Where solved strategies are kept: $DICEHALL_STRATEGIES, else
    $XDG_DATA_HOME/dicehall/strategies (by default ~/.local/share/dicehall/strategies)."""
    override = os.environ.get("DICEHALL_STRATEGIES")
    if override:
        return Path(override)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "dicehall" / "strategies"


class StrategyFileError(DicehallError):
    """A strategy file that is unreadable, corrupt, or for another game or options."""


@dataclass
class StrategyFile:
    """A solved policy and what it was solved for, so that a file is never read for another
    game or other options."""

    game: str
    seats: int
    options: dict[str, Any]
    """The options the strategy depends on (those that change the game solved)."""
    arrays: dict[str, npt.NDArray[Any]]
    meta: dict[str, Any] = field(default_factory=dict)

    def header(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "seats": self.seats,
            "options": self.options,
            "meta": self.meta,
        }

    def checksum(self) -> str:
        import numpy as np

        digest = hashlib.sha256(json.dumps(self.header(), sort_keys=True).encode())
        for name in sorted(self.arrays):
            a = np.ascontiguousarray(self.arrays[name])
            digest.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
            digest.update(a.tobytes())
        return digest.hexdigest()

    def check(self, game: str, seats: int, options: Mapping[str, Any]) -> None:
        """Refuse this strategy for another game, seat count or options."""
        want = {"game": game, "seats": seats, "options": dict(options)}
        have = {"game": self.game, "seats": self.seats, "options": self.options}
        for key in ("game", "seats", "options"):
            if want[key] != have[key]:
                raise StrategyFileError(
                    f"this strategy was solved for {key} {have[key]!r}, not {want[key]!r}"
                )


def save(path: Path, strategy: StrategyFile, lzma: bool = False) -> None:
    """Write a strategy as a compressed `.npz` with its JSON header and checksum (no pickles).

    With `lzma` the archive's members are LZMA-compressed rather than deflated:
    a third smaller for Tao Dice's shipped policy, read back by `load` (NumPy's
    `np.load` reads any zip member Python's `zipfile` does) in about twice the time.
    """
    import numpy as np

    header = {**strategy.header(), "checksum": strategy.checksum()}
    blob = np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {HEADER: blob, **strategy.arrays}
    if not lzma:
        with path.open("wb") as f:
            np.savez_compressed(f, allow_pickle=False, **arrays)
        return
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_LZMA) as archive:
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)


def file_sha256(path: Path) -> str:
    """The file's SHA-256, read in blocks: a shipped strategy is checked against the digest
    recorded beside it before it is trusted."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_shipped(path: Path, sha256: str) -> None:
    """Refuse a file shipped in the package whose bytes are not the ones measured and
    documented (a damaged install, or a file edited or swapped behind the docs' back)."""
    try:
        found = file_sha256(path)
    except OSError as e:
        raise StrategyFileError(f"cannot read the shipped file {path}: {e}") from None
    if found != sha256:
        raise StrategyFileError(
            f"the shipped file {path} fails its SHA-256 checksum (expected {sha256[:16]}..., "
            f"found {found[:16]}...): the install is damaged; reinstall dicehall"
        )


def load(
    path: Path,
    game: str | None = None,
    seats: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> StrategyFile:
    """Read and verify a strategy file; with game, seats and options, check it is for them."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except FileNotFoundError:
        raise StrategyFileError(f"no strategy file at {path}") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise StrategyFileError(f"{path} is not a strategy file: {e}") from None
    blob = arrays.pop(HEADER, None)
    try:
        header = json.loads(bytes(blob).decode()) if blob is not None else None
    except (UnicodeDecodeError, ValueError):
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise StrategyFileError(f"{path} is not a dicehall strategy file (no header)")
    if header.get("version") != VERSION:
        raise StrategyFileError(
            f"{path} has strategy format version {header.get('version')!r}; "
            f"this dicehall reads version {VERSION}"
        )
    strategy = StrategyFile(
        game=header["game"],
        seats=header["seats"],
        options=header["options"],
        arrays=arrays,
        meta=header.get("meta", {}),
    )
    if strategy.checksum() != header.get("checksum"):
        raise StrategyFileError(f"{path} fails its checksum: the file is damaged or was edited")
    if game is not None and seats is not None and options is not None:
        strategy.check(game, seats, options)
    return strategy
