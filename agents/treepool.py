"""Tree buffers of garbage-collected search agents and planners, kept for the next one.

A new tree's memory is mapped lazily: the first search into it faults in (and the kernel zeroes)
every page it touches, which made a fresh agent's 20,000-simulation Connect Four search a fifth
slower than the same agent's next search. A search agent takes its two trees from here and gives
them back when it is collected, as a C++ search reuses the heap its last search freed. At most
:data:`KEPT_PER_SIZE` pairs are kept per ``max_nodes``, so an idle process holds at most that
many trees' touched pages. A kept tree's old contents are never read: a search resets the root
and every new node is written whole (:func:`agents.tree.expand`).
"""

from __future__ import annotations

import weakref

import numpy as np

from agents.tree import new_tree

Tree = tuple[np.ndarray, np.ndarray, np.ndarray]

KEPT_PER_SIZE = 1

_kept: dict[int, list[list[Tree]]] = {}


def tree_pair(owner: object, max_nodes: int) -> list[Tree]:
    """Two trees of ``max_nodes`` nodes for ``owner`` (a kept pair if there is one), given back
    for the next agent when ``owner`` is garbage-collected."""
    pairs = _kept.get(max_nodes)
    trees = pairs.pop() if pairs else [new_tree(max_nodes), new_tree(max_nodes)]
    finalizer = weakref.finalize(owner, _give_back, max_nodes, trees)
    finalizer.atexit = False
    return trees


def _give_back(max_nodes: int, trees: list[Tree]) -> None:
    pairs = _kept.setdefault(max_nodes, [])
    if len(pairs) < KEPT_PER_SIZE:
        pairs.append(trees)
