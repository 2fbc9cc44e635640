"""`--ray`: duels, the ladder and Kariki's solves on Ray give what they give in one process.

The work is cut into chunks by the inputs alone and the chunks' results are
combined in order, so a run on Ray must equal the local run for the same
seed exactly. One Ray cluster (started here, two CPUs) serves the module.
"""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.cli import app
from dicehall.cluster import (
    INSTALL_HINT,
    ClusterError,
    Local,
    RayRunner,
    check_reachable,
    chunked,
    runner,
)
from dicehall.games import make_game
from dicehall.games.kariki.solver import solve as kariki
from dicehall.ratings import ladder
from dicehall.strategy.duel import duel

cli = CliRunner()


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[RayRunner]:
    ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'dicehall[cluster]'")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    try:
        yield RayRunner(ray)
    finally:
        ray.shutdown()


def test_duels_ladders_and_kariki_solves_on_ray_equal_the_local_runs(
    ray_cluster: RayRunner,
) -> None:
    """One test for everything on Ray, so parallel test workers start one cluster, not two."""
    a_duel(ray_cluster)
    the_duel_command()
    a_ladder(ray_cluster)
    kariki_chunks_and_exploitability(ray_cluster)


def a_duel(on_ray: RayRunner) -> None:
    game = make_game("kariki", 3)
    bots = ["heuristic", "random"]
    local = duel(game, bots, games=24, seed=7, runner=Local(), chunk_games=6)
    there = duel(game, bots, games=24, seed=7, runner=on_ray, chunk_games=6)
    assert there.to_json() == local.to_json()
    # how the games are cut into chunks changes nothing either
    assert duel(game, bots, games=24, seed=7).to_json() == local.to_json()


def the_duel_command() -> None:
    """`--ray` with no address, in a process already on Ray: the same JSON as without."""
    args = ["duel", "tao", "--bots", "heuristic,random", "--games", "12", "--seed", "3", "--json"]
    plain = cli.invoke(app, args)
    bare = cli.invoke(app, [*args[:2], "--ray", *args[2:]])
    assert plain.exit_code == bare.exit_code == 0, bare.output
    assert json.loads(bare.stdout) == json.loads(plain.stdout)


def a_ladder(on_ray: RayRunner) -> None:
    game = make_game("tepiiku", 3)
    local = [s.to_json() for s in ladder(game, ["heuristic", "random"], 110, seed=2).table()]
    there = ladder(game, ["heuristic", "random"], 110, seed=2, runner=on_ray)
    assert [s.to_json() for s in there.table()] == local


def kariki_chunks_and_exploitability(on_ray: RayRunner) -> None:
    game = make_game("kariki", 2)
    model = kariki.backward_of(game).model
    rng = np.random.default_rng(5)
    chunks = [
        kariki.CFRChunk(game, key, rng.random((9, len(model.trees[key].leaf_labels))), 3, None)
        for key in ((0, -1), (1, 4))
    ]
    here = list(Local().map(kariki.solve_chunk, chunks))
    there = list(on_ray.map(kariki.solve_chunk, chunks))
    for a, b in zip(here, there, strict=True):
        assert np.array_equal(a.policy, b.policy) and np.array_equal(a.value, b.value)
        assert (a.iterations, a.exploitability) == (b.iterations, b.exploitability)
    policies = {key: tree.uniform_policy(len(model.scores)) for key, tree in model.trees.items()}
    local = kariki.exploitability(model, policies)
    remote = kariki.exploitability(model, policies, runner=on_ray)
    assert (remote.exploitability, remote.best_response) == (
        local.exploitability,
        local.best_response,
    )
    assert 0 < local.exploitability < 0.5


@pytest.mark.slow
def test_a_whole_kariki_solve_on_ray_equals_the_local_one(ray_cluster: RayRunner) -> None:
    model = kariki.backward_of(make_game("kariki", 2)).model
    local = kariki.solve(model, iterations=1)
    on_ray = kariki.solve(model, iterations=1, runner=ray_cluster)
    assert np.array_equal(on_ray.values, local.values)
    assert on_ray.iterations == local.iterations
    for key, policy in local.policies.items():
        assert np.array_equal(on_ray.policies[key], policy), key


def test_without_ray_the_commands_say_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if not installed
    with pytest.raises(ClusterError, match=r"dicehall\[cluster\]"), runner("local"):
        pass
    for args in (
        ["duel", "kariki", "--bots", "heuristic,random", "--games", "4", "--ray"],
        ["ladder", "tao", "--games", "4", "--ray", "--json"],
        ["exploitability", "kariki", "--bot", "random", "--ray", "127.0.0.1:6379"],
        ["solve", "kariki", "--iterations", "1", "--ray"],
    ):
        result = cli.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.strip().splitlines() == [f"error: {INSTALL_HINT}"], args
    with runner(None) as run:  # and without --ray, nothing asks for Ray
        assert isinstance(run, Local)


def test_ray_takes_an_address_or_none(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    def fake_runner(address: str | None) -> Any:
        seen.append(address)
        return runner(None)

    monkeypatch.setattr("dicehall.cluster.runner", fake_runner)
    base = ["duel", "tao", "--bots", "heuristic,random", "--games", "2", "--json"]
    for extra, address in (
        ([], None),
        (["--ray"], "local"),
        (["--ray", "10.0.0.5:6379"], "10.0.0.5:6379"),
        (["--ray=auto"], "auto"),
    ):
        assert cli.invoke(app, [*base, *extra]).exit_code == 0
        assert seen.pop() == address
    assert cli.invoke(app, [*base[:2], "--ray", *base[2:]]).exit_code == 0
    assert seen.pop() == "local"


def test_an_address_nobody_listens_on_fails_at_once() -> None:
    with socket.socket() as probe:  # a port that was free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        with pytest.raises(ClusterError, match="cannot reach the Ray cluster"):
            check_reachable(address)
    check_reachable("auto")  # names that are not host:port are Ray's to resolve
    check_reachable("local")


def test_chunks_are_fixed_by_the_input() -> None:
    assert chunked(list(range(7)), 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert chunked([], 3) == []
    with pytest.raises(ValueError, match="at least one"):
        chunked([1], 0)
