"""Kariki's solver: the two-seat game solved exactly, round by round, and what plays it.

Two-seat Kariki splits exactly into small subgames ("X throws to beat claim
p" at a score of berries and crowns); CFR+ solves them backwards from the end
of the game, and the strategy is shipped or cached as a file. The modules,
each importing only the ones listed before it (and the game's own `rules`,
`bots`, `odds`, `render`):

- `model.py`: the decomposition: scores, subgames, their trees, infoset keys
  read off a seat's view.
- `solve.py`: CFR+ over every subgame, exact best responses and
  exploitability, a bot's policy asked at every decision (NumPy; chunks a
  `dicehall.cluster` runner may run elsewhere).
- `stored.py`: the strategy file: its name, the shipped `strategies/` and the
  user's folder, its format (`to_file`, `Strategy`), loading, and solving on
  demand (`solve.py` imported only then). Importing it imports no NumPy.
- `opening.py`: the solver bot's decisions on a match's first roll, kept in
  the table cache so the first claim needs no NumPy.
- `bot.py`: the `solver` bot.
- `odds.py`: the solver's claims on a fresh roll (`dicehall odds kariki`),
  kept in the table cache.
- `advice.py`: the solver's advice for the odds panel.
- `best_response.py`: one seat's exact best response against a table of bots
  at three seats and more (`dicehall exploitability kariki --seats N`).
- `table_solve.py`: the `table` bot's round policy per number of seats in
  (self-play CFR+ on the round game).
- `table_stored.py`: the table file: its format, the shipped file and its
  SHA-256 (no NumPy until a policy is read).
- `table_scored.py`: the table bot's policy per score with three seats in,
  solved backwards (self-play CFR+ with the game's stakes).
- `table_bot.py`: the `table` bot.
- `commands.py`: the `GameSolver` that `dicehall solve` and `dicehall
  exploitability` run.

This package imports none of them: the registry's Kariki (the game package's
`__init__`) imports each where it is needed.
"""
