"""A baseline table per game: what random, heuristic, solver and a trained agent score.

    PYTHONPATH=src .venv/bin/python benchmarks/baselines.py --markdown
    PYTHONPATH=src python benchmarks/baselines.py --ppo-steps 50000 --seeds 0,1,2 --markdown

Seeded throughout, so a rerun gives the same table. Four parts, each
skipped with a note when what it needs is not installed:

1. **Bots against bots**: every ordered pair of the built-in bots in a
   duel (`dicehall.strategy.duel`: blocks of seat rotations on shared dice),
   one bot in seat rotation against the other in every other seat; the
   first bot's win rate per seat with its 95% interval, beside the fair
   share.
2. **Exploitability**: `dicehall exploitability GAME --bot B --json` for each
   bot, where the game's solver computes it exactly.
3. **Masked PPO** (`dicehall[train]`: sb3-contrib): MaskablePPO trained on
   the vector environment (`dicehall.rl.vector`, through the small
   Stable-Baselines3 adapter below) against heuristic bots for a stated
   budget, one run a seed, then played against each bot; and, for one
   game, the learning curve against the same PPO on copies of the single
   environment at equal steps, with the wall time of each.
4. **OpenSpiel** (`dicehall[openspiel]`): CFR+ and external-sampling MCCFR
   through the adapter on one-round Kariki (the game
   `examples/openspiel_cfr_kariki.py` describes), with OpenSpiel's own
   exploitability after equal CPU time.

The log of a run, with its date and runtime, is
benchmarks/results/baselines.md.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.games import make_game
from dicehall.strategy.duel import duel

GAMES = {"kariki": 2, "tao": 2, "tepiiku": 3, "toplshteyner": 2}
"""Each game at the seat count its baseline is given for."""
BOTS = ("random", "heuristic", "solver")


def bots_against_bots(game_id: str, seats: int, games: int, seed: int) -> list[dict[str, Any]]:
    """Each bot alone against the others of one kind, every ordered pair."""
    game = make_game(game_id, seats)
    rows = []
    for first in BOTS:
        for other in BOTS:
            if first == other:
                continue
            result = duel(game, [first] + [other] * (seats - 1), games, seed=seed)
            score = result.scores[first]
            rows.append(
                {
                    "game": game_id,
                    "seats": seats,
                    "bot": first,
                    "against": other,
                    "games": games,
                    "win_rate": score.win_rate,
                    "ci95": list(score.ci95),
                    "fair_share": result.fair_share,
                }
            )
    return rows


def exploitabilities(game_id: str, seats: int, timeout: float) -> dict[str, Any]:
    """Each bot's exact exploitability from the command, or why there is none."""
    out: dict[str, Any] = {}
    for bot in BOTS:
        command = [sys.executable, "-c", "from dicehall.cli import main; main()"]
        command += ["exploitability", game_id, "--seats", str(seats), "--bot", bot, "--json"]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            out[bot] = f"over {timeout:.0f} s"
            continue
        if done.returncode == 0:
            answer = json.loads(done.stdout)
            out[bot] = {"value": answer["exploitability"], "unit": answer["unit"]}
        else:
            out[bot] = (done.stderr.strip().splitlines() or ["failed"])[-1][:120]
    return out


# --- masked PPO ---------------------------------------------------------------------------


def sb3_vector(env: Any) -> Any:
    """A Stable-Baselines3 `VecEnv` over a dicehall vector environment (same-step reset).

    Stable-Baselines3 has its own vector API, older than Gymnasium's: resets
    inside `step` with the last observation in the infos, one info dict an
    environment, and `env_method("action_masks")` for MaskablePPO.
    """
    from stable_baselines3.common.vec_env import VecEnv

    class DicehallSB3(VecEnv):  # type: ignore[misc]
        def __init__(self) -> None:
            self.env = env
            self._seed: int | None = None
            self._actions = np.zeros(env.num_envs, dtype=np.int64)
            super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

        def reset(self) -> Any:
            obs, _ = self.env.reset(seed=self._seed)
            self._seed = None
            return obs

        def step_async(self, actions: Any) -> None:
            self._actions = np.asarray(actions, dtype=np.int64)

        def step_wait(self) -> Any:
            obs, rewards, terminated, truncated, infos = self.env.step(self._actions)
            dones = terminated | truncated
            listed: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
            for i in np.flatnonzero(dones):
                listed[i]["terminal_observation"] = infos["final_obs"][i]
                listed[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            return obs, rewards.astype(np.float32), dones, listed

        def close(self) -> None:
            self.env.close()

        def seed(self, seed: int | None = None) -> list[int | None]:
            self._seed = seed
            return [seed] * self.num_envs

        def get_attr(self, name: str, indices: Any = None) -> list[Any]:
            return [getattr(self.env, name)] * len(self._indices(indices))

        def set_attr(self, name: str, value: Any, indices: Any = None) -> None:
            setattr(self.env, name, value)

        def env_method(self, name: str, *args: Any, indices: Any = None, **kwargs: Any) -> Any:
            if name == "action_masks":
                masks = self.env.action_masks()
                return [masks[i] for i in self._indices(indices)]
            raise AttributeError(name)

        def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
            return [False] * len(self._indices(indices))

        def _indices(self, indices: Any) -> list[int]:
            if indices is None:
                return list(range(self.num_envs))
            return [indices] if isinstance(indices, int) else list(indices)

    return DicehallSB3()


def train_ppo(
    game_id: str, seats: int, steps: int, seed: int, vector: bool, envs: int, every: int
) -> tuple[Any, list[tuple[int, float, float]]]:
    """MaskablePPO against heuristic bots; the curve is (steps, wall seconds, win rate
    against the heuristic over 200 games) every `every` steps."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    from dicehall.rl.gymnasium import DicehallGymEnv
    from dicehall.rl.vector import DicehallVectorEnv

    if vector:
        venv = sb3_vector(
            DicehallVectorEnv(
                envs, game_id, seats=seats, opponents="heuristic", autoreset_mode="SameStep"
            )
        )
    else:
        venv = DummyVecEnv(
            [lambda: DicehallGymEnv(game_id, seats=seats, opponents="heuristic")] * envs
        )
    venv.seed(seed)
    torch.set_num_threads(1)  # a small network: more threads only contend for the cores
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=256, batch_size=256, seed=seed, verbose=0, device="cpu"
    )
    curve: list[tuple[int, float, float]] = []
    start = time.perf_counter()
    clock = [0.0]

    class Curve(BaseCallback):  # type: ignore[misc]
        def _on_step(self) -> bool:
            if self.num_timesteps // every > len(curve):
                paused = time.perf_counter()
                rate, _ = play_against(model, game_id, seats, "heuristic", 200, seed + 7)
                clock[0] += time.perf_counter() - paused
                wall = time.perf_counter() - start - clock[0]
                curve.append((self.num_timesteps, wall, rate))
            return True

    model.learn(total_timesteps=steps, callback=Curve())
    return model, curve


def play_against(
    model: Any, game_id: str, seats: int, bot: str, games: int, seed: int, lanes: int = 64
) -> tuple[float, float]:
    """The agent in seat 0 against `bot` in the others: its win rate and 95% half-width
    (a share of a tied win counts as that share).

    Game k is played on a single environment reset with seed `seed * 100_003 + k`,
    `lanes` games side by side so that the network is asked once for all of them:
    a Tao Dice token game runs hundreds of the agent's decisions, and one forward pass
    a decision is what made its evaluation slow."""
    from dicehall.rl.gymnasium import DicehallGymEnv

    won = 0.0
    for first in range(0, games, lanes):
        envs = [
            DicehallGymEnv(game_id, seats=seats, opponents=bot)
            for _ in range(min(lanes, games - first))
        ]
        observations = [env.reset(seed=seed * 100_003 + first + k)[0] for k, env in enumerate(envs)]
        live = list(range(len(envs)))
        while live:
            actions, _ = model.predict(
                np.stack([observations[i] for i in live]),
                action_masks=np.stack([envs[i].action_masks() for i in live]),
                deterministic=True,
            )
            still = []
            for i, action in zip(live, actions, strict=True):
                observations[i], _, terminated, truncated, _ = envs[i].step(action)
                if not (terminated or truncated):
                    still.append(i)
                    continue
                winners = envs[i].core.env.state.result().winners
                won += (1 / len(winners)) if 0 in winners else 0.0
            live = still
    p = won / games
    return p, 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / games)


def ppo_table(
    game_id: str, seats: int, steps: int, seeds: Sequence[int], games: int
) -> dict[str, Any]:
    runs = []
    for seed in seeds:
        start = time.perf_counter()
        model, _ = train_ppo(game_id, seats, steps, seed, True, 16, steps + 1)
        trained = time.perf_counter() - start
        scores = {bot: play_against(model, game_id, seats, bot, games, seed) for bot in BOTS}
        runs.append({"seed": seed, "train_seconds": trained, "against": scores})
    return {"game": game_id, "seats": seats, "steps": steps, "runs": runs}


def ppo_curves(game_id: str, seats: int, steps: int, seed: int, every: int) -> dict[str, Any]:
    """The same PPO on the vector environment and on copies of the single one."""
    out = {}
    for vector in (True, False):
        _, curve = train_ppo(game_id, seats, steps, seed, vector, 16, every)
        out["vector" if vector else "single"] = curve
    return out


# --- OpenSpiel ----------------------------------------------------------------------------


def openspiel_small(seconds: float) -> dict[str, Any]:
    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability, external_sampling_mccfr

    import dicehall.rl.openspiel  # noqa: F401  (registers python_dicehall_*)

    game = pyspiel.load_game(
        "python_dicehall_kariki",
        {"players": 2, "one_round": True, "first_roller": 0, "throws": 1},
    )
    out: dict[str, Any] = {}
    solvers: dict[str, Any] = {
        "CFR+": cfr.CFRPlusSolver(game),
        "ES-MCCFR": external_sampling_mccfr.ExternalSamplingSolver(
            game, external_sampling_mccfr.AverageType.SIMPLE
        ),
    }
    for name, solver in solvers.items():
        iterations = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            if name == "CFR+":
                solver.evaluate_and_update_policy()
            else:
                solver.iteration()
            iterations += 1
        spent = time.process_time() - start
        eps = exploitability.exploitability(game, solver.average_policy())
        out[name] = {"iterations": iterations, "cpu_seconds": spent, "exploitability": eps}
    return out


# --- the table ----------------------------------------------------------------------------


def markdown(report: dict[str, Any]) -> str:
    lines = []
    for game_id, part in report["games"].items():
        seats = GAMES[game_id]
        rows = [
            (row["bot"], row["against"], row["win_rate"], *row["ci95"], row["fair_share"])
            for row in part.get("duels", [])
        ]
        ppo = part.get("ppo")
        if isinstance(ppo, dict):
            for run in ppo["runs"]:
                for bot, (p, half) in run["against"].items():
                    name = f"PPO seed {run['seed']} ({ppo['steps']:,} steps)"
                    rows.append((name, bot, p, max(0, p - half), min(1, p + half), 1 / seats))
        lines += [f"### {game_id}, {seats} seats", ""]
        if isinstance(ppo, str):
            lines += [f"PPO: {ppo}", ""]
        if rows:
            lines += [
                "| bot | against | win rate | 95% interval | fair share |",
                "| --- | --- | ---: | --- | ---: |",
            ]
            lines += [
                f"| {bot} | {against} | {p:.1%} | {lo:.1%}-{hi:.1%} | {fair:.1%} |"
                for bot, against, p, lo, hi, fair in rows
            ]
            lines.append("")
        cells = []
        for bot, value in part.get("exploitability", {}).items():
            if isinstance(value, dict):
                cells.append(f"{bot} {value['value']:.4g} ({value['unit']})")
            else:
                cells.append(f"{bot}: {value}")
        if cells:
            lines += ["Exploitability: " + "; ".join(cells) + ".", ""]
    openspiel = report.get("openspiel")
    if isinstance(openspiel, str):
        lines += ["### OpenSpiel on one-round Kariki", "", openspiel, ""]
    elif openspiel:
        lines += ["### OpenSpiel on one-round Kariki", ""]
        lines += ["| algorithm | iterations | CPU s | exploitability (stakes) |"]
        lines += ["| --- | ---: | ---: | ---: |"]
        for name, row in openspiel.items():
            lines.append(
                f"| {name} | {row['iterations']:,} | {row['cpu_seconds']:.0f} "
                f"| {row['exploitability']:.4f} |"
            )
        lines.append("")
    curves = report.get("curves")
    if isinstance(curves, str):
        lines += ["### PPO learning curve", "", curves, ""]
    elif curves:
        lines += ["### PPO learning curve, vector against single environments", ""]
        lines += ["| steps | vector: wall s | vector: wins | single: wall s | single: wins |"]
        lines += ["| ---: | ---: | ---: | ---: | ---: |"]
        for (s, wv, rv), (_, ws, rs) in zip(curves["vector"], curves["single"], strict=False):
            lines.append(f"| {s:,} | {wv:.0f} | {rv:.1%} | {ws:.0f} | {rs:.1%} |")
        lines.append("")
    return "\n".join(lines)


def missing(error: ImportError, extra: str) -> str:
    """The note a part leaves when what it needs is not installed."""
    return f"skipped: {error.name or error} is not installed (pip install 'dicehall[{extra}]')"


def combine(reports: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Separate runs' reports as one: a game's parts merged, non-empty ones winning."""
    out: dict[str, Any] = {"games": {}, "seconds": 0.0}
    for report in reports:
        for game_id, part in report.get("games", {}).items():
            merged = out["games"].setdefault(game_id, {"duels": [], "exploitability": {}})
            merged.update({key: value for key, value in part.items() if value})
        for key in ("openspiel", "curves"):
            if key in report:
                out[key] = report[key]
        out["seconds"] += report.get("seconds", 0.0)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games a duel")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=",".join(GAMES), help="games, comma-separated")
    parser.add_argument("--ppo-steps", type=int, default=0, help="0: no PPO")
    parser.add_argument("--seeds", default="0,1,2", help="PPO seeds")
    parser.add_argument("--curve-game", default="", help="a game for the PPO curves")
    parser.add_argument("--curve-every", type=int, default=10_000)
    parser.add_argument("--openspiel-seconds", type=float, default=0.0)
    parser.add_argument("--exploitability-timeout", type=float, default=900.0)
    parser.add_argument("--no-duels", action="store_true", help="PPO and OpenSpiel only")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument(
        "--combine",
        nargs="+",
        metavar="JSON",
        help="render the JSON reports of separate runs as one table, and run nothing",
    )
    args = parser.parse_args(argv)
    if args.combine:
        combined = combine([json.loads(Path(name).read_text()) for name in args.combine])
        print(markdown(combined) if args.markdown else json.dumps(combined, indent=1))
        return combined
    start = time.perf_counter()
    report: dict[str, Any] = {"games": {}}
    seeds = [int(s) for s in args.seeds.split(",") if s]
    only = [game_id for game_id in args.only.split(",") if game_id]
    unknown = sorted(set(only) - set(GAMES))
    if unknown or (args.curve_game and args.curve_game not in GAMES):
        parser.error(
            f"no such game: {', '.join(unknown) or args.curve_game}; games: {', '.join(GAMES)}"
        )
    for game_id in only:
        seats = GAMES[game_id]
        part: dict[str, Any] = {"duels": [], "exploitability": {}}
        if not args.no_duels:
            part["duels"] = bots_against_bots(game_id, seats, args.games, args.seed)
            part["exploitability"] = exploitabilities(game_id, seats, args.exploitability_timeout)
        if args.ppo_steps:
            try:
                part["ppo"] = ppo_table(
                    game_id, seats, args.ppo_steps, seeds, min(args.games, 1000)
                )
            except ImportError as e:
                part["ppo"] = missing(e, "train")
        report["games"][game_id] = part
        print(f"{game_id} done at {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if args.openspiel_seconds:
        try:
            report["openspiel"] = openspiel_small(args.openspiel_seconds)
        except ImportError as e:
            report["openspiel"] = missing(e, "openspiel")
    if args.curve_game and args.ppo_steps:
        try:
            report["curves"] = ppo_curves(
                args.curve_game,
                GAMES[args.curve_game],
                args.ppo_steps,
                seeds[0],
                args.curve_every,
            )
        except ImportError as e:
            report["curves"] = missing(e, "train")
    report["seconds"] = time.perf_counter() - start
    print(markdown(report) if args.markdown else json.dumps(report, indent=1))
    print(f"runtime {report['seconds']:.0f} s", file=sys.stderr)
    return report


if __name__ == "__main__":
    main()
