"""The PettingZoo module of every game family, made from the game registry.

``connectn_env.connect_n_v0``, ``connectn_env.hex_v0``, ... follow PettingZoo's classic
layout (``env()``, ``raw_env()``, a docstring with the spec table) but are not files: a new
game family gets its module by being registered. ``import connectn_env`` installs them in
``sys.modules``, so ``from connectn_env import hex_v0`` and ``import connectn_env.hex_v0``
work, and objects built by them pickle.
"""

from __future__ import annotations

import inspect
import sys
import textwrap
from types import ModuleType
from typing import Any

from pettingzoo import AECEnv

from connectn_env.envs.base import BoardGameEnv, wrap_classic
from connectn_env.games import REGISTRY, BoardGame

PACKAGE = "connectn_env"
ENV_OPTIONS = ("render_mode", "illegal_action")


def env_module_name(game_class: type[BoardGame]) -> str:
    """``"hex_v0"`` for Hex: the module's name in the package."""
    return f"{game_class.name}_v0"


def _make_factories(game_class: type[BoardGame], module_name: str) -> tuple[Any, Any]:
    game_parameters = {p.name for p in game_class.PARAMETERS}
    env_name = env_module_name(game_class)

    def raw_env(**kwargs: Any) -> BoardGameEnv:
        options = {key: kwargs.pop(key) for key in ENV_OPTIONS if key in kwargs}
        unknown = sorted(set(kwargs) - game_parameters)
        if unknown:
            allowed = ", ".join([*(p.name for p in game_class.PARAMETERS), *ENV_OPTIONS])
            raise TypeError(
                f"{env_name}.raw_env got unexpected keyword {unknown[0]!r}; allowed: {allowed}"
            )
        return BoardGameEnv(game_class(**kwargs), **options)

    def env(**kwargs: Any) -> AECEnv:
        if "illegal_action" in kwargs:
            raise TypeError(
                f"{env_name}.env() always makes illegal actions lose; use "
                f"{env_name}.raw_env(illegal_action=...) to choose"
            )
        return wrap_classic(raw_env(illegal_action="lose", **kwargs))

    game_signature = [
        inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default)
        for p in game_class.PARAMETERS
    ]
    render_mode = inspect.Parameter("render_mode", inspect.Parameter.KEYWORD_ONLY, default=None)
    illegal = inspect.Parameter("illegal_action", inspect.Parameter.KEYWORD_ONLY, default="raise")
    raw_env.__signature__ = inspect.Signature([*game_signature, render_mode, illegal])
    env.__signature__ = inspect.Signature([*game_signature, render_mode])
    raw_env.__doc__ = (
        f"A {game_class.__name__} AEC env (illegal actions raise ``IllegalActionError``, or "
        "lose with ``illegal_action='lose'``); see the module documentation."
    )
    env.__doc__ = (
        f"A wrapped {game_class.__name__} AEC env (illegal actions lose, call order enforced), "
        "PettingZoo's classic convention; see the module documentation."
    )
    for function in (raw_env, env):
        function.__module__ = module_name
        function.__qualname__ = function.__name__
    return raw_env, env


def module_doc(game_class: type[BoardGame]) -> str:
    """The module docstring: the game's description, then PettingZoo's spec table."""
    name = env_module_name(game_class)
    ids = [e.pettingzoo_id for e in REGISTRY.values() if e.game_class is game_class]
    default = game_class()
    rows = [
        ("Import", f"``from connectn_env import {name}``"),
        ("Registry ids", ", ".join(f"``{i}``" for i in ids)),
        ("Actions", "Discrete"),
        ("Parallel API", "No"),
        ("Agents", '``agents = ["player_0", "player_1"]`` (``player_0`` moves first)'),
        ("Action shape", "``(1,)``"),
        ("Action values", game_class.action_help),
        (
            "Observation shape",
            '``{"observation": (rows, cols, 2), "action_mask": (num_actions,)}``',
        ),
        (
            "Observation values",
            "int8 0/1: plane 0 own stones, plane 1 opponent stones; mask 1 = legal",
        ),
        ("Rewards", "+1 win, -1 loss, 0 draw, at the end of the game"),
        ("Default board", f"{default.rows} x {default.cols}, {default.num_actions} actions"),
    ]
    width = max(len(label) for label, _ in rows)
    lines = [f"| {label:<{width}} | {text} |" for label, text in rows]
    lines.insert(1, f"|{'-' * (width + 2)}|---|")  # a Markdown table, as PettingZoo's
    table = "\n".join(lines)
    parameters = "\n".join(f"- ``{p.describe()}``: {p.help}" for p in game_class.PARAMETERS)
    description = inspect.cleandoc(game_class.__doc__ or "").split("\n\nArgs:")[0]
    return (
        f"{game_class.summary[:1].upper()}{game_class.summary[1:]}.\n\n{table}\n\n"
        f"{description}\n\nParameters:\n\n{parameters}\n"
        '- ``render_mode``: ``"human"``, ``"rgb_array"``, ``"ansi"`` or None.\n\n'
        + textwrap.dedent(
            """\
            ``env()`` follows PettingZoo's classic convention for an illegal (masked-out)
            action: the mover gets -1 and the game ends. ``raw_env()`` raises
            ``IllegalActionError`` instead and leaves the env unchanged
            (``raw_env(illegal_action="lose")`` gives the classic convention without the
            order-enforcing wrapper). Actions outside the action space raise ``ValueError``
            (out of range) or ``TypeError`` (not an integer) in both.

            The position is ``env.unwrapped.game_state``: a ``GameState`` with OpenSpiel's
            planning interface, which search agents clone.

            Version history: v0, first release.
            """
        )
    )


def make_env_module(game_class: type[BoardGame]) -> ModuleType:
    """The PettingZoo module of ``game_class`` (not yet installed)."""
    module_name = f"{PACKAGE}.{env_module_name(game_class)}"
    module = ModuleType(module_name, module_doc(game_class))
    module.raw_env, module.env = _make_factories(game_class, module_name)
    module.__all__ = ["env", "raw_env"]
    return module


def install_env_modules(package: ModuleType) -> dict[str, ModuleType]:
    """Make the module of every registered family an attribute of ``package`` and an entry of
    ``sys.modules``; returns them by name."""
    modules = {}
    for game_class in REGISTRY.families():
        module = make_env_module(game_class)
        short = env_module_name(game_class)
        sys.modules[module.__name__] = module
        setattr(package, short, module)
        modules[short] = module
    return modules
