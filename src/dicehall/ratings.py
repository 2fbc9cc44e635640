"""Ratings per game, and the bot ladder that anchors them.

The maths is OpenSkill's (Weng–Lin, Plackett–Luce model): it rates
free-for-all results of 2–10 players, which is every dicehall game. A
result is ranked by the game's own verdict: the winners share first place
and every other seat shares last, since no game ranks its losers.

The ladder plays the project's bots against each other so that a rating
means something: "solver ≈ 31" is read against the random bot's rating on
the same ladder. Each game draws its lineup at random from the entrants;
when a game has more seats than there are bots, numbered copies of the bots
enter as players of their own ("heuristic 2"), so that nobody is rated as
two teams of one match and the copies show how far ratings wander by luck.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from dicehall.cluster import Local, Runner, chunked
from dicehall.core.game import Game, Result
from dicehall.core.table import play_game

REPEAT_WINDOW_SECONDS = 24 * 3600
"""Rated games between the same two players within this long weigh less (`repeat_weights`)."""


def repeat_weights(
    players: Sequence[str], earlier: Sequence[tuple[float, Sequence[str]]], at: float
) -> list[float]:
    """How much of its OpenSkill update each seat's rating takes, so that playing the same
    opponent over and over cannot farm a rating: a player's n-th rated game against the
    same opponent within REPEAT_WINDOW_SECONDS takes 1/2^(n-1) of it (the first all of it,
    the second half, the third a quarter ...), against whichever opponent they have met
    most. `earlier`: (finished, players) of the game's earlier rated results."""
    met: dict[tuple[str, str], int] = {}
    for finished, seated in earlier:
        if at - finished > REPEAT_WINDOW_SECONDS:
            continue
        for a in seated:
            for b in seated:
                if a != b:
                    met[a, b] = met.get((a, b), 0) + 1
    return [0.5 ** max((met.get((p, q), 0) for q in players if q != p), default=0) for p in players]


def ranks_of(result: Result) -> list[float]:
    """OpenSkill ranks (1 is best) for every seat: winners 1, the others 2."""
    winners = set(result.winners)
    return [1.0 if seat in winners else 2.0 for seat in range(len(result.net))]


def ordinal(mu: float, sigma: float) -> float:
    """The figure shown for a rating, as OpenSkill works it out: mu − 3 sigma."""
    return float(PlackettLuce().rating(mu=mu, sigma=sigma).ordinal())


SHOWN_CENTRE = 1500
"""Where a new player stands on the shown scale: OpenSkill's ordinal 0 (mu 25, sigma 25/3)."""
SHOWN_SCALE = 20
"""Shown points per point of OpenSkill's ordinal: ordinals of about −15 to +25 read as
1200 to 2000, the range people know from chess and Board Game Arena."""
PROVISIONAL_GAMES = 10
"""Rated games before a rating loses its provisional mark: until then sigma is wide."""


def shown(mu: float, sigma: float) -> int:
    """The rating people see: OpenSkill's ordinal, mu − 3 sigma, on a 1500-centred scale
    (OpenSkill's own alpha and target), rounded, and never below 0."""
    rating = PlackettLuce().rating(mu=mu, sigma=sigma)
    return max(0, round(rating.ordinal(alpha=SHOWN_SCALE, target=SHOWN_CENTRE)))


def provisional(games: int) -> bool:
    """Whether a rating is still settling: shown with a mark until PROVISIONAL_GAMES games."""
    return games < PROVISIONAL_GAMES


def win_share(result: Result, seat: int) -> float:
    """A seat's part of the win: 1 alone, 1/2 for one of two winners, ..., 0 for a loss."""
    return 1 / len(result.winners) if seat in result.winners else 0.0


@dataclass
class Standing:
    """One player's rating on a ladder, with the games behind it."""

    name: str
    rating: PlackettLuceRating
    games: int = 0
    wins: float = 0.0

    @property
    def ordinal(self) -> float:
        """The conservative figure a leaderboard sorts by: mu − 3 sigma."""
        return float(self.rating.ordinal())

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mu": self.rating.mu,
            "sigma": self.rating.sigma,
            "ordinal": self.ordinal,
            "shown": shown(self.rating.mu, self.rating.sigma),
            "provisional": provisional(self.games),
            "games": self.games,
            "wins": self.wins,
        }


@dataclass
class RatingBook:
    """Everyone's rating in one game; results in, ratings out."""

    model: PlackettLuce = field(default_factory=PlackettLuce)
    standings: dict[str, Standing] = field(default_factory=dict)

    def standing(self, name: str) -> Standing:
        if name not in self.standings:
            self.standings[name] = Standing(name, self.model.rating(name=name))
        return self.standings[name]

    def record(
        self, players: Sequence[str], result: Result, weights: Sequence[float] | None = None
    ) -> None:
        """Rate one finished game; players[s] sat at seat s. `weights[s]`: the part of
        OpenSkill's update seat s takes (`repeat_weights`); all of it by default."""
        if len(set(players)) != len(players):
            raise ValueError("a player can hold only one seat in a rated game")
        standings = [self.standing(p) for p in players]
        teams = [[s.rating] for s in standings]
        rated = self.model.rate(teams, ranks=ranks_of(result))
        weights = weights or [1.0] * len(players)
        for seat, (standing, team) in enumerate(zip(standings, rated, strict=True)):
            new, old, w = team[0], standing.rating, weights[seat]
            if w < 1:
                new = self.model.rating(
                    mu=old.mu + w * (new.mu - old.mu),
                    sigma=old.sigma + w * (new.sigma - old.sigma),
                    name=old.name,
                )
            standing.rating = new
            standing.games += 1
            standing.wins += win_share(result, seat)

    def table(self) -> list[Standing]:
        """The leaderboard, best first."""
        return sorted(self.standings.values(), key=lambda s: s.ordinal, reverse=True)


def entrants(bots: Sequence[str], seats: int) -> list[str]:
    """The ladder's players: every bot once, plus numbered copies to fill a table."""
    names = list(bots)
    copy = 2
    while len(names) < seats:
        names += [f"{b} {copy}" for b in bots][: seats - len(names)]
        copy += 1
    return names


LADDER_CHUNK = 100
"""Games per chunk of a ladder: a Ray task's worth of work."""


@dataclass(frozen=True)
class Lineups:
    """A chunk of a ladder: games to play, each a lineup of bots (by seat) and its seed."""

    game: Game
    games: tuple[tuple[tuple[str, ...], int], ...]


def play_lineups(chunk: Lineups) -> list[Result]:
    """The result of every game of a chunk, in order."""
    return [play_game(chunk.game, bots, seed, seed) for bots, seed in chunk.games]


def ladder(
    game: Game,
    bots: Sequence[str],
    games: int,
    seed: int | None = None,
    on_game: Callable[[int], None] | None = None,
    runner: Runner | None = None,
) -> RatingBook:
    """Play `games` games of random lineups drawn from `bots`; rate every one.

    The same seed gives the same lineups, dice and ratings: the lineups and
    seeds are drawn first, the games played in chunks by `runner` (here, or
    on Ray: `dicehall.cluster`) and rated in order.
    """
    if not bots:
        raise ValueError("the ladder needs at least one bot")
    rng = random.Random(seed)
    pool = entrants(bots, game.seats)
    policy = {name: name.split(" ")[0] for name in pool}
    book = RatingBook()
    for name in pool:
        book.standing(name)
    plan = []
    for _ in range(games):
        lineup = rng.sample(pool, game.seats)
        plan.append((lineup, rng.getrandbits(64)))
    chunks = [
        Lineups(game, tuple((tuple(policy[p] for p in lineup), s) for lineup, s in part))
        for part in chunked(plan, LADDER_CHUNK)
    ]
    i = 0
    for results in (runner or Local()).map(play_lineups, chunks):
        for result in results:
            book.record(plan[i][0], result)
            if on_game is not None:
                on_game(i)
            i += 1
    return book
