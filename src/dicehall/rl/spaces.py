"""The Gymnasium spaces of a configured game, shared by the PettingZoo and Gymnasium adapters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from dicehall.core.game import Game


def observation_box(game: Game) -> spaces.Box:
    """The observation tensor's space: float32, with the game's declared finite bounds."""
    low, high = game.observation_bounds
    return spaces.Box(np.asarray(low, np.float32), np.asarray(high, np.float32), dtype=np.float32)


def action_mask_array(game: Game, legal: Sequence[int]) -> np.ndarray[Any, Any]:
    """int8 0/1 over the action ids, 1 for the given legal ids."""
    mask = np.zeros(game.num_actions, dtype=np.int8)
    mask[list(legal)] = 1
    return mask
