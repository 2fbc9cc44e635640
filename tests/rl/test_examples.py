"""The three examples under examples/ run, each on a tiny budget."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).parent.parent.parent / "examples"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_pettingzoo_tournament_runs() -> None:
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    results = load("pettingzoo_tournament").main(["--game", "kariki", "--games", "5"])
    assert set(results) == {f"seat_{s}" for s in range(4)}
    assert sum(mean for mean, _ in results.values()) == pytest.approx(0.0, abs=1e-9)


def test_the_openspiel_cfr_example_runs() -> None:
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    eps = load("openspiel_cfr_kariki").main(["--iterations", "1"])
    assert 0 <= eps < 1


def test_the_masked_ppo_example_runs() -> None:
    pytest.importorskip(
        "sb3_contrib",
        reason="sb3-contrib (and PyTorch) are not installed: `pip install '.[train]'`; "
        "make test leaves them out as too heavy for CI",
    )
    results = load("ppo_kariki").main(["--timesteps", "256", "--eval", "3"])
    assert set(results) == {"masked PPO", "random"}


def test_the_train_extra_holds_what_the_ppo_example_imports() -> None:
    """examples/ppo_kariki.py says `pip install 'dicehall[train]'`: that extra exists."""
    import re
    import tomllib

    root = EXAMPLES.parent
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    names = {re.split(r"[<>=\[ ]", r)[0] for r in extras["train"]}
    assert {"sb3-contrib", "stable-baselines3", "dicehall"} <= names
    assert "'dicehall[train]'" in (EXAMPLES / "ppo_kariki.py").read_text()
    # every other extra is locked; train, which brings PyTorch, is not (CI installs the lock)
    locked = re.search(r"LOCKED_EXTRAS := \$\(foreach e,([^,]*),", (root / "Makefile").read_text())
    assert locked is not None
    assert set(locked.group(1).split()) == set(extras) - {"train"}
