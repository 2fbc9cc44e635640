"""The Gymnasium spaces of a configured game, shared by the PettingZoo and Gymnasium adapters."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
from gymnasium import spaces

from dicehall.core.game import Game
from dicehall.rl.env import Menu, MultiAgentEnv


def observation_box(game: Game) -> spaces.Box:
    """The observation tensor's space: float32, with the game's declared finite bounds."""
    low, high = game.observation_bounds
    return spaces.Box(np.asarray(low, np.float32), np.asarray(high, np.float32), dtype=np.float32)


def action_mask_array(game: Game, legal: Sequence[int]) -> np.ndarray[Any, Any]:
    """int8 0/1 over the action ids, 1 for the given legal ids."""
    mask = np.zeros(game.num_actions, dtype=np.int8)
    mask[list(legal)] = 1
    return mask


def menu_mask(game: Game, menu: Menu) -> np.ndarray[Any, Any]:
    """`action_mask_array` of a menu's ids: made once per menu (menus are kept), copied out."""
    mask = menu.extra
    if mask is None:
        mask = menu.extra = action_mask_array(game, menu.ids)
    return mask.copy()  # type: ignore[no-any-return]


def observation_array(tensor: Sequence[float]) -> np.ndarray[Any, Any]:
    """An observation tensor as the float32 array of `observation_box`."""
    return np.fromiter(tensor, np.float32, len(tensor))


class Observer:
    """Seats' observation tensors as float32 arrays, made once per position and seat.

    Where the game's encoding has a `fill` (its fast path), the tensor is written
    straight from the state into a copy of a zeroed array, through a memoryview
    (`ndarray.data`), whose writes cost half what NumPy's own do; otherwise it is
    the view's encoding converted. The last one made is kept until the environment
    moves on (`MultiAgentEnv.version`): asked again for the same seat, as PettingZoo's
    `last()` and `observe()` both ask, it is copied out, not made again. Every caller
    gets its own copy, free to change.
    """

    __slots__ = ("_fill", "_seat", "_tensor", "_version", "_zeros")

    def __init__(self, game: Game) -> None:
        fill = game.encoding.fill
        self._fill = cast("Callable[[Any, int, memoryview], None] | None", fill)
        self._zeros = np.zeros(game.observation_shape, np.float32)
        self._tensor = self._zeros
        self._version = self._seat = -1

    def __call__(self, env: MultiAgentEnv, seat: int) -> np.ndarray[Any, Any]:
        if env.version == self._version and seat == self._seat:
            return self._tensor.copy()
        fill = self._fill
        if fill is None:
            tensor = observation_array(env.observation_tensor(seat))
        else:
            tensor = self._zeros.copy()
            fill(env.state, seat, tensor.data)
        self._version, self._seat, self._tensor = env.version, seat, tensor
        return tensor.copy()
