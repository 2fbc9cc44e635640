"""`dicehall odds tepiiku`: after the exact chances, the solver's Fish policy or choices.

The query is checked and the Fish policy read back from the table cache
without NumPy or the solver; they are imported (inside the functions of the
second half) only to compute a table: the policy's rows on a cache miss, a
Fish's choices. Never solves (that takes a minute or more).

The second half is the solver's Fish policy as a readable table (what
`dicehall odds tepiiku` shows, and the Markdown table of docs/researchers/tepiiku.md),
with the expected coins of each choice for a given Fish's hand. A decision
depends on all three hands, not only on their scores; the table groups the
hands of each (Fish, middle, Hook) score triple, weighs each by how often it
is thrown, and shows the weighted most frequent choice: "pay", or the runes
rerolled ("skull", "gem+skull", "all"), with its share when other hands of
the same scores choose otherwise.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from dicehall.core import diskcache
from dicehall.core.errors import OptionError
from dicehall.core.odds import Cell, OddsTable
from dicehall.games.tepiiku.odds import parse_dice, parse_score
from dicehall.games.tepiiku.rules import DICE, SUBSETS
from dicehall.games.tepiiku.solver import stored
from dicehall.games.tepiiku.solver.stored import CAPS, MAX_CAP, Tables, found_file

POTS = (1, 2, 3, 4)
SOLVER_PARAMETERS = ("pot", "cap")
MODEL = (
    'From the solver\'s model (docs/researchers/tepiiku.md, "Tepiiku"): the round after the thumbs '
    "solved exactly, every seat holding {cap} coins and maximising its expected coins, "
    "everyone playing the solver's policy afterwards."
)


def not_solved(cap: int) -> OddsTable:
    return OddsTable(
        title=f"The solver's Fish policy at {cap} coins",
        columns=[],
        rows=[],
        note=(
            "Not computed yet: the package ships these tables, so its files are missing; "
            "`dicehall solve tepiiku` solves them again (minutes) into the table cache, "
            "where this command and the solver bot find them."
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
    read back without NumPy. The tables ship in the package, or are solved into
    the cache (`stored.py`): with no file in either, "not computed yet" is said
    without NumPy too."""
    path = found_file(cap)
    if path is None:
        return not_solved(cap)
    rows = None
    if diskcache.cache_dir() is not None:
        key = diskcache.source_key(path, Path(__file__))
        rows = diskcache.load(f"tepiiku-fish-policy-{cap}", key)
    if rows is None:
        try:
            rows = policy_cells(stored.tables(cap))
        except stored.NotSolved:
            return not_solved(cap)
        if diskcache.cache_dir() is not None:
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


# --- the Fish policy and choices from the tables: NumPy and the solver ----------------


def choice_words(hand: int, code: int) -> str:
    from dicehall.games.tepiiku.solver.model import HANDS
    from dicehall.games.tepiiku.solver.solve import PAY

    if code == PAY:
        return "pay"
    dice = SUBSETS[code - 1]
    if len(dice) == DICE:
        return "all"
    return "+".join(HANDS[hand][i] for i in dice)


def policy_rows(tables: Tables) -> list[list[str]]:
    """(Fish score, middle's, Hook's, then one cell per pot in POTS)."""
    from dicehall.games.tepiiku.solver.model import FRESH, SCORES
    from dicehall.games.tepiiku.solver.solve import layout

    lay = layout()
    weights: dict[tuple[int, int, int, int], dict[str, float]] = defaultdict(
        lambda: defaultdict(float)
    )
    for index, (f, m, h) in enumerate(lay.fish):
        weight = float(FRESH[f] * FRESH[m] * FRESH[h])
        key = (int(SCORES[f]), int(SCORES[m]), int(SCORES[h]))
        for pot in POTS:
            code = int(tables.fish_policy[tables.level(pot), index])
            weights[(*key, pot)][choice_words(int(f), code)] += weight
    rows = []
    for key in sorted({k[:3] for k in weights}):
        cells = [str(k) for k in key]
        for pot in POTS:
            tally = weights[(*key, pot)]
            word, share = max(tally.items(), key=lambda item: item[1])
            share /= sum(tally.values())
            cells.append(word if share > 0.995 else f"{word} ({share:.0%})")
        rows.append(cells)
    return rows


def policy_markdown(tables: Tables) -> str:
    head = ["Fish", "middle", "Hook", *(f"pot {p}" for p in POTS)]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in policy_rows(tables)]
    return "\n".join(lines)


def policy_cells(tables: Tables) -> list[list[Cell]]:
    """The rows of the Fish policy table (`policy_table`): each pot's choice and the Fish's
    expected coins, by scores."""
    import numpy as np

    from dicehall.games.tepiiku.solver.model import FRESH, SCORES
    from dicehall.games.tepiiku.solver.solve import layout

    lay = layout()
    weight = FRESH[lay.fish[:, 0]] * FRESH[lay.fish[:, 1]] * FRESH[lay.fish[:, 2]]
    keys = SCORES[lay.fish]
    rows: list[list[Cell]] = []
    for row in policy_rows(tables):
        f, m, h = (int(c) for c in row[:3])
        mask = (keys[:, 0] == f) & (keys[:, 1] == m) & (keys[:, 2] == h)
        cells: list[Cell] = [f, m, h]
        for pot, word in zip(POTS, row[3:], strict=True):
            value = tables.fish_value[tables.level(pot), mask, 0].astype(np.float64)
            mean = float(weight[mask] @ value / weight[mask].sum())
            cells.append(f"{word} {mean:+.2f}")
        rows.append(cells)
    return rows


def choices_table(
    tables: Tables, hand: Sequence[str], middle: int, hook: int, pot: int
) -> OddsTable:
    """Every choice of a Fish holding `hand` against those scores: its expected coins."""
    import numpy as np

    from dicehall.games.tepiiku.solver.model import ACTIONS, FRESH, HANDS, SCORES, hand_index
    from dicehall.games.tepiiku.solver.policy import fish_choices
    from dicehall.games.tepiiku.solver.solve import PAY, layout

    lay = layout()
    f = hand_index(hand)
    middles = np.flatnonzero(np.equal(SCORES, middle))
    hooks = np.flatnonzero(np.equal(SCORES, hook))
    index = lay.fish_at[f][np.ix_(middles, hooks)].ravel()
    weight = np.outer(FRESH[middles], FRESH[hooks]).ravel()
    weight = weight / weight.sum()
    values = sum(w * fish_choices(tables, int(i), pot) for w, i in zip(weight, index, strict=True))
    policy = tables.fish_policy[tables.level(pot), index]
    shares: dict[str, float] = {}
    first: dict[str, int] = {}  # rerolls of the same runes are one choice, one row
    for code in range(1 + ACTIONS):
        word = "pay the pot" if code == PAY else choice_words(f, code)
        first.setdefault(word, code)
        shares[word] = shares.get(word, 0.0) + float(weight[policy == code].sum())
    rows: list[list[Cell]] = []
    for word, code in first.items():
        fish, mid, top = (f"{v:+.3f}" for v in values[code])
        rows.append([word, fish, mid, top, shares[word]])
    return OddsTable(
        title=f"The solver's choices for a Fish with {', '.join(HANDS[f])} (score "
        f"{int(SCORES[f])}) against a middle of {middle} and a Hook of {hook}, pot {pot}, "
        f"{tables.cap} coins",
        columns=["choice", "Fish's expected coins", "middle's", "Hook's", "solver plays it"],
        rows=rows,
        note=MODEL.format(cap=tables.cap)
        + " The middle's and the Hook's hands of those scores are weighed by how often they "
        "are thrown; 'solver plays it' is the share of those hands for which it is the "
        "solver's choice.",
    )


def choices(cap: int, query: Mapping[str, str], pot: int) -> OddsTable:
    """The solver's choices for the Fish of the query (dice, beat, hook) at `pot`."""
    import numpy as np

    from dicehall.games.tepiiku.solver.model import SCORES

    try:
        tables = stored.tables(cap)
    except stored.NotSolved:
        return not_solved(cap)
    hand = parse_dice(query["dice"])
    middle, hook = parse_score("beat", query["beat"]), parse_score("hook", query["hook"])
    for name, score in (("beat", middle), ("hook", hook)):
        if not np.equal(SCORES, score).any():
            raise OptionError(f"parameter {name!r}: no throw of three dice scores {score}")
    return choices_table(tables, hand, middle, hook, pot)
