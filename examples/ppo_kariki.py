"""Masked PPO (sb3-contrib) learning two-seat Kariki against the heuristic bot.

    python examples/ppo_kariki.py --timesteps 60000   # about three CPU minutes

The agent sees its seat's observation tensor and chooses among the legal
action ids only: `DicehallGymEnv.action_masks()` is what MaskablePPO asks
for. After training, the policy and a random one each play `--eval` games
against the heuristic bot, and the script prints their win rates with 95%
confidence intervals (a two-seat game is won when the net is positive).
Needs `pip install 'dicehall[train]'` (sb3-contrib, which brings PyTorch).
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.monitor import Monitor

from dicehall.rl.gymnasium import DicehallGymEnv


def make_env(seed: int) -> DicehallGymEnv:
    env = DicehallGymEnv("kariki", seats=2, opponents="heuristic")
    env.reset(seed=seed)
    return env


def win_rate(
    env: DicehallGymEnv, model: MaskablePPO | None, games: int, seed: int
) -> tuple[float, float]:
    """Share of games won and the half-width of its 95% interval."""
    rng = np.random.default_rng(seed)
    wins = 0
    for game in range(games):
        observation, _ = env.reset(seed=seed + game)
        done, reward = False, 0.0
        while not done:
            mask = env.action_masks()
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action, _ = model.predict(observation, action_masks=mask, deterministic=True)
            observation, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        wins += reward > 0
    p = wins / games
    return p, 1.96 * math.sqrt(p * (1 - p) / games)


def main(argv: list[str] | None = None) -> dict[str, tuple[float, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=60_000)
    parser.add_argument("--eval", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = Monitor(make_env(args.seed))
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, seed=args.seed, verbose=0)
    model.learn(total_timesteps=args.timesteps)
    test = make_env(args.seed + 1)
    results = {
        "masked PPO": win_rate(test, model, args.eval, 10_000),
        "random": win_rate(test, None, args.eval, 10_000),
    }
    print(f"two-seat Kariki against the heuristic bot, {args.eval} games each:")
    for name, (p, half) in results.items():
        print(f"  {name}: wins {p:.1%} ± {half:.1%}")
    return results


if __name__ == "__main__":
    main()
