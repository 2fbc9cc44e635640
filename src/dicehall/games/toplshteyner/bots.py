"""The heuristic Toplshteyner bot.

The dice decide nearly everything; a player decides only whom High Fives
elects and whether to buy a fourth life. The bot elects by the effect on its
own chance to win, from the win-chance tables of `odds.py`, and buys:

- Elect: the player whose lost life most raises the bot's chance to win
  (often the leader; in a duel the last life of the other player, which wins).
  With more than five players in, where the tables stop, chances are taken
  as shares in proportion to lives ** 1.5, which elects the player with the
  most lives (the first of them in play order on a tie).
- Buy: always. A fourth life never lowers the chance to win, and the stake
  it costs was never worth saving in play: a bot that bought only when
  (P_buy - P_keep) x (winnings + own loss) > 2 x (1 - P_buy), from the tables
  and the lives ** 1.5 shares, declined mostly at six to eight players, where
  it then won less often (53.5% against 55.0% for four seats of eight
  against random bots, 40,000 games) and took home less money (0.85 against
  0.98 stakes a game), and no more money against bots that always buy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dicehall.core import Action, Game, View
from dicehall.games.toplshteyner.odds import choice_chances
from dicehall.games.toplshteyner.rules import BUY_LIFE


class HeuristicBot:
    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view["phase"] == "elect":
            return self.elect(view, legal)
        if view["phase"] == "buy":
            return BUY_LIFE
        return legal[0]

    def elect(self, view: View, legal: Sequence[Action]) -> Action:
        rated = choice_chances(view, legal)
        return max(rated, key=lambda rating: rating[1])[0]
