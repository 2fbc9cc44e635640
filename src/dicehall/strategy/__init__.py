"""The strategy engine: game trees through the core API, CFR+, exact best response.

- `tree.build_tree`: a game (or a subgame cut by a leaf callback) as flat arrays.
- `passes.Passes`: reach, value and best-response passes over a batch of trees.
- `passes.exploitability`: NashConv / 2 of a policy, exactly.
- `cfr.solve`: CFR+ to a number of iterations or a target exploitability.
- `strategy_file`: solved policies on disk (versioned, checksummed).
- `duel.duel`: tournaments between bots with 95% confidence intervals.
- `progress.bar`: the Rich progress bar long computations show.

The engine is game-agnostic: it reaches games only through `State` methods.
A game too large to enumerate is decomposed exactly by its own glue (for
Kariki, `dicehall.games.kariki.solver.model`), which builds small trees with this
engine and composes their values. See docs/researchers/index.md.
"""
