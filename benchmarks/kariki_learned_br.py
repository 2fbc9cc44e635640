"""Kariki at three seats and more: a learned best response against a table of one bot.

Usage (needs `dicehall[train]`: sb3-contrib, which brings PyTorch; a few CPU
minutes a row):

    PYTHONPATH=src nice -n 10 python benchmarks/kariki_learned_br.py \
        --seats 3 --bot table --steps 100000 --eval 2000 --seed 0

Masked PPO (sb3-contrib's MaskablePPO) learns seat 0 of the Gymnasium
environment (`dicehall.rl.gymnasium.DicehallGymEnv`) with the bot under test at
every other seat, rewarded 1 for a won game and 0 otherwise, so that it learns
to win rather than to win big; the first roller is drawn by the game's
roll-off, as at a table. Its deterministic policy then plays `--eval` fresh
games: the win rate with its 95% interval and its gain over the fair share
1/N. The agent sees only its seat's observation, so the gain is a lower bound
on what a best response gains: the exact best response against the table
(`dicehall exploitability kariki --seats N --bot B`, its roll-off figure) must
match or exceed it. The log is benchmarks/results/kariki_tables.md.
"""

from __future__ import annotations

import argparse
import datetime
import math
import time
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from sb3_contrib import MaskablePPO

from dicehall.rl.gymnasium import DicehallGymEnv


class Wins(gym.Wrapper[Any, Any, Any, Any]):
    """1 for a won game, 0 otherwise (Kariki's net is positive for its one winner only)."""

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        return observation, float(float(reward) > 0), terminated, truncated, info

    def action_masks(self) -> np.ndarray[Any, Any]:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined, no-any-return]


def learned_best_response(seats: int, bot: str, steps: int, games: int, seed: int) -> str:
    start = time.process_time()
    env = Wins(DicehallGymEnv("kariki", seats=seats, opponents=bot))
    env.reset(seed=seed)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=1024, batch_size=256, gamma=1.0, seed=seed, verbose=0
    )
    model.learn(total_timesteps=steps)
    trained = time.process_time() - start
    test = Wins(DicehallGymEnv("kariki", seats=seats, opponents=bot))
    wins = 0
    for game in range(games):
        observation, _ = test.reset(seed=1_000_000 + seed * games + game)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(
                observation, action_masks=test.action_masks(), deterministic=True
            )
            observation, got, terminated, truncated, _ = test.step(action)
            reward, done = float(got), terminated or truncated
        wins += reward > 0
    p = wins / games
    half = 1.96 * math.sqrt(p * (1 - p) / games)
    gain = (p - 1 / seats) * 100
    return (
        f"| {seats} | {bot} | {steps:,} | {games:,} | {p:.2%} ({p - half:.2%}-{p + half:.2%}) "
        f"| {1 / seats:.2%} | {gain:+.2f} ({gain - half * 100:+.2f} to {gain + half * 100:+.2f}) "
        f"| {trained:.0f} | {time.process_time() - start - trained:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", nargs="+", type=int, default=[3])
    parser.add_argument("--bot", nargs="+", default=["table"])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--eval", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    today = datetime.date.today()
    print(f"{today}: Kariki, masked PPO at seat 0 against a table, seed {args.seed}")
    print()
    print(
        "| seats | table of | PPO steps | games | learner's win rate (95%) | fair "
        "| gain, pp (95%) | train CPU s | eval CPU s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for seats in args.seats:
        for bot in args.bot:
            print(learned_best_response(seats, bot, args.steps, args.eval, args.seed), flush=True)


if __name__ == "__main__":
    main()
