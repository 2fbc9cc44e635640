"""The most any bot can win at Toplshteyner against heuristic bots, exactly.

    python benchmarks/toplshteyner_best_response.py [--seats 3,...,8] [--games 20000]
        [--for-fun] [--sixes-end-turn] [--json]

For each seat count N: one seat plays the exact best response (it maximises
its own chance to win, P10) against N - 1 heuristic bots, which play the
heuristic's exact policy (`games/toplshteyner/solver/best_response.py`, solved by
dynamic programming over the solver's turn chain), and the same seat as the
heuristic itself. Both by the seat's place from the first roller and averaged
over the places (what `dicehall duel --bots X,heuristic,...,heuristic` rotates
through, the roll-off picking the first roller); the heuristic's average is
the fair share 1 / N exactly. The best response's edge over the fair share is
the most any bot can gain against this lineup; it is compared with the
half-width of a 95% interval of `--games` games (one seat a game, binomial),
and the games an interval would need to clear the fair share are given.

Each seat count takes its layers from two players up (kept for the next);
eight seats take about three minutes of a core.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import asdict, dataclass

from dicehall.games.toplshteyner.solver import best_response

Z95 = 1.96


@dataclass
class Bound:
    """One seat count's figures (chances as fractions, edges and widths in points)."""

    seats: int
    best_response_by_place: list[float]
    heuristic_by_place: list[float]
    best_response: float
    fair_share: float
    edge_points: float
    half_width_points: float
    games_to_clear: int | None
    decline_gain: float
    """The most the best responder could gain by declining a fourth life (<= 0: never)."""
    cpu_seconds: float

    def line(self, games: int) -> str:
        places = " ".join(f"{100 * x:.3f}" for x in self.best_response_by_place)
        plain = " ".join(f"{100 * x:.3f}" for x in self.heuristic_by_place)
        return (
            f"{self.seats} seats: best response {100 * self.best_response:.4f}% (fair share "
            f"{100 * self.fair_share:.4f}%, edge {self.edge_points:+.4f} points), half-width "
            f"of {games} games +-{self.half_width_points:.3f} points, games to clear "
            f"{self.games_to_clear}; by place {places} (heuristic {plain}); "
            f"{self.cpu_seconds} CPU s"
        )


def measure(seats: int, games: int, options: dict[str, bool]) -> Bound:
    start = time.process_time()
    best = best_response.start_values(seats, True, **options)
    plain = best_response.start_values(seats, False, **options)
    layer = best_response.layers(seats, True, **options)[seats]
    mean, fair = sum(best) / seats, 1.0 / seats
    edge = mean - fair
    return Bound(
        seats=seats,
        best_response_by_place=best,
        heuristic_by_place=plain,
        best_response=mean,
        fair_share=fair,
        edge_points=100 * edge,
        half_width_points=100 * Z95 * math.sqrt(mean * (1 - mean) / games),
        games_to_clear=math.ceil(Z95**2 * mean * (1 - mean) / edge**2) if edge > 0 else None,
        decline_gain=layer.epsilon,
        cpu_seconds=round(time.process_time() - start, 1),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", default="3,4,5,6,7,8")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--for-fun", action="store_true")
    parser.add_argument("--sixes-end-turn", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    options = {"for_fun": args.for_fun, "sixes_end_turn": args.sixes_end_turn}
    rows = []
    for seats in (int(s) for s in args.seats.split(",")):
        rows.append(measure(seats, args.games, options))
        if not args.json:
            print(rows[-1].line(args.games), flush=True)
    if args.json:
        print(json.dumps({"games": args.games, **options, "seats": [asdict(r) for r in rows]}))


if __name__ == "__main__":
    main()
