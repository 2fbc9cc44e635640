"""A PettingZoo tournament of random agents at any dicehall game.

    python examples/pettingzoo_tournament.py --game kariki --seats 4 --games 2000

Every seat is a uniformly random agent that picks among the legal action ids
(the "action_mask" of its observation). The script prints each seat's mean
net per game with a 95% confidence interval: with random agents at every
seat the intervals should cover 0, and a seat whose interval does not is an
advantage of the seat itself (the dice decide who rolls first, so none is
expected). Needs `pip install 'dicehall[rl]'`.
"""

from __future__ import annotations

import argparse
import math
import random

from dicehall.rl.pettingzoo import env


def tournament(
    game: str, seats: int | None, games: int, seed: int
) -> dict[str, tuple[float, float]]:
    """Each agent's mean net per game and the half-width of its 95% interval."""
    rng = random.Random(seed)
    aec = env(game, seats, seed=seed)
    totals: dict[str, list[float]] = {agent: [] for agent in aec.possible_agents}
    for _ in range(games):
        aec.reset()
        nets = dict.fromkeys(aec.possible_agents, 0.0)
        for agent in aec.agent_iter():
            observation, reward, termination, truncation, _ = aec.last()
            nets[agent] += reward
            if termination or truncation:
                aec.step(None)
            else:
                legal = [i for i, m in enumerate(observation["action_mask"]) if m]
                aec.step(rng.choice(legal))
        for agent, net in nets.items():
            totals[agent].append(net)
    out = {}
    for agent, values in totals.items():
        mean = sum(values) / len(values)
        var = sum((v - mean) ** 2 for v in values) / max(len(values) - 1, 1)
        out[agent] = (mean, 1.96 * math.sqrt(var / len(values)))
    return out


def main(argv: list[str] | None = None) -> dict[str, tuple[float, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kariki")
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    results = tournament(args.game, args.seats, args.games, args.seed)
    print(f"{args.game}, {args.games} games of random agents: mean net per game (95% CI)")
    for agent, (mean, half) in results.items():
        print(f"  {agent}: {mean:+.3f} ± {half:.3f}")
    return results


if __name__ == "__main__":
    main()
