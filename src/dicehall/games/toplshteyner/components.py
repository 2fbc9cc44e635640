"""The strongly connected groups of a turn's states, sinks first (Tarjan's algorithm).

A Toplshteyner turn can come back to a state it has left (a throw that
changes nothing is a self-loop; Crazy Eight and Threes can swap the point
between 2 and 6), so neither the exact odds (`odds.absorb`) nor the solver
(`solver.turn_chain`) can walk it as a tree. Both solve it one group of
mutually reachable states at a time, from the groups the turn ends in back
to its start: the order this gives.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def sink_first(roots: Iterable[K], successors: Callable[[K], Iterable[K]]) -> list[list[K]]:
    """Every state reachable from `roots`, in groups that reach one another; a group comes
    after every group it leads to. `successors` is asked once per state, in the walk's order."""
    index: dict[K, int] = {}
    low: dict[K, int] = {}
    stack: list[K] = []
    on_stack: set[K] = set()
    groups: list[list[K]] = []

    def visit(node: K) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in successors(node):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            groups.append(group)

    for node in roots:
        if node not in index:
            visit(node)
    return groups
