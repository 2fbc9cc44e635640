"""Tepiiku, the Daumakku triangle game: three players, rune dice, the Fish pays the Hook."""

from dicehall.games.tepiiku.rules import Tepiiku

GAME = Tepiiku

__all__ = ["GAME", "Tepiiku"]
