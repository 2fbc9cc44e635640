"""The build's one decision that pyproject.toml cannot state: compile the rules or not.

A wheel (`pip install .`, `python -m build`) compiles the core's Game and
State and the four games' rules with mypyc, which makes a step of play about
twice as fast (docs/contributors/core.md, Compiled rules). Everything else, and
these modules' own sources, stay Python: when no C compiler is at hand, mypyc
is missing, or DICEHALL_PURE=1 is set, the same wheel is built without the
compiled modules and runs as it would with them, only slower.

An editable install (`pip install -e .`, what `make` does) never compiles, so
that an edit to a rules module takes effect at once and the tests run the
source as written.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "src/dicehall/core/game.py",
    "src/dicehall/core/chance.py",
    *(
        f"src/dicehall/games/{game}/rules.py"
        for game in ("kariki", "tao", "tepiiku", "toplshteyner")
    ),
]


class OptionalBuildExt(build_ext):
    """Builds the compiled modules, or none of them: a half-built set would not import."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any compiler or platform failure: fall back
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
            print(f"dicehall: the rules stay pure Python ({error})", file=sys.stderr)


def compiled_modules() -> list[object]:
    if "bdist_wheel" not in sys.argv or os.environ.get("DICEHALL_PURE", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("dicehall: mypyc is not installed, the rules stay pure Python", file=sys.stderr)
        return []
    try:
        # The build's environment has the build's requirements only: the modules that the
        # compiled ones import and that use NumPy, Rich, ... are read, not checked, here
        # (`make typecheck` checks them all).
        options = ["--ignore-missing-imports", "--follow-imports=silent"]
        return list(mypycify([*options, *COMPILED], opt_level="3", group_name="dicehall"))
    except (Exception, SystemExit) as error:  # mypyc reports type errors by exiting
        print(f"dicehall: mypyc failed, the rules stay pure Python ({error})", file=sys.stderr)
        return []


setup(ext_modules=compiled_modules(), cmdclass={"build_ext": OptionalBuildExt})
