"""Start-up: bots sit down, cached odds read back and a Kariki solver bot makes its first
claim, without importing NumPy.

NumPy and the solvers cost about a tenth of a CPU second to import, more than
the rest of a command's start; they are imported at the first decision or
table that needs them (benchmarks/startup.py measures the cost). Each check
runs in a fresh interpreter, since this one has NumPy loaded already.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SIT_DOWN = """
import random
from dicehall.games import game_ids, make_game

for gid in game_ids():
    first = make_game(gid)
    for seats in sorted({first.min_seats, first.default_seats}):
        game = make_game(gid, seats)
        for name, bot in game.bots().items():
            bot(game, 0, random.Random(0))
            if gid != "toplshteyner":  # its tables are named by its NumPy model
                game.bot_warning(name)
"""

KARIKI_ODDS = """
from dicehall.games import make_game

make_game("kariki").odds({})
"""

# Five seats: with four seats in or fewer the solver plays the table bot's policies, a
# NumPy file read at the first decision (about 0.15 s, docs/researchers/kariki.md).
FIRST_CLAIM = """
import random
from dicehall.games import make_game
from dicehall.games.kariki.solver.bot import SolverBot

game = make_game("kariki", 5)
state = game.new_state()
for faces in ((6,), (1,), (2,), (3,), (4,)):
    state.apply_chance(faces)  # the roll-off: seat 0 begins
state.apply(0, state.legal_actions(0)[0])  # the direction
state.apply_chance((6, 4))
bot = SolverBot(game, 0, random.Random(0))
assert state.view(0)["phase"] == "claim"
bot.choose(state.view(0), state.legal_actions(0))
"""


def numpy_imported(code: str, cache: Path) -> bool:
    """Whether running `code` in a fresh interpreter imports NumPy."""
    probe = code + "\nimport sys\nprint('numpy' in sys.modules)\n"
    env = {**os.environ, "DICEHALL_CACHE": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[-1] == "True"


def test_every_bot_of_every_game_sits_down_without_numpy(tmp_path: Path) -> None:
    assert not numpy_imported(SIT_DOWN, tmp_path)


def test_kariki_odds_read_from_the_cache_without_numpy(tmp_path: Path) -> None:
    assert numpy_imported(KARIKI_ODDS, tmp_path)  # the first run computes the solver's rows
    assert not numpy_imported(KARIKI_ODDS, tmp_path)  # the next reads them back


def test_kariki_solver_claims_on_the_first_roll_from_the_cache_without_numpy(
    tmp_path: Path,
) -> None:
    assert numpy_imported(FIRST_CLAIM, tmp_path)  # the first run caches the opening's chances
    assert not numpy_imported(FIRST_CLAIM, tmp_path)


ONE_COMMAND = """
import sys
from dicehall.cli import main

try:
    main(["games"])
except SystemExit:
    pass
print(sorted(m for m in sys.modules if m.startswith("dicehall.cli.")))
"""


def test_every_command_is_registered_by_the_module_the_command_map_names() -> None:
    """`main` imports only the named command's module, so the map must be whole and right."""
    import typer

    from dicehall.cli import COMMANDS, MODULES, app

    group = typer.main.get_group(app)
    assert sorted(group.commands) == sorted(COMMANDS)
    for name, command in group.commands.items():
        callback = command.callback
        assert callback is not None
        assert callback.__module__ == f"dicehall.cli.{COMMANDS[name]}", name
    assert sorted(set(COMMANDS.values())) == sorted(MODULES)


def test_a_command_imports_its_own_module_only() -> None:
    done = subprocess.run(
        [sys.executable, "-c", ONE_COMMAND], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "['dicehall.cli.catalog', 'dicehall.cli.common']"


TEPIIKU_ODDS = """
from dicehall.games import make_game

policy = make_game("tepiiku").odds({})[-1]
assert policy.rows and "Fish policy" in policy.title
"""


def test_tepiiku_odds_read_from_the_cache_without_numpy(tmp_path: Path) -> None:
    """The Fish policy comes from the shipped tables: computed once, then read back."""
    assert numpy_imported(TEPIIKU_ODDS, tmp_path)
    assert not numpy_imported(TEPIIKU_ODDS, tmp_path)
