"""Toplshteyner: make your point before a seven; the last player with lives wins the pot."""

from dicehall.games.toplshteyner.rules import Toplshteyner

GAME = Toplshteyner

__all__ = ["GAME", "Toplshteyner"]
