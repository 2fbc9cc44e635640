"""The Tepiiku solver: the round after the thumbs solved exactly, per cap, and the thumbs.

Once the thumbs are in every die is shown (T6), so the rest of a round is a
game of perfect information with simultaneous tie rerolls, solved by dynamic
programming for each cap (the coins every seat is modelled to hold); the
thumbs (T5) are an approximate equilibrium over its values. A cap's tables
take minutes to solve; every cap's ship in the package (`tables/`), and
`dicehall solve tepiiku` solves them again into the table cache: the bot,
the advice and `dicehall odds tepiiku` only read them.

Modules, each importing only those above it:

    model.py    the 56 sorted hands and their rerolls' chances (NumPy)
    ties.py     equilibria of small simultaneous games: the T6 tie rerolls
    stored.py   a cap's tables: their fields, cache file (keyed by the
                sources), saving and loading; imports no NumPy
    solve.py    the round's positions, the solving algorithm, the thumbs,
                and a cap's tables put together (`solve_tables`)
    policy.py   a decision read off a cap's tables at a seat's view
    bot.py      the `solver` bot (the heuristic where a cap's tables are missing)
    advice.py   the solver's advice: each choice's expected coins
    odds.py     `dicehall odds tepiiku`'s solver tables: the Fish policy and
                a Fish's choices (imports no NumPy until a table is computed)
    commands.py the GameSolver of `dicehall solve` and `dicehall exploitability`

No module here imports the game's package `dicehall.games.tepiiku` itself
(its registry class imports bot, advice and odds inside its methods), and
this `__init__` imports nothing.
"""
