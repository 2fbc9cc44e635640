"""Toplshteyner's exact solver: whom a first 5-5 elects (P8) and whether to buy a fourth life (P9).

Everything else is dice and everything is public, so dynamic programming
solves the game exactly, for the win (the game's object, P10) and for money.
The modules, each importing only those before it (and the game's top-level
`rules.py`, `odds.py`, `bots.py`):

model.py          the model: positions, layers (players in, K = pot + lives),
                  and a turn's states and throws, explored by playing the rules
                  (its strongly connected groups come from `odds.sink_first`)
stored.py         the solved layers on disk: the tables shipped in `tables/`,
                  the user's cache, their names and their format (no NumPy on
                  import)
solve.py          value iteration over turns, a layer at a time; `Solver` keeps
                  a game's layers, solved or read back
policy.py         a decision read off the tables at a seat's view
best_response.py  the exact best response against heuristic or solver bots
advice.py         each choice's value for the odds panel
bot.py            the `solver` and `solver_money` bots (the heuristic beyond
                  the tables)
odds.py           what `dicehall odds toplshteyner` prints: one turn's odds, and
                  a game's win chances from the solver (simulated beyond it)
commands.py       the GameSolver of `dicehall solve` and `dicehall exploitability`

Nothing here is imported by the rules; the registry's class (the package's
`__init__`) imports the bots, the advice and the odds inside its methods,
so that a bot sits down and a command starts without NumPy.
"""
