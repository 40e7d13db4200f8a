"""The public API and its pages (no Sphinx import here).

The API is the ``__all__`` of the public modules (:data:`PUBLIC_MODULES`: the two packages,
their env packages and the subpackages the guide imports from) and the PettingZoo env
modules, which have pages of their own (``docs/environments/``); every other module is
internal and has no ``__all__``. Each name is documented once, on the page of the first
public module that exports it (so ``BoardGame`` is ``connectn_env.BoardGame``); the pages of
the others link there. :meth:`PublicApi.locate` answers what a dotted path in a docstring
names (looked up as Python would): its documented name, or that it exists but is not
documented (internal, or another library's), or nothing.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

PACKAGES = ("connectn_env", "agents")
PUBLIC_MODULES = (
    "connectn_env",
    "agents",
    "agents.alphazero",
    "connectn_env.arena",
    "connectn_env.envs",
    "connectn_env.games",
    "connectn_env.gridpath",
    "connectn_env.gym",
    "connectn_env.ladder",
    "connectn_env.openspiel_games",
    "connectn_env.records",
    "connectn_env.render",
)
MAX_VALUE_LENGTH = 80
PYTHON_ROLE = re.compile(
    r":(?P<role>(?:py:)?(?:class|func|meth|attr|data|obj|exc|const)):`(?P<body>[^`<>]+|[^`<>]*<[^`<>]+>)`"
)
_MISSING = object()


@dataclass(frozen=True)
class Located:
    """What a dotted path names.

    Attributes:
        home: Full name under which the object is documented, or None (another library's,
            or internal).
        ours: True if the object belongs to the packages.
    """

    home: str | None
    ours: bool


def is_ours(module_name: str | None) -> bool:
    """True for ``connectn_env``, ``agents`` and their modules."""
    return bool(module_name) and module_name.split(".")[0] in PACKAGES


def is_data(value: Any) -> bool:
    """True for what autodoc documents as module data: not a class, function, compiled
    (numba) function or module."""
    return not (
        inspect.isclass(value)
        or inspect.isroutine(value)
        or inspect.ismodule(value)
        or (callable(value) and hasattr(value, "py_func"))
    )


def plain_value(value: Any) -> bool:
    """True if the value is worth showing on the page: a short number, string, bool, None, or
    a tuple/frozenset of them (not a registry object or a large dict)."""

    def plain(item: Any) -> bool:
        if isinstance(item, (tuple, frozenset)):
            return all(plain(element) for element in item)
        return item is None or type(item) in {bool, int, float, str}

    return plain(value) and len(repr(value)) <= MAX_VALUE_LENGTH


def ivar_names(cls: type) -> set[str]:
    """Names listed in the ``Attributes:`` sections of the docstrings of a class and its
    bases (instance attributes among them, which the class itself does not have)."""
    names: set[str] = set()
    for owner in cls.__mro__:
        names |= _attributes_section(inspect.cleandoc(vars(owner).get("__doc__") or ""))
    return names


def _attributes_section(doc: str) -> set[str]:
    names, inside, indent = set(), False, None
    for line in doc.splitlines():
        if line.strip() == "Attributes:":
            inside, indent = True, None
            continue
        if not inside or not line.strip():
            continue
        width = len(line) - len(line.lstrip())
        if width == 0:
            inside = False
            continue
        indent = width if indent is None else indent
        match = re.match(r"(\w+)\s*(\(.*\))?:", line.strip())
        if width == indent and match:
            names.add(match[1])
    return names


class PublicApi:
    """The public modules, the names each documents and the documented name of every object
    they export.

    Args:
        modules: The public modules, in the order that decides where a name exported by
            several is documented.
    """

    def __init__(self, modules: tuple[str, ...] = PUBLIC_MODULES) -> None:
        self.modules = {name: importlib.import_module(name) for name in modules}
        self._homes: dict[tuple[int, str], str] = {}
        for module_name, module in self.modules.items():
            for name, value in self.exported(module):
                self._homes.setdefault((id(value), name), f"{module_name}.{name}")

    @staticmethod
    def exported(module: ModuleType) -> Iterator[tuple[str, Any]]:
        """``(name, value)`` of the module's ``__all__``, modules left out (the env modules
        have their own pages)."""
        for name in module.__all__:
            value = getattr(module, name)
            if not inspect.ismodule(value):
                yield name, value

    def home(self, value: Any, name: str) -> str | None:
        """Full name under which ``value`` (called ``name``) is documented, or None."""
        return self._homes.get((id(value), name))

    def page(self, module_name: str) -> str:
        """The reST page of a public module: its docstring, the names documented there (data
        explicitly: autodoc skips module data without a ``#:`` comment), links to those
        documented on another page, and its env modules' pages."""
        module = self.modules[module_name]
        elsewhere, data, moved = [], [], []
        for name, value in self.exported(module):
            home = self.home(value, name)
            if home != f"{module_name}.{name}":
                moved.append(f"* :py:obj:`{name} <{home}>` (``{home}``)")
            elif is_data(value):
                data.append(
                    f".. autodata:: {home}" + ("" if plain_value(value) else "\n   :no-value:")
                )
            if home != f"{module_name}.{name}" or is_data(value):
                elsewhere.append(name)
        lines = [module_name, "=" * len(module_name), "", f".. automodule:: {module_name}"]
        if elsewhere:
            lines.append(f"   :exclude-members: {', '.join(elsewhere)}")
        lines += ["", *(f"{directive}\n" for directive in data)]
        if moved:
            lines += [".. rubric:: Also importable from here", "", *moved, ""]
        envs = [name for name in module.__all__ if inspect.ismodule(getattr(module, name))]
        if envs:
            lines += [".. rubric:: PettingZoo environment modules", ""]
            lines += [f"* :doc:`{module_name}.{name} </environments/{name}>`" for name in envs]
        return "\n".join(lines).rstrip() + "\n"

    def locate(self, path: str) -> Located | None:
        """What ``path`` names (``numpy.ndarray``, ``connectn_env.games.game.BoardGame.make``,
        ``connectn_env.games.state.np``), or None if nothing is there."""
        parts = path.split(".")
        for split in range(len(parts), 0, -1):
            module_name = ".".join(parts[:split])
            module = _import(module_name)
            if module is None:
                continue
            rest = parts[split:]
            if not rest:
                return Located(
                    module_name if module_name in self.modules else None, is_ours(module_name)
                )
            chain = [getattr(module, rest[0], _MISSING)]
            for attribute in rest[1:]:
                chain.append(getattr(chain[-1], attribute, _MISSING))
            value = chain[0]
            if value is _MISSING:
                return None
            origin = value.__name__ if inspect.ismodule(value) else module_name
            defined_in = getattr(value, "__module__", None)
            ours = is_ours(defined_in if isinstance(defined_in, str) else origin)
            home = self.home(value, rest[0])
            if chain[-1] is _MISSING:  # an instance attribute of an Attributes: section
                parent = chain[-2]
                if len(rest) == 2 and inspect.isclass(parent) and rest[1] in ivar_names(parent):
                    return Located(home, True)
                return None
            if home and inspect.isclass(value) and len(rest) > 1:  # inherited: the base's
                owner = next(c for c in value.__mro__ if rest[1] in vars(c))
                home = self.home(owner, owner.__name__) or home
            return Located(".".join([home, *rest[1:]]) if home else None, ours)
        return None

    def locate_anywhere(self, path: str) -> Located | None:
        """What ``path`` names when its first name is not in scope (imported for type
        checking only, or not at all): the class or function of that name that a module of
        the packages defines (the documented name if exactly one of them has one)."""
        first = path.split(".")[0]
        found = []
        for module_name, module in _modules_of_the_packages():
            value = getattr(module, first, None)
            if getattr(value, "__module__", None) == module_name:
                found.append(self.locate(f"{module_name}.{path}"))
        homes = {located.home for located in found if located and located.home}
        if len(homes) == 1:
            return Located(homes.pop(), True)
        return Located(None, True) if any(found) else None

    def qualify_roles(self, text: str, contexts: list[str]) -> str:
        """Python roles of ``text`` (``:data:`TACTICS```, ``:meth:`symmetries```) pointed at
        the documented name of what they name in the first of ``contexts`` (dotted paths: a
        class, then its module) where the name exists; the shown text stays as written. For
        text read outside its own module: a game class's docstring on its environment page."""

        def qualify(match: re.Match[str]) -> str:
            role, body = match["role"], match["body"].strip()
            title, _, target = body.rpartition("<") if body.endswith(">") else ("", "", body)
            target, title = target.rstrip(">").strip(), title.strip()
            if target.startswith("!"):
                return match[0]
            name = target.lstrip("~.").removesuffix("()")
            for context in contexts:
                located = self.locate(f"{context}.{name}")
                if located is not None and located.home:
                    break
            else:
                return match[0]
            if title:
                return f":{role}:`{title} <{located.home}>`"
            if target.startswith("~"):
                return f":{role}:`~{located.home}`"
            parentheses = "()" if role.removeprefix("py:") in {"func", "meth"} else ""
            return f":{role}:`{name}{parentheses} <{located.home}>`"

        return PYTHON_ROLE.sub(qualify, text)


@functools.cache
def _modules_of_the_packages() -> tuple[tuple[str, ModuleType], ...]:
    """Every module of the packages, imported (those that cannot be are left out)."""
    for package in PACKAGES:
        for info in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            _import(info.name)
    return tuple((name, module) for name, module in sys.modules.items() if is_ours(name))


def _import(module_name: str) -> ModuleType | None:
    try:
        return importlib.import_module(module_name)
    except Exception:
        return None
