"""What a search leaves to look at: the top of its tree as a snapshot, and as text.

A :class:`TreeNode` snapshot is taken when a search ends (the tree itself goes on changing:
reuse, pruning, the next search), down to :data:`SNAPSHOT_DEPTH` levels below the root with the
:data:`SNAPSHOT_WIDTH` most visited children of each node, and the principal variation (the
most visited child at each level, a proven win first) down to :data:`PV_LENGTH` moves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from agents import tree as search_tree

SNAPSHOT_DEPTH = 2  # levels below the root (each level costs the search a little time)
SNAPSHOT_WIDTH = 5
PV_LENGTH = 20
STATUS_NAMES = {
    search_tree.WIN: "win",
    search_tree.LOSS: "loss",
    search_tree.DRAW: "draw",
}  # for the node's mover


@dataclass(frozen=True)
class TreeNode:
    """One node of a search tree snapshot.

    Attributes:
        action: The move into the node (-1 for the root).
        visits: Simulations through the node.
        value: Mean value in [-1, 1] for the player who made ``action`` (for the root: for
            the player to move there).
        proven: ``"win"``, ``"loss"`` or ``"draw"`` if the solver proved the node's result
            for that same player, else None.
        proof_plies: For a proven node, the plies to the end of its proven line (the
            fastest win, the slowest loss), else 0.
        children: The most visited children (most visited first), possibly not all of them.
        child_count: How many children the node has in the tree.
    """

    action: int
    visits: int
    value: float
    proven: str | None
    proof_plies: int
    children: tuple[TreeNode, ...]
    child_count: int


def _ranked_children(ints: np.ndarray, floats: np.ndarray, node: int) -> np.ndarray:
    """The children of ``node``, proven wins first, then by visits, then by mean value."""
    first, count = int(ints[node, search_tree.I_FIRST]), int(ints[node, search_tree.I_COUNT])
    children = np.arange(first, first + count)
    if count == 0:
        return children
    won = ints[children, search_tree.I_SOLVED] == search_tree.WIN
    lost = ints[children, search_tree.I_SOLVED] == search_tree.LOSS
    order = np.lexsort(
        (-floats[children, search_tree.F_MEAN], -ints[children, search_tree.I_VISITS], lost, ~won)
    )
    return children[order]


def _node(ints: np.ndarray, floats: np.ndarray, node: int, depth: int, width: int) -> TreeNode:
    children = ()
    if depth > 0:
        ranked = _ranked_children(ints, floats, node)[:width]
        children = tuple(_node(ints, floats, int(c), depth - 1, width) for c in ranked)
    return TreeNode(
        action=int(ints[node, search_tree.I_ACTION]),
        visits=int(ints[node, search_tree.I_VISITS]),
        value=float(floats[node, search_tree.F_MEAN]),
        proven=STATUS_NAMES.get(int(ints[node, search_tree.I_SOLVED])),
        proof_plies=int(ints[node, search_tree.I_PROOF]),
        children=children,
        child_count=int(ints[node, search_tree.I_COUNT]),
    )


def snapshot(
    ints: np.ndarray, floats: np.ndarray, root_value: float, root_proven: str | None
) -> tuple[TreeNode, tuple[int, ...]]:
    """``(root snapshot, principal variation)`` of a tree (node 0 is the root)."""
    root = _node(ints, floats, 0, SNAPSHOT_DEPTH, SNAPSHOT_WIDTH)
    root = TreeNode(
        -1, root.visits, root_value, root_proven, root.proof_plies, root.children, root.child_count
    )
    line = []
    node = 0
    while len(line) < PV_LENGTH and ints[node, search_tree.I_COUNT] > 0:
        best = _ranked_children(ints, floats, node)[0]
        if ints[best, search_tree.I_VISITS] == 0:
            break
        line.append(int(ints[best, search_tree.I_ACTION]))
        node = int(best)
    return root, tuple(line)


def tree_text(
    root: TreeNode,
    line: tuple[int, ...],
    *,
    depth: int = 2,
    width: int = 3,
    name: Callable[[int], str] = str,
) -> str:
    """The principal variation, then the top ``width`` moves at each of ``depth`` levels, with
    visits (and their share of the parent's), the mean value for the player who moved and
    proven results (with the plies to the end of the proven line)."""
    lines = [
        f"root: {root.visits:,} visits, value {root.value:+.3f} for the player to move"
        + (f", proven {root.proven}" if root.proven else ""),
        "principal variation: " + (" ".join(name(a) for a in line) or "(none)"),
    ]

    def walk(node: TreeNode, level: int) -> None:
        for child in node.children[:width]:
            share = child.visits / node.visits if node.visits else 0.0
            text = (
                f"{'  ' * level}{name(child.action):<5} {child.visits:>9,} visits "
                f"{share:6.1%}  value {child.value:+.3f}"
            )
            if child.proven:  # the plies of the line, this move included
                plies = child.proof_plies + 1
                text += f"  [{child.proven} in {plies} pl{'y' if plies == 1 else 'ies'}]"
            lines.append(text)
            if level < depth:
                walk(child, level + 1)
        hidden = node.child_count - min(width, len(node.children))
        if hidden > 0:
            lines.append(f"{'  ' * level}... {hidden} more")

    walk(root, 1)
    return "\n".join(lines)
