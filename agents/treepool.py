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
_PAGE_BYTES = 4096

_kept: dict[int, list[list[Tree]]] = {}


def touch(tree: Tree, start: int, stop: int) -> None:
    """Write to every memory page of the unused rows ``start`` to ``stop`` of ``tree``'s node
    arrays (their contents are never read), so that the kernel maps and zeroes those pages now
    (0.7 to 2 ms per MB measured on the project's 2-core machine; pages already mapped cost
    about 3 microseconds per MB) rather than in the middle of a search chunk."""
    for array in tree[:2]:
        width = array.shape[1]
        array.reshape(-1)[start * width : stop * width : _PAGE_BYTES // array.itemsize] = 0


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
