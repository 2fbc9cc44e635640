"""Observation tensors of many games at once, written into the game's own declared layout.

The single environments fill one tensor per view with `put_one_hot`,
`put_number` and `put_flags` (`dicehall.core.encoding`), segment by segment
as each game's encoding.py declares its `Layout`. A batch writes the same
segments for many games at once: the segments (their places, sizes and
bounds) are read from that same `Layout`, never restated, so a tensor here
has the layout of the engine's by construction, and numbers are clipped to
the same declared bounds.

Speed decides the shape of the code. Entries that are 0 or 1 (one-hot
segments and flags) go into a boolean block: a one-hot segment is copied
from a small table by index (`take`, far cheaper than scattered writes),
adjacent segments together from their joint table; the block becomes
float32 once, and the few numbers are written into it after. `Seen` reads
the batch's per-game and per-seat arrays as the observing seats see them,
with `take` rather than fancy indexing, and without any copy when every
game of the batch is observed by one seat (a vector environment with one
learner).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dicehall.core.encoding import Layout, Segment

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Floats = NDArray[np.float32]


MERGE = 4096
"""Adjacent one-hot segments are written together while their joint table has at most
this many rows: one copy where there were several."""


@cache
def _table(sizes: tuple[int, ...]) -> Bools:
    """One-hot rows for adjacent segments of `sizes`, by their codes in mixed radix: each
    segment's code is its index + 1 (0: nothing), the first segment's most significant."""
    rows = int(np.prod([size + 1 for size in sizes]))
    table = np.zeros((rows, sum(sizes)), dtype=bool)
    code = np.arange(rows)
    start = sum(sizes)
    for size in reversed(sizes):
        start -= size
        digit = code % (size + 1)
        code = code // (size + 1)
        hot = np.flatnonzero(digit)
        table[hot, start + digit[hot] - 1] = True
    return table


class Tensors:
    """The observation tensors of `rows` games, segment by segment (`Layout` names)."""

    def __init__(self, layout: Layout, rows: int) -> None:
        self.segments: dict[str, Segment] = {s.name: s for s in layout.segments}
        self.rows, self.size = rows, layout.size
        self._hots: list[tuple[int, int, Ints]] = []
        self._flags: list[tuple[int, Bools]] = []
        self._numbers: list[tuple[Segment, int, NDArray[Any]]] = []

    def one_hot(
        self,
        name: str,
        index: Ints,
        where: Bools | None = None,
        offset: int = 0,
        size: int = 0,
    ) -> None:
        """`put_one_hot` in every row: entry `index` of the segment, none where `index` is
        -1 (None, nothing to show) or `where` is False. Every index must be -1 or inside
        the segment. With `size`, the part of the segment from `offset` of that size is
        one-hot instead (a segment that holds two, such as two dice)."""
        segment = self.segments[name]
        code = index + 1
        if where is not None:
            code *= where
        self._hots.append((segment.start + offset, size or segment.size, code))

    def flags(self, name: str, values: Bools, offset: int = 0) -> None:
        """`put_flags`: the segment's entries from `offset` on are 1 where `values` (rows,
        k) is true."""
        self._flags.append((self.segments[name].start + offset, values))

    def number(self, name: str, values: NDArray[Any], offset: int = 0) -> None:
        """`put_number`: values (rows,) or (rows, k), clipped to the segment's bounds."""
        self._numbers.append((self.segments[name], offset, values))

    def done(self) -> Floats:
        """The tensors, once every segment is written."""
        hot = np.zeros((self.rows, self.size), dtype=bool)
        hots = sorted(self._hots, key=lambda h: h[0])
        i = 0
        while i < len(hots):
            start, size, code = hots[i]
            sizes, end, rows = [size], start + size, size + 1
            i += 1
            while i < len(hots) and hots[i][0] == end and rows * (hots[i][1] + 1) <= MERGE:
                _, size, more = hots[i]
                code = code * (size + 1) + more
                sizes.append(size)
                end += size
                rows *= size + 1
                i += 1
            hot[:, start:end] = _table(tuple(sizes)).take(code, 0)
        for start, values in self._flags:
            hot[:, start : start + values.shape[1]] = values
        out: Floats = hot.astype(np.float32)
        for segment, offset, values in self._numbers:
            start = segment.start + offset
            clipped = np.clip(values, segment.low, segment.high)
            if clipped.ndim == 1:
                out[:, start] = clipped
            else:
                out[:, start : start + clipped.shape[1]] = clipped
        return out


class Seen:
    """Games `g` of a batch of `n` seats as seen from seat `me` (one for all, or one each).

    `every` is the batch's array of all its games: passing it as `g` means every
    game, and arrays are then read as they are."""

    def __init__(self, g: Ints, me: Ints | int, n: int, every: Ints) -> None:
        self.g, self.n = g, n
        self.all = g is every
        self.one = isinstance(me, int)
        self.me: Ints = np.full(g.size, me, dtype=np.int64) if isinstance(me, int) else me
        if isinstance(me, int):
            self._order: Ints = (me + np.arange(n)) % n
            self._relative: Ints = _relative(n)[me]
        else:
            self._order = (g * n)[:, None] + (me[:, None] + np.arange(n)) % n
            self._relative = _relative(n).reshape(-1)
            self._offset: Ints = me * (n + 1) + 1

    def rows(self, values: NDArray[Any]) -> NDArray[Any]:
        """A per-game array (games, ...) for games g."""
        return values if self.all else values.take(self.g, 0)

    def seats(self, values: NDArray[Any]) -> NDArray[Any]:
        """A per-seat array (games, n) for games g, as `rotated` turns it: the observing
        seat first, then the seats after it in seat order."""
        if self.one:
            return self.rows(values).take(self._order, 1)
        return values.reshape(-1).take(self._order)

    def relative(self, seat: Ints) -> Ints:
        """`core.encoding.relative` of seats of games g (-1 for no seat: -1 again)."""
        if self.one:
            return self._relative.take(seat + 1)
        return self._relative.take(self._offset + seat)

    def seat_order(self) -> Ints:
        """The seat numbers in the order `seats` lists them: (n,) for one observing seat,
        else (games, n)."""
        if self.one:
            return self._order
        order: Ints = (self.me[:, None] + np.arange(self.n)) % self.n
        return order

    def mine(self, seat: Ints) -> Bools:
        """Where `seat` is the observing seat."""
        mine: Bools = seat == self.me
        return mine


@cache
def _relative(n: int) -> Ints:
    """[me, seat + 1]: seat as seen from me (0: me, 1: the next seat...); -1 for seat -1."""
    table = np.full((n, n + 1), -1, dtype=np.int64)
    for me in range(n):
        for seat in range(n):
            table[me, seat + 1] = (seat - me) % n
    return table
