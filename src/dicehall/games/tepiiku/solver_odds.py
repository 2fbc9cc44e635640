"""`dicehall odds tepiiku`: after the exact chances, the solver's Fish policy or choices.

The query is checked and the Fish policy read back from the table cache
without NumPy or the solver; they are imported (`fish_table.py`) only to
compute a table: the policy's rows on a cache miss, a Fish's choices. Never
solves (that takes a minute or more).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from dicehall.core import diskcache
from dicehall.core.errors import OptionError
from dicehall.core.odds import OddsTable
from dicehall.games.tepiiku.tables_file import CAPS, MAX_CAP, cache_file

POTS = (1, 2, 3, 4)
SOLVER_PARAMETERS = ("pot", "cap")
MODEL = (
    'From the solver\'s model (docs/strategy.md, "Tepiiku"): the round after the thumbs '
    "solved exactly, every seat holding {cap} coins and maximising its expected coins, "
    "everyone playing the solver's policy afterwards."
)


def not_solved(cap: int) -> OddsTable:
    return OddsTable(
        title=f"The solver's Fish policy at {cap} coins",
        columns=[],
        rows=[],
        note=(
            f"Not computed yet: python benchmarks/tepiiku_solver.py --caps {cap} solves it "
            "once (a minute or more) into the table cache, where this command and the "
            "solver bot find it."
        ),
    )


def solver_tables(
    query: Mapping[str, str], exact: Callable[[Mapping[str, str]], list[OddsTable]]
) -> list[OddsTable]:
    """The exact chance tables (`exact`, the rules' odds, given the query without the
    solver's parameters) followed by the solver's: its Fish policy, or with dice, beat
    and hook its choices for that Fish. Reads the cached solve and never solves (that
    takes a minute or more)."""
    unknown = [k for k in query if k not in ("dice", "beat", "hook", *SOLVER_PARAMETERS)]
    if unknown:
        raise OptionError(
            f"unknown odds parameter {unknown[0]!r} for tepiiku; its parameters are dice, "
            "beat, hook, and for the solver's tables pot and cap"
        )
    exact_odds = exact({k: v for k, v in query.items() if k not in SOLVER_PARAMETERS})
    cap = _whole(query, "cap", MAX_CAP)
    if cap not in CAPS:
        raise OptionError(
            f"parameter 'cap' must be one of the solved caps {', '.join(map(str, CAPS))}; got {cap}"
        )
    pot = _whole(query, "pot", 1)
    if pot < 1:
        raise OptionError(f"parameter 'pot' must be at least 1; got {pot}")
    if "dice" not in query:
        return [*exact_odds, policy_table(cap)]
    if "hook" not in query:
        return [*exact_odds, _needs_hook(cap)]
    from dicehall.games.tepiiku.fish_table import choices

    return [*exact_odds, choices(cap, query, pot)]


def _needs_hook(cap: int) -> OddsTable:
    return OddsTable(
        title=f"The solver's choices at {cap} coins",
        columns=[],
        rows=[],
        note="The solver's choice depends on the Hook's score too: add --option hook=N.",
    )


def _whole(query: Mapping[str, str], name: str, default: int) -> int:
    if name not in query:
        return default
    try:
        return int(query[name])
    except ValueError:
        raise OptionError(
            f"parameter {name!r} must be a whole number; got {query[name]!r}"
        ) from None


def policy_table(cap: int) -> OddsTable:
    """The optimal Fish policy by scores: each pot's choice and the Fish's expected coins.

    The rows take seconds to compute from the tables, so they are kept in the table
    cache under a key of the tables' file and the module that computes them, and
    read back without NumPy. Tables are solved only into the cache (`strategy.py`),
    so a cache without their file says "not computed yet", found without NumPy
    too; with the cache off, `strategy.tables` says whether they exist."""
    path = cache_file(cap)
    if path is not None and not path.exists():
        return not_solved(cap)
    rows = None
    if path is not None:
        key = diskcache.source_key(path, Path(__file__).with_name("fish_table.py"))
        rows = diskcache.load(f"tepiiku-fish-policy-{cap}", key)
    if rows is None:
        from dicehall.games.tepiiku import fish_table, strategy

        try:
            rows = fish_table.policy_cells(strategy.tables(cap))
        except strategy.NotSolved:
            return not_solved(cap)
        if path is not None:
            diskcache.save(f"tepiiku-fish-policy-{cap}", key, rows)
    return OddsTable(
        title=f"The solver's Fish policy at {cap} coins: pay or the runes to reroll, "
        "and the Fish's expected coins",
        columns=["Fish", "middle", "Hook", *(f"pot {p}" for p in POTS)],
        rows=rows,
        note=MODEL.format(cap=cap)
        + " A choice depends on all three hands: each row takes the hands of those scores, "
        "weighted by how often they are thrown, and shows the most common choice (its share "
        "where the others differ) and the Fish's mean expected coins; paying costs the pot.",
    )
