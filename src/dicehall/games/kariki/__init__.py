"""Kariki (rulings K1-K10): two dice under a mug, claims, pulls and dingle berries."""

from dicehall.games.kariki.rules import Kariki

GAME = Kariki

__all__ = ["GAME", "Kariki"]
