"""Tao Dice: bet stones on hidden 2d6 and a public d12; white stones buy rerolls."""

from dicehall.games.tao.rules import TaoDice

GAME = TaoDice

__all__ = ["GAME", "TaoDice"]
