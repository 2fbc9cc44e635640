"""Decisions per CPU second: the RL adapters and `dicehall sim` against the engine.

One decision is one seat's choice, the unit an RL library counts as a step;
the throws happen inside it. Every loop plays random games of the same game
at the same table (random choices among the legal action ids), so their
rates compare as they are:

- engine: the core's public API driven by action ids, as a hand-written
  loop over the rules would: `legal_action_ids`, `apply(seat, id)`,
  `apply_chance` with `RandomDice` throws. The reference of the ratios.
- engine+tensor: the same loop, also making the acting seat's observation
  tensor at every decision (`observation_tensor`): what the rules alone cost
  an adapter that hands out tensors, whatever the adapter does.
- env: `dicehall.rl.env.MultiAgentEnv`, the dependency-free environment:
  `last()` (the view, which is its observation) and `legal_action_ids`.
- pettingzoo: `dicehall.rl.pettingzoo.env(game)`, masks from `last()`, the
  legal ids read from the mask with `ndarray.nonzero` (`np.flatnonzero`, through
  NumPy's Python wrappers, costs the agent more than a third of an engine decision);
  pettingzoo-plain: the same environment in PettingZoo's own
  `OrderEnforcingWrapper`; pettingzoo-raw: without an order-checking wrapper.
- gymnasium: `DicehallGymEnv(game, opponents="random")`, counting every
  seat's decisions (the learner's and the random bots') as the engine's loop
  counts them; gymnasium-step: the same, counting the learner's environment
  steps alone (each holds the bots' moves as well).
- trusted: the engine's own loop of `dicehall sim`: the trusted fast path,
  `RandomDice` seeded per game and one random number per choice, the games
  `sim --bots random` plays. sim: `core.sim.simulate(game, ["random"], ...)`,
  what `dicehall sim G --bots random` runs, its ratio to `trusted`.
- With `--openspiel`: OpenSpiel's own `rl_environment` on its C++
  `liars_dice` (2 players, 1 die each); with `--vector`,
  `gymnasium.make_vec(..., num_envs=16)` (sync), one step = 16 steps.

The loops take turns in short slices of CPU time (benchmarks/playouts.py),
and what counts are the ratios from the same run (median of the rounds'
ratios, with their range). Usage:

    .venv/bin/python benchmarks/rl_envs.py [--game kariki] [--seats 2] [--rounds 5]
        [--slice 0.3] [--openspiel] [--vector] [--markdown]
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
from pettingzoo.utils import wrappers

from dicehall.core.chance import RandomDice
from dicehall.core.game import Game
from dicehall.core.sim import simulate
from dicehall.games import game_class, game_ids, make_game
from dicehall.rl.env import MultiAgentEnv
from dicehall.rl.gymnasium import DicehallGymEnv, env_id
from dicehall.rl.pettingzoo import env as aec_env
from dicehall.rl.pettingzoo import raw_env
from playouts import Loop, interleaved


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


def engine_loop(game: Game, tensor: bool, seed: int = 1) -> Loop:
    """The core's public API by action ids; with `tensor`, the acting seat's tensor too."""
    rand = random.Random(seed).random
    throw = RandomDice(seed).throw

    def episode() -> int:
        state = game.new_state()
        decisions = 0
        while True:
            if state.is_chance():
                state.apply_chance(throw(state.chance_dice()))
                continue
            actors = state.actors()
            if not actors:
                return decisions
            seat = actors[0]
            if tensor:
                state.observation_tensor(seat)
            legal = state.legal_action_ids(seat)
            state.apply(seat, legal[int(rand() * len(legal))])
            decisions += 1

    return budgeted(episode)


def env_loop(game: Game, seed: int = 1) -> Loop:
    env = MultiAgentEnv(game.id, game.seats, dict(game.options), seed=seed)
    rand = random.Random(seed).random

    def episode() -> int:
        decisions = 0
        env.reset()
        while env.agents:
            env.last()
            legal = env.legal_action_ids(env.agent_selection)
            env.step(legal[int(rand() * len(legal))])
            decisions += 1
        return decisions

    return budgeted(episode)


def trusted_loop(game: Game, seed: int = 1) -> Loop:
    """The engine's own loop of the games `simulate` plays with random bots."""
    seeds = random.Random(seed)

    def episode() -> int:
        game_seed = seeds.getrandbits(64)
        throw = RandomDice(game_seed).throw
        rand = random.Random(game_seed).random
        state = game.new_state()
        is_chance, chance_dice, actors = state.is_chance, state.chance_dice, state.actors
        legal_actions, apply = state.legal_actions, state.apply_trusted
        apply_chance = state.apply_chance_trusted
        decisions = 0
        while True:
            if is_chance():
                apply_chance(throw(chance_dice()))
                continue
            seats = actors()
            if not seats:
                return decisions
            legal = legal_actions(seats[0])
            apply(seats[0], legal[int(rand() * len(legal))])
            decisions += 1

    return budgeted(episode)


def sim_loop(game: Game, seed: int = 1) -> Loop:
    """`dicehall sim` without its printing: `simulate` in runs of 16 games."""
    seeds = iter(range(seed, 2**62))

    def episodes() -> int:
        return simulate(game, ["random"], 16, next(seeds)).decisions

    return budgeted(episodes)


def openspiel_loop(seed: int = 1) -> Loop:
    from open_spiel.python import rl_environment

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


def pettingzoo_loop(game: Game, wrapper: str = "ours", seed: int = 1) -> Loop:
    """wrapper: "ours" (`env()`), "plain" (PettingZoo's own) or "raw" (none)."""
    options: dict[str, Any] = dict(game.options)
    if wrapper == "ours":
        env = aec_env(game.id, game.seats, seed=seed, **options)
    elif wrapper == "plain":
        env = wrappers.OrderEnforcingWrapper(raw_env(game.id, game.seats, seed=seed, **options))
    else:
        env = raw_env(game.id, game.seats, seed=seed, **options)
    rand = random.Random(seed).random

    def episode() -> int:
        steps = 0
        env.reset()
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]  # flatnonzero: 1.4 µs more
            env.step(int(legal[int(rand() * len(legal))]))
            steps += 1
        return steps

    return budgeted(episode)


def gymnasium_loop(game: Game, per: str = "decision", seed: int = 1) -> Loop:
    """per "decision": every seat's decisions count, the learner's and the bots', as the
    engine's loop counts them; per "step": the learner's environment steps alone."""
    options: dict[str, Any] = dict(game.options)
    env = DicehallGymEnv(game.id, seats=game.seats, opponents="random", **options)
    env.reset(seed=seed)
    rand = random.Random(seed).random
    core = env.core.env

    def episode() -> int:
        steps, done = 0, False
        _, info = env.reset()
        while not done:
            legal = info["legal"]
            _, _, terminated, truncated, info = env.step(legal[int(rand() * len(legal))])
            done = terminated or truncated
            steps += 1
        return core.steps if per == "decision" else steps

    return budgeted(episode)


def vector_loop(game: Game, n: int = 16, seed: int = 1) -> Loop:
    """Vector steps (of n environment steps each); autoreset starts new episodes."""
    envs = gym.make_vec(
        env_id(game.id), num_envs=n, vectorization_mode="sync", seats=game.seats, opponents="random"
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


def paired(rates: dict[str, list[float]], a: str, b: str) -> tuple[float, float, float]:
    """How many times slower `a` is than `b`: median of the rounds' ratios b/a, and range."""
    values = [y / x for x, y in zip(rates[a], rates[b], strict=True)]
    return statistics.median(values), min(values), max(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=game_ids())
    parser.add_argument("--seats", type=int, help="default: each game's default seat count")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slice", type=float, default=0.3, help="CPU seconds per loop and round")
    parser.add_argument("--openspiel", action="store_true", help="OpenSpiel's liars_dice too")
    parser.add_argument("--vector", action="store_true", help="gymnasium.make_vec, 16 envs")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {datetime.date.today()}: {' '.join(sys.argv)}")
    print("decisions per CPU second (median of rounds); x: times slower than the reference")
    print("(median of the rounds' ratios, range): the engine, and for sim the trusted loop")
    if args.markdown:
        print("\n| game | seats | loop | decisions/s | times slower | range |")
        print("| --- | ---: | --- | ---: | ---: | --- |")
    for gid in [args.game] if args.game else game_ids():
        game = make_game(gid, args.seats or game_class(gid).default_seats)
        loops = {
            "engine": engine_loop(game, tensor=False),
            "engine+tensor": engine_loop(game, tensor=True),
            "env": env_loop(game),
            "pettingzoo": pettingzoo_loop(game, "ours"),
            "pettingzoo-plain": pettingzoo_loop(game, "plain"),
            "pettingzoo-raw": pettingzoo_loop(game, "raw"),
            "gymnasium": gymnasium_loop(game, "decision"),
            "gymnasium-step": gymnasium_loop(game, "step"),
            "trusted": trusted_loop(game),
            "sim": sim_loop(game),
        }
        if args.openspiel:
            loops["openspiel"] = openspiel_loop()
        if args.vector:
            loops["vector16"] = vector_loop(game)
        rates = interleaved(loops, args.rounds, args.slice)
        if not args.markdown:
            print(f"\n{gid} at {game.seats} seats")
        for name in loops:
            reference = "trusted" if name == "sim" else "engine"
            median = statistics.median(rates[name])
            times = ""
            if name not in ("engine", "trusted"):
                mid, low, high = paired(rates, name, reference)
                times = f"x{mid:.2f} ({low:.2f}-{high:.2f}) of {reference}"
            if args.markdown:
                slower = f"x{mid:.2f} of {reference}" if times else "1"
                span = f"{low:.2f}-{high:.2f}" if times else ""
                print(f"| {gid} | {game.seats} | {name} | {median:,.0f} | {slower} | {span} |")
            else:
                print(f"  {name:<18}{median:>10,.0f}   {times}", flush=True)


if __name__ == "__main__":
    main()
