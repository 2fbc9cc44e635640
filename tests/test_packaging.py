"""The package as installed: the lock agrees with the ranges, one version, the extras split.

The locks are requirements.lock (the tested set, every supported Python and
platform) and requirements-lowest.lock (every direct dependency at its lower
bound, which CI also runs the suite on). `make lock` writes both from
pyproject.toml; these tests fail when someone edits a range and forgets it.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version
from typer.testing import CliRunner

import dicehall
from dicehall.cli import app
from dicehall.server import SERVER_MODULES

ROOT = Path(__file__).parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", re.M)


UNLOCKED_EXTRAS = {"train"}
"""Extras that `make lock` leaves out (the Makefile's LOCKED_EXTRAS): train brings PyTorch."""


def direct_requirements() -> list[Requirement]:
    """Every dependency pyproject.toml names, of the core and of every locked extra."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = list(project["dependencies"])
    for name, extra in project["optional-dependencies"].items():
        if name not in UNLOCKED_EXTRAS:
            listed += extra
    reqs = [Requirement(r) for r in listed]
    return [r for r in reqs if canonicalize_name(r.name) != "dicehall"]


def pins(lock: str) -> dict[str, list[Version]]:
    found: dict[str, list[Version]] = {}
    for name, version in PIN.findall((ROOT / lock).read_text()):
        found.setdefault(canonicalize_name(name), []).append(Version(version))
    return found


@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-lowest.lock"])
def test_every_pin_of_a_direct_dependency_lies_in_its_range(lock: str) -> None:
    pinned = pins(lock)
    for req in direct_requirements():
        versions = pinned.get(canonicalize_name(req.name))
        assert versions, f"{lock} has no pin for {req}: run `make lock`"
        for v in versions:
            assert req.specifier.contains(v, prereleases=True), (
                f"{lock} pins {req.name}=={v}, outside {req}: run `make lock`"
            )


def test_the_builds_mypyc_is_the_locked_mypy() -> None:
    """A wheel's compiled rules come from the mypy the suite ran them with (setup.py)."""
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    (mypy,) = [Requirement(r) for r in requires if Requirement(r).name == "mypy"]
    assert str(mypy.specifier).startswith("=="), f"the build's {mypy} must be pinned"
    locked = pins("requirements.lock")["mypy"]
    assert [Version(str(mypy.specifier)[2:])] == locked, (
        f"the build pins {mypy}, requirements.lock has mypy {locked}: pin the same one"
    )


def test_the_lowest_lock_holds_every_lower_bound() -> None:
    """The lower bounds are tested: CI runs the suite on exactly these versions."""
    pinned = pins("requirements-lowest.lock")
    for req in direct_requirements():
        lower = [Version(s.version) for s in req.specifier if s.operator in (">=", "==")]
        assert lower, f"{req} has no lower bound"
        assert pinned[canonicalize_name(req.name)] == [max(lower)], (
            f"requirements-lowest.lock pins {req.name} at {pinned[canonicalize_name(req.name)]},"
            f" not at its lower bound {max(lower)}: run `make lock`, or raise the bound"
        )


def test_every_lock_pin_has_hashes() -> None:
    for lock in ("requirements.lock", "requirements-lowest.lock"):
        text = (ROOT / lock).read_text()
        entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])
        for entry in entries:
            if PIN.match(entry):
                assert "--hash=sha256:" in entry, f"{lock}: no hash for {entry.splitlines()[0]}"


def test_version_is_the_package_metadata_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"dicehall {importlib.metadata.version('dicehall')}"
    assert dicehall.__version__ == importlib.metadata.version("dicehall")


BLOCK_SERVER = f"""
import sys
for name in {SERVER_MODULES!r}:
    sys.modules[name] = None  # as if the server extra were not installed
"""


def run_without_server_extra(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCK_SERVER + code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_core_commands_and_env_need_no_server_extra() -> None:
    done = run_without_server_extra(
        "import dicehall.rl.env, dicehall.cli, dicehall.server.tables.fairness\n"
        "from dicehall.cli import main\n"
        "main(['sim', 'kariki', '--games', '2', '--seed', '1', '--json'])\n"
    )
    assert done.returncode == 0, done.stderr
    assert '"games": 2' in done.stdout


def test_serve_without_the_server_extra_says_what_to_install() -> None:
    done = run_without_server_extra("from dicehall.cli import main\nmain(['serve'])\n")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "pip install 'dicehall[server]'" in lines[0]


def test_shell_completion_is_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # Typer guesses the shell from the processes above this one, and finds none under a
    # detached runner: the shell is named here instead, as a user's `--show-completion
    # bash` names it where the guess fails.
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    result = CliRunner().invoke(app, ["--show-completion", "bash"], prog_name="dicehall")
    assert result.exit_code == 0
    assert "_dicehall_completion" in result.output
    assert "--install-completion" in CliRunner().invoke(app, ["--help"]).output
