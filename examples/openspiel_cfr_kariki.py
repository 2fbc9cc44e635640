"""OpenSpiel's CFR+ on one-round Kariki, measured by OpenSpiel's own exploitability.

    python examples/openspiel_cfr_kariki.py --iterations 200

The game is two-seat Kariki cut to one round (`one_round`: the first berry
ends the game, its receiver pays the other one stake), with seat 0 rolling
first instead of the roll-off (`first_roller`, whose ties could go on for
ever) and one throw under the mug (`throws=1`: after it nobody may roll
higher). That leaves the heart of the game, claim, pull or pass, in 5,787
histories: small enough for OpenSpiel's tabular CFR+ to walk the whole tree
each iteration. Every extra throw multiplies the tree by about 36 x 14, so
`--throws 2` is already beyond tabular methods in Python. Needs
`pip install 'dicehall[openspiel]'`.
"""

from __future__ import annotations

import argparse

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

import dicehall.rl.openspiel  # noqa: F401  (registers python_dicehall_*)


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--throws", type=int, default=1)
    parser.add_argument("--every", type=int, default=50, help="report every N iterations")
    args = parser.parse_args(argv)
    game = pyspiel.load_game(
        "python_dicehall_kariki",
        {"players": 2, "one_round": True, "first_roller": 0, "throws": args.throws},
    )
    solver = cfr.CFRPlusSolver(game)
    eps = float("nan")
    for i in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        if i % args.every == 0 or i == args.iterations:
            eps = exploitability.exploitability(game, solver.average_policy())
            print(f"iteration {i}: exploitability {eps:.6f} stakes")
    policy = solver.average_policy()
    state = game.new_initial_state()
    state.apply_action(17)  # seat 0 sends play left
    state.apply_action(4 * 6 + 4)  # throws 5-5 (chance outcome: first die 5, second 5)
    claims = policy.action_probabilities(state)
    best = sorted(claims.items(), key=lambda kv: -kv[1])[:3]
    words = ", ".join(f"{state.action_to_string(0, a)} {p:.2f}" for a, p in best)
    print(f"holding 5-5, seat 0 claims: {words}")
    return eps


if __name__ == "__main__":
    main()
