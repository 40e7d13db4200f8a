"""``njit`` for the suite's compiled code: numba's, with one compile per function where numba
would make several.

Called from compiled code, a numba function is compiled for the exact types of the call's
arguments, and numba types a constant argument as a literal: ``_search(ctx, side, depth,
False, ...)``, ``_search(ctx, side, depth, True, ...)`` and ``_search(ctx, side, depth,
defending, ...)`` were three compiles of the threat-space search (with everything it calls),
``apply(params, state, action)`` with an int32 and an int64 action two. The dispatchers made
here type such calls plainly: literals as their plain type, signed integers narrower than 64
bits as int64 (what every kernel computes in), so each function compiles once per array layout
(Gomoku's first search with its recommended options compiled 130 functions in 50 CPU seconds,
and this cut a third of it; LLVM still inlines and folds constants after linking, so the
search runs as fast). Calls from Python are typed plainly anyway.

Use it as numba's: ``@njit(cache=True)``, ``@njit(cache=True, inline="always")`` (inlined
functions are typed in their caller, as with numba's).

Their on-disk cache treats an index file it cannot unpickle as stale: numba unpickles a
cache index before it checks the source's time stamp, so an index written by an older version
of the package, whose signatures name a class that has since gone, made numba raise
``AttributeError`` on the first call instead of compiling afresh (an upgrade in place leaves
the old ``__pycache__`` files behind). And saving an index leaves out the entries that can no
longer be pickled: numba rebuilds a compiled function named in a signature when it reads the
index back, holds it weakly, and if it is collected before the index is written again (a
function passed as an argument, from code that has since dropped it), writing the index
raised ``ReferenceError`` (seen once in a parallel test run); such an entry would only be
compiled again.

A cache that is damaged or cannot be written never stops a program: an entry that cannot be
read (a truncated or emptied ``.nbc`` file, an ``.nbi`` index of garbage: numba raised
``EOFError``, ``UnpicklingError`` or ``UnicodeDecodeError`` on every run) is compiled again
and rewritten, and a cache that cannot be written (a full disk, no writable directory: numba
raised ``OSError`` after the compile, or ``RuntimeError`` at import) leaves the compiled code
in memory for the run. Each is said once per process, as a warning of the
``connectn_env.cache`` logger (one line on stderr unless the program configures logging).
"""

from __future__ import annotations

import logging
from typing import Any

import numba
from numba.core import types
from numba.core.caching import FunctionCache, IndexDataCacheFile, NullCache
from numba.core.registry import CPUDispatcher

CACHE_LOGGER = "connectn_env.cache"
_logger = logging.getLogger(CACHE_LOGGER)
_told: set[str] = set()  # the kinds of cache trouble already said in this process


def _tell_once(kind: str, message: str) -> None:
    """Log ``message`` as a warning, the first time trouble of ``kind`` happens."""
    if kind not in _told:
        _told.add(kind)
        _logger.warning(message)


def _plain(argument_type: types.Type) -> types.Type:
    """The type a call's argument is compiled for: literals unliteral, narrow signed integers
    widened to int64 (unsigned integers and everything else kept)."""
    argument_type = types.unliteral(argument_type)
    if (
        isinstance(argument_type, types.Integer)
        and argument_type.signed
        and argument_type.bitwidth < 64
    ):
        return types.int64
    return argument_type


class _TolerantIndex(IndexDataCacheFile):
    """numba's cache index file, read as empty (stale) when it cannot be unpickled."""

    def _load_index(self) -> dict[Any, Any]:
        try:
            return super()._load_index()
        except (AttributeError, ImportError):  # an older package's index: stale, said nothing
            return {}
        except Exception as error:  # any damage: garbage unpickles to any error
            _tell_damaged(self._index_path, error)
            return {}

    def _save_index(self, overloads: dict[Any, Any]) -> None:
        try:
            super()._save_index(overloads)
        except ReferenceError:  # a signature names a compiled function that is gone
            super()._save_index({key: name for key, name in overloads.items() if self._kept(key)})

    def _kept(self, key: Any) -> bool:
        """Whether the index entry ``key`` can still be pickled."""
        try:
            self._dump(key)
        except ReferenceError:
            return False
        return True


class _TolerantCache(FunctionCache):
    """numba's per-function cache with a :class:`_TolerantIndex`: an entry that cannot be
    loaded is compiled again (and rewritten by the save that follows), a save that fails
    leaves the compiled code in memory."""

    def __init__(self, py_func: Any) -> None:
        super().__init__(py_func)
        self._cache_file.__class__ = _TolerantIndex

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        try:
            return super().load_overload(sig, target_context)
        except Exception as error:  # a damaged data file, or one that cannot be rebuilt
            function = f"{self._py_func.__module__}.{self._py_func.__qualname__}"
            _tell_damaged(f"{self._cache_path} (an entry of {function})", error)
            return None

    def save_overload(self, sig: Any, data: Any) -> None:
        try:
            super().save_overload(sig, data)
        except OSError as error:  # a full disk, a directory that became read-only
            _tell_unwritable(error)


def cache_unwritable() -> bool:
    """Whether numba's cache could not be written in this process (the compiled code of this
    run is then lost when it ends)."""
    return "unwritable" in _told


def _tell_damaged(where: str, error: Exception) -> None:
    _tell_once(
        "damaged",
        f"numba's cache could not be read at {where} ({type(error).__name__}: {error}); "
        "what it held is compiled again and rewritten",
    )


def _tell_unwritable(error: Exception) -> None:
    _tell_once(
        "unwritable",
        f"numba's cache cannot be written ({type(error).__name__}: {error}); compiled code "
        "is kept in memory for this run",
    )


def _disk_cache(function: Any) -> FunctionCache | NullCache:
    """A :class:`_TolerantCache` for ``function``, or no cache (said once) where numba finds
    no directory it can write (it raises ``RuntimeError``: no locator available)."""
    try:
        return _TolerantCache(function)
    except RuntimeError as error:
        _tell_unwritable(error)
        return NullCache()


class PlainArgsDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, compiling calls from compiled code for :func:`_plain` types."""

    def get_call_template(self, args: Any, kws: Any) -> Any:
        plain_args = tuple(_plain(arg) for arg in args)
        plain_kws = {name: _plain(arg) for name, arg in kws.items()}
        return super().get_call_template(plain_args, plain_kws)


def njit(*args: Any, **options: Any) -> Any:
    """``numba.njit`` (same arguments) making a :class:`PlainArgsDispatcher`."""

    cache = options.pop("cache", False)

    def decorate(function: Any) -> Any:
        dispatcher = numba.njit(**options)(function)  # numba's cache is replaced by ours
        if isinstance(dispatcher, CPUDispatcher):
            dispatcher.__class__ = PlainArgsDispatcher
            if cache:
                dispatcher._cache = _disk_cache(function)
        return dispatcher

    if args and callable(args[0]) and not options:
        return decorate(args[0])
    if args:
        raise TypeError("njit takes the function or keyword options only (no signatures)")
    return decorate
