"""Two-seat Tao Dice solved, and what plays and explains the solution.

The match is cut into betting rounds between public positions, each round
solved by CFR+ in vector form and the match's values iterated over them
(docs/researchers/tao.md). The strategy is too large to ship: `dicehall solve tao`
solves it once and keeps it in the user's data folder. At three to six
seats no equilibrium is known, and the `solver` bot reads the bets instead.

    model.py         the rounds: positions, betting paths, showdowns (NumPy)
    solve.py         CFR+ over every round, the match's values, exact best responses
    stored.py        the strategy file: its name and folder (no NumPy), writing, loading
    policy.py        the stored strategy's chances at a seat's view
    odds.py          the solver's first-round bets for `dicehall odds tao`, cached on disk
    equity.py        showdown equity for many seats at once (NumPy), shared with the batch
    reading.py       reading the bets at three to six seats (the bet reader)
    bot.py           the `solver` bot
    advice.py        the solver's advice
    bot_policies.py  the heuristic and random bots spread over the model, to measure them
    commands.py      the GameSolver of `dicehall solve tao` and `dicehall exploitability tao`

They import each other in that order (each only from those above it, and
`stored.py` the solver only inside the functions that need it); this file
imports none of them, so asking whether a strategy is stored costs nothing.
"""
