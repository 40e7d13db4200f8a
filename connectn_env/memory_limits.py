"""What this machine can hold: the bound on search trees' ``max_nodes`` and on counts of
preallocated things (the vector env's boards).

A search agent keeps two trees (the search and the reused subtree) of preallocated arrays:
per node 8 int32 fields and 5 float64 fields (``agents.tree``), 72 bytes. A ``max_nodes``
whose two trees would not fit in the machine's physical memory can never be searched
(the first search fails with ``MemoryError``), so it is refused up front. Node indices are
int32, which bounds ``max_nodes`` too.
"""

from __future__ import annotations

import os
from typing import Any

from connectn_env.games.validation import require_int

BYTES_PER_NODE = 84  # agents.tree: NUM_INT_FIELDS * 4 + NUM_FLOAT_FIELDS * 8
TREES_PER_AGENT = 2
INDEX_LIMIT = 2**31 - 1  # node indices are int32
MIN_NODES = 2


def physical_memory() -> int | None:
    """Bytes of physical memory, or None where ``os.sysconf`` cannot tell."""
    try:
        pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return None
    return pages * page_size if pages > 0 and page_size > 0 else None


def max_tree_nodes(trees: int = TREES_PER_AGENT) -> int:
    """The largest ``max_nodes`` whose ``trees`` trees fit in physical memory (and in
    int32 indices)."""
    memory = physical_memory()
    if memory is None:
        return INDEX_LIMIT
    return max(MIN_NODES, min(INDEX_LIMIT, memory // (BYTES_PER_NODE * trees)))


def check_max_nodes(value: Any, name: str = "max_nodes", trees: int = TREES_PER_AGENT) -> int:
    """Return ``value`` as an int if it is an integer from 2 to :func:`max_tree_nodes`.

    Raises:
        TypeError: ``value`` is not an integer.
        ValueError: ``value`` is below 2 or more than the machine can hold (the message
            names the limit and the memory it comes from).
    """
    value = require_int(name, value, MIN_NODES)
    limit = max_tree_nodes(trees)
    if value > limit:
        memory = physical_memory()
        why = (
            f"{trees} trees of {BYTES_PER_NODE} bytes per node in {memory / 2**30:.1f} GiB "
            "of physical memory"
            if memory is not None and limit < INDEX_LIMIT
            else "int32 node indices"
        )
        raise ValueError(f"{name} must be at most {limit} ({why}), got {value}")
    return value


def check_fits_in_memory(name: str, count: Any, bytes_each: int, low: int = 1) -> int:
    """Return ``count`` as an int if it is an integer >= ``low`` whose ``bytes_each``-byte
    items fit in physical memory.

    Raises:
        TypeError: ``count`` is not an integer.
        ValueError: below ``low``, or more than the machine can hold (the limit is named).
    """
    count = require_int(name, count, low)
    memory = physical_memory()
    if memory is not None and count * bytes_each > memory:
        limit = max(low, memory // bytes_each)
        raise ValueError(
            f"{name} must be at most {limit} ({bytes_each:,} bytes each in "
            f"{memory / 2**30:.1f} GiB of physical memory), got {count}"
        )
    return count
