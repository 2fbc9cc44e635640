"""Where the two-seat Tao Dice strategy lives: shipped in the package, checked on loading.

The solved strategy is large (stage two has a policy per stage-one ending,
d12 pair and hand at every position: 140 million chances, one byte each), but
it compresses to 6.4 MB (LZMA), so it ships beside this module
(`strategies/`), checked against `SHIPPED_SHA256` when it is read: the bot
plays at strength from the install on. `dicehall solve tao` solves it again
(tens of minutes, with a progress bar) into the user's data directory
(`$DICEHALL_STRATEGIES`, else `$XDG_DATA_HOME/dicehall/strategies`, else
`~/.local/share/...`), which is read only where the package has none. Chances
are stored as 8-bit fractions; the figures in docs/researchers/tao.md are
measured on the stored policy, which is what the bot plays. No option changes
the strategy: every game length and opener rule plays the same match (see
docs/researchers/tao.md), so there is one file, tied to `MODEL_VERSION`.

NumPy and the solver are imported only where arrays are read or written, so
that a command can ask whether the strategy is solved (`path`), or key a
cached table by its file, without them.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from dicehall.strategy.strategy_file import StrategyFile, check_shipped, data_dir, load, save

if TYPE_CHECKING:
    import numpy as np

    from dicehall.games.tao.solver.solve import Policy, Solved

MODEL_VERSION = 1
"""Bumped whenever the round model or the solver changes what a strategy means."""
FILE_NAME = f"tao-2-v{MODEL_VERSION}.npz"


ITERATIONS = 80
"""CFR+ iterations of the longest sweep of `dicehall solve tao`: its sweeps are 10, 20, 40
and 80 iterations (`PER_SWEEP`, `SWEEPS`), 150 in all, exploitable by under 0.03%."""
PER_SWEEP = 10
SWEEPS = 4
QUANTUM = 255

SHIPPED = Path(__file__).parent / "strategies"
SHIPPED_SHA256 = "6c5dc40399499ac4c864fd362b28764ec05288712327586cb62218feddb0ea0d"
"""The shipped file's bytes, as measured (docs/researchers/tao.md): 150 CFR+ iterations,
exploitable by 0.024% of a token game's win probability."""


def path() -> Path:
    """Where `dicehall solve tao` writes the strategy (the user's data directory)."""
    return data_dir() / FILE_NAME


def found_path() -> Path | None:
    """The file the bot reads: the package's, else one solved into the data directory."""
    for where in (SHIPPED / FILE_NAME, path()):
        if where.exists():
            return where
    return None


def _quantise(chances: np.ndarray) -> np.ndarray:
    import numpy as np

    return np.rint(np.asarray(chances, dtype=np.float32) * QUANTUM).astype(np.uint8)


def _restore(stored: np.ndarray) -> np.ndarray:
    """8-bit chances back to chances summing to one over each node's slots (axis 1)."""
    import numpy as np

    raw = stored.astype(np.float32)
    total = raw.sum(1, keepdims=True)
    uniform = np.float32(1 / 3)
    return np.where(total > 0, raw / np.where(total > 0, total, 1), uniform).astype(np.float32)


def to_file(solved: Solved, meta: Mapping[str, object]) -> StrategyFile:
    import numpy as np

    policy = solved.policy
    arrays = {
        "stage1": _quantise(policy.stage1),
        "stage2": _quantise(policy.stage2),
        "ante_o": policy.ante_o.astype(np.float32),
        "ante_x": policy.ante_x.astype(np.float32),
        "values": solved.values.astype(np.float64),
    }
    return StrategyFile("tao", 2, {}, arrays, {"model_version": MODEL_VERSION, **meta})


class Strategy:
    """A loaded strategy: 8-bit chances as stored (what the bot reads), antes, match values."""

    def __init__(
        self,
        stage1: np.ndarray,
        stage2: np.ndarray,
        ante_o: np.ndarray,
        ante_x: np.ndarray,
        values: np.ndarray,
    ) -> None:
        import numpy as np

        self.stage1 = stage1
        self.stage2 = stage2
        self.ante_o = ante_o.astype(np.float64)
        self.ante_x = ante_x.astype(np.float64)
        self.values = values.astype(np.float64)

    @classmethod
    def of_file(cls, file: StrategyFile) -> Strategy:
        if file.meta.get("model_version") != MODEL_VERSION:
            from dicehall.strategy.strategy_file import StrategyFileError

            raise StrategyFileError(
                f"this Tao Dice strategy is for model version {file.meta.get('model_version')}, "
                f"not {MODEL_VERSION}: solve it again (dicehall solve tao)"
            )
        a = file.arrays
        return cls(a["stage1"], a["stage2"], a["ante_o"], a["ante_x"], a["values"])

    def chunk(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """Positions lo..hi's chances as floats (node-major, as `Policy.chunk`)."""
        import numpy as np

        return (
            _restore(self.stage1[:, :, lo:hi]).astype(np.float64),
            _restore(self.stage2[:, :, lo:hi]).astype(np.float64),
        )

    @cached_property
    def policy(self) -> Policy:
        """The whole policy as floats (half a gigabyte): for exact best responses."""
        from dicehall.games.tao.solver.solve import Policy

        return Policy(_restore(self.stage1), _restore(self.stage2), self.ante_o, self.ante_x)


def save_solved(solved: Solved, where: Path, meta: Mapping[str, object]) -> Strategy:
    file = to_file(solved, meta)
    save(where, file)
    return Strategy.of_file(load(where, "tao", 2, {}))


def stored() -> Strategy | None:
    """The strategy, shipped or solved; never solves."""
    where = found_path()
    return _load(where) if where is not None else None


@cache
def _load(where: Path) -> Strategy:
    if where.parent == SHIPPED:
        check_shipped(where, SHIPPED_SHA256)
    return Strategy.of_file(load(where, "tao", 2, {}))
