"""Where each public object of the packages is documented (no Sphinx import here).

Packages re-export names of their modules (``connectn_env.games`` has ``BoardGame`` from
``connectn_env.games.game``, ``connectn_env`` has it again). The site documents each object
once, at its *home*: the module that defines it if that module lists it, else the deepest
module that lists it. :class:`ApiMap` walks the packages (every public module, found on disk:
a module added by anyone is in it at the next build), and answers the API template (which names
of a module live elsewhere, which data it owns) and the reference resolver (the home of any
public path of an object, and whether a path is ours, external or nothing at all).
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

PACKAGES = ("connectn_env", "agents")
MAX_VALUE_LENGTH = 80
PYTHON_ROLE = re.compile(
    r":(?P<role>(?:py:)?(?:class|func|meth|attr|data|obj|exc|const)):`(?P<body>[^`<>]+|[^`<>]*<[^`<>]+>)`"
)
_MISSING = object()


@dataclass(frozen=True)
class Located:
    """What a dotted path names.

    Attributes:
        home: Full name under which the object is documented, or None (external, or a
            private name of the packages).
        ours: True if the object belongs to the packages.
    """

    home: str | None
    ours: bool


def is_ours(module_name: str | None) -> bool:
    """True for ``connectn_env``, ``agents`` and their modules."""
    return bool(module_name) and module_name.split(".")[0] in PACKAGES


def is_public_module(name: str) -> bool:
    """False for ``connectn_env.foo._private`` and the like."""
    return not any(part.startswith("_") for part in name.split("."))


@functools.cache
def assigned_names(module: ModuleType) -> frozenset[str]:
    """Names the module's source assigns at top level (``X = ...``, ``X: T = ...``, also
    inside module-level ``if``/``try``/``with``): the data it defines rather than imports."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError):  # no source (a generated module)
        return frozenset()

    def statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
        for statement in body:
            yield statement
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            for field in ("body", "orelse", "finalbody", "handlers"):
                yield from statements(getattr(statement, field, []))

    names = set()
    for statement in statements(tree.body):
        targets = []
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
            targets = [statement.target]
        for target in targets:
            names.update(node.id for node in ast.walk(target) if isinstance(node, ast.Name))
    return frozenset(names)


def documented_names(module: ModuleType) -> list[str]:
    """The names the API page of ``module`` documents: ``__all__`` if it has one, else its
    public classes and functions defined there (autodoc's rule) and the data its source
    assigns; modules are never included (the PettingZoo env modules have their own pages)."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = []
        for name, value in vars(module).items():
            if name.startswith("_") or inspect.ismodule(value):
                continue
            if is_data(value):
                if name in assigned_names(module):
                    names.append(name)
            elif getattr(value, "__module__", None) == module.__name__:
                names.append(name)
    return [name for name in names if not inspect.ismodule(getattr(module, name, None))]


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


class ApiMap:
    """The documented modules of the packages and the home of every object they list.

    Args:
        packages: Top-level package names.
        on_import_error: Called with (module name, exception) for a module that cannot be
            imported (it is then left out); default: raise.
    """

    def __init__(
        self,
        packages: tuple[str, ...] = PACKAGES,
        on_import_error: Callable[[str, BaseException], None] | None = None,
    ) -> None:
        self.modules: dict[str, ModuleType] = {}
        for package_name in packages:
            package = importlib.import_module(package_name)
            self.modules[package_name] = package
            for info in pkgutil.walk_packages(package.__path__, f"{package_name}."):
                if not is_public_module(info.name):
                    continue
                try:
                    self.modules[info.name] = importlib.import_module(info.name)
                except Exception as error:
                    if on_import_error is None:
                        raise
                    on_import_error(info.name, error)
        listed: dict[tuple[int, str], list[str]] = {}
        for module_name, module in self.modules.items():
            for name in documented_names(module):
                value = getattr(module, name, _MISSING)
                if value is not _MISSING:
                    listed.setdefault((id(value), name), []).append(module_name)
        self._homes: dict[tuple[int, str], str] = {}
        self.by_short_name: dict[str, set[str]] = {}
        for (key, name), module_names in listed.items():
            value = getattr(self.modules[module_names[0]], name)
            home = f"{self._home_module(value, name, module_names)}.{name}"
            self._homes[key, name] = home
            self.by_short_name.setdefault(name, set()).add(home)

    def _home_module(self, value: Any, name: str, module_names: list[str]) -> str:
        """The defining module for a class or function listed there; for data, the module
        whose source assigns it; else (or among several) the deepest module."""
        defined_in = getattr(value, "__module__", None)
        if getattr(value, "__qualname__", None) == name and defined_in in module_names:
            return defined_in
        assigning = [m for m in module_names if name in assigned_names(self.modules[m])]
        return max(assigning or module_names, key=lambda m: (m.count("."), m))

    def home(self, module: ModuleType, name: str) -> str | None:
        """Full name under which ``module.name`` is documented, or None."""
        return self._homes.get((id(getattr(module, name, _MISSING)), name))

    def reexports(self, module_name: str) -> list[tuple[str, str]]:
        """``(name, home)`` of the names ``module_name`` lists that are documented elsewhere."""
        module = self.modules[module_name]
        moved = []
        for name in documented_names(module):
            home = self.home(module, name)
            if home is not None and home != f"{module_name}.{name}":
                moved.append((name, home))
        return moved

    def data(self, module_name: str) -> list[tuple[str, bool]]:
        """``(name, show_value)`` of the data (constants, instances, type aliases) documented
        in ``module_name`` (see :func:`plain_value`)."""
        module = self.modules[module_name]
        return [
            (name, plain_value(getattr(module, name)))
            for name in documented_names(module)
            if hasattr(module, name)
            and is_data(getattr(module, name))
            and self.home(module, name) == f"{module_name}.{name}"
        ]

    def listed_modules(self, module_name: str) -> list[str]:
        """Names of the modules ``module_name`` lists in ``__all__`` (the PettingZoo env
        modules of ``connectn_env``, which have their own pages)."""
        module = self.modules[module_name]
        return [
            name
            for name in getattr(module, "__all__", ())
            if inspect.ismodule(getattr(module, name, None))
        ]

    def locate(self, path: str) -> Located | None:
        """What ``path`` names (``numpy.ndarray``, ``connectn_env.games.BoardGame.make``,
        ``connectn_env.games.state.np``), or None if nothing is there."""
        parts = path.split(".")
        for split in range(len(parts), 0, -1):
            module_name = ".".join(parts[:split])
            module = self.modules.get(module_name) or _import(module_name)
            if module is None:
                continue
            rest = parts[split:]
            if not rest:
                return Located(
                    module_name if module_name in self.modules else None, is_ours(module_name)
                )
            value = getattr(module, rest[0], _MISSING)
            parent, target = module, value
            for attribute in rest[1:]:
                parent, target = target, getattr(target, attribute, _MISSING)
            if target is _MISSING:
                if len(rest) == 2 and inspect.isclass(parent) and rest[1] in ivar_names(parent):
                    home = self.home(module, rest[0])  # an instance attribute: its class
                    return Located(home, True) if home else None
                return None
            origin = value.__name__ if inspect.ismodule(value) else module_name
            defined_in = getattr(value, "__module__", None)
            if isinstance(defined_in, str):
                origin = defined_in
            if not is_ours(origin):
                return Located(None, False)
            home = self.home(module, rest[0])
            if home and inspect.isclass(value) and len(rest) > 1:
                home = self._owner_home(value, rest[1]) or home
            return Located(".".join([home, *rest[1:]]) if home else None, True)
        return None

    def _owner_home(self, cls: type, attribute: str) -> str | None:
        """Home of the class of ``cls``'s MRO that defines ``attribute`` (an inherited method
        is documented on its base class)."""
        for owner in cls.__mro__:
            if attribute in vars(owner):
                return self._homes.get((id(owner), owner.__name__))
        return None

    def qualify_roles(self, text: str, contexts: list[str]) -> str:
        """Python roles of ``text`` (``:data:`TACTICS```, ``:meth:`symmetries```) pointed at
        the home of what they name in the first of ``contexts`` (dotted paths: a class, then
        its module) where the name exists; the shown text stays as written. For text read
        outside its own module: a module's summary in its package's table, a game class's
        docstring on its environment page."""

        def qualify(match: re.Match[str]) -> str:
            role, body = match["role"], match["body"].strip()
            title, _, target = body.rpartition("<") if body.endswith(">") else ("", "", body)
            target, title = target.rstrip(">").strip(), title.strip()
            if target.startswith("!"):
                return match[0]
            shortened = target.startswith("~")
            name = target.lstrip("~.").removesuffix("()")
            for context in contexts:
                located = self.locate(f"{context}.{name}")
                if located is not None and located.home:
                    break
            else:
                return match[0]
            if title:
                return f":{role}:`{title} <{located.home}>`"
            if shortened:
                return f":{role}:`~{located.home}`"
            parentheses = "()" if role.removeprefix("py:") in {"func", "meth"} else ""
            return f":{role}:`{name}{parentheses} <{located.home}>`"

        return PYTHON_ROLE.sub(qualify, text)


def _import(module_name: str) -> ModuleType | None:
    try:
        return importlib.import_module(module_name)
    except Exception:
        return None


__all__ = [
    "PACKAGES",
    "ApiMap",
    "Located",
    "assigned_names",
    "documented_names",
    "is_data",
    "is_ours",
    "is_public_module",
    "ivar_names",
    "plain_value",
]
