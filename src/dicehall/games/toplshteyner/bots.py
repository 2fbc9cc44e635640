"""The heuristic Toplshteyner bot.

The dice decide nearly everything; a player decides only whom High Fives
elects and whether to buy a fourth life. The bot makes both choices by their
effect on its own chances, from the win-chance tables of `odds.py`:

- Elect: the player whose lost life most raises the bot's chance to win
  (often the leader; in a duel the last life of the other player, which wins).
  With more than five players in, where the tables stop, chances are taken
  as shares in proportion to lives ** 1.5, which elects the player with the
  most lives (the first of them in play order on a tie).
- Buy: when the life is worth more than it costs. A player who loses the
  game has paid 3 + 2 x (fourth lives bought) stakes net and the winner gets
  what every other player paid, so buying is worth it when
  (P_buy - P_keep) x (winnings + own loss) > 2 x (1 - P_buy): the stake paid
  now, and the bought life itself, lost unless the bot wins.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dicehall.core import Action, Game, View
from dicehall.games.toplshteyner.odds import choice_chances
from dicehall.games.toplshteyner.rules import BUY_LIFE, DECLINE_LIFE


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
            return BUY_LIFE if self.worth_buying(view, legal) else DECLINE_LIFE
        return legal[0]

    def elect(self, view: View, legal: Sequence[Action]) -> Action:
        rated = choice_chances(view, legal)
        return max(rated, key=lambda rating: rating[1])[0]

    def worth_buying(self, view: View, legal: Sequence[Action]) -> bool:
        rated = {action["type"]: chance for action, chance, _ in choice_chances(view, legal)}
        keep, buy = rated["decline"], rated["buy"]
        bought = view["bought"]
        winnings = sum(3 + 2 * b for s, b in enumerate(bought) if s != self.seat)
        own_loss = 3 + 2 * bought[self.seat]
        return bool((buy - keep) * (winnings + own_loss) > 2 * (1 - buy))
