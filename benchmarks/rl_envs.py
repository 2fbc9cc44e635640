"""Environment steps per second: dicehall's RL adapters against OpenSpiel's rl_environment.

One step is one decision of an agent, the unit an RL library counts; the
throws and, for Gymnasium, the opponents' moves happen inside it. Loops of
random agents choosing among the legal action ids:

- openspiel: `open_spiel.python.rl_environment.Environment("liars_dice")`,
  OpenSpiel's own RL environment on its C++ Liar's Dice (2 players, 1 die
  each), legal actions from its time steps;
- pettingzoo: `dicehall.rl.pettingzoo.env(game)`, masks from `last()`;
- gymnasium: `dicehall.rl.gymnasium.DicehallGymEnv(game, opponents="random")`;
  the random bots' moves are inside the step;
- vector16: `gymnasium.make_vec(..., num_envs=16)` (sync), one step = 16
  environment steps.

The loops take turns in short slices of CPU time (benchmarks/playouts.py),
and what counts are the ratios to OpenSpiel from the same run. Usage:

    .venv/bin/python benchmarks/rl_envs.py [--game kariki] [--seats 2] [--rounds 6] [--slice 0.5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import gymnasium as gym
import numpy as np
from open_spiel.python import rl_environment

from dicehall.rl.gymnasium import DicehallGymEnv, env_id
from dicehall.rl.pettingzoo import env as aec_env
from playouts import Loop, interleaved, ratio


def budgeted(episode: Callable[[], int]) -> Loop:
    """A loop that plays whole episodes (each returning its steps) for `budget` CPU seconds."""

    def run(budget: float) -> tuple[int, int]:
        steps = episodes = 0
        deadline = time.process_time() + budget
        while time.process_time() < deadline:
            steps += episode()
            episodes += 1
        return steps, episodes

    return run


def openspiel_loop(seed: int = 1) -> Loop:
    env = rl_environment.Environment("liars_dice")
    rand = random.Random(seed).random

    def episode() -> int:
        steps, step = 0, env.reset()
        while not step.last():
            legal = step.observations["legal_actions"][step.observations["current_player"]]
            step = env.step([legal[int(rand() * len(legal))]])
            steps += 1
        return steps

    return budgeted(episode)


def pettingzoo_loop(game: str, seats: int | None, seed: int = 1) -> Loop:
    env = aec_env(game, seats, seed=seed)
    rand = random.Random(seed).random

    def episode() -> int:
        steps = 0
        env.reset()
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rand() * len(legal))]))
            steps += 1
        return steps

    return budgeted(episode)


def gymnasium_loop(game: str, seats: int | None, seed: int = 1) -> Loop:
    env = DicehallGymEnv(game, seats=seats, opponents="random")
    env.reset(seed=seed)
    rand = random.Random(seed).random

    def episode() -> int:
        steps, done = 0, False
        _, info = env.reset()
        while not done:
            legal = info["legal"]
            _, _, terminated, truncated, info = env.step(legal[int(rand() * len(legal))])
            done = terminated or truncated
            steps += 1
        return steps

    return budgeted(episode)


def vector_loop(game: str, seats: int | None, n: int = 16, seed: int = 1) -> Loop:
    """Vector steps (of n environment steps each); autoreset starts new episodes."""
    envs = gym.make_vec(
        env_id(game), num_envs=n, vectorization_mode="sync", seats=seats, opponents="random"
    )
    _, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    last = [infos]

    def steps_of_n() -> int:
        for _ in range(8):
            # an episode's last step shows no legal id; the vector env resets it next step
            legal = [np.flatnonzero(m) for m in last[0]["action_mask"]]
            actions = np.array([rng.choice(ids) if len(ids) else 0 for ids in legal])
            last[0] = envs.step(actions)[4]
        return 8 * n

    return budgeted(steps_of_n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kariki")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--slice", type=float, default=0.5, help="CPU seconds per loop and round")
    args = parser.parse_args()
    loops = {
        "openspiel": openspiel_loop(),
        "pettingzoo": pettingzoo_loop(args.game, args.seats),
        "gymnasium": gymnasium_loop(args.game, args.seats),
        "vector16": vector_loop(args.game, args.seats),
    }
    rates = interleaved(loops, args.rounds, args.slice)
    print(f"{args.game} at {args.seats} seats against OpenSpiel's liars_dice rl_environment")
    print("environment steps per CPU second (median of rounds); ratio to OpenSpiel (range)")
    for name in loops:
        line = f"{name:<12}{statistics.median(rates[name]):>10,.0f}"
        if name != "openspiel":
            line += f"   x{ratio(rates, name, 'openspiel')}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
