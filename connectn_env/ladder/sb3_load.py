"""Reading a Stable-Baselines3 model zip without unpickling anything it holds.

An SB3 ``.zip`` keeps its weights as torch files and its settings in a JSON file, ``data``,
where each setting that is not JSON (the policy class, the observation and action spaces,
the schedules, what the last rollout left) is a base64 *pickle*, which SB3's own ``load``
unpickles: a pickle runs whatever code it names, so a model file downloaded from anyone
could run any command. Here:

- the weights are read with ``torch.load(weights_only=True)`` (tensors and plain data only);
- every setting is rebuilt from the readable JSON SB3 writes beside each pickle, and given to
  SB3's ``load`` as ``custom_objects``, so that it unpickles nothing: the policy class is one
  of the algorithm's own (MaskablePPO's or PPO's), found by its module and name; a space is
  a ``Box`` with uniform bounds or a ``Discrete``; ``policy_kwargs`` are JSON values and
  torch's or SB3's activation, optimizer and feature-extractor classes named by their
  module; what only training uses (schedules, the last rollout, episode buffers, the
  environment) is replaced by constants or nothing.

A pickled setting that cannot be rebuilt so (a policy or extractor class of the user's own,
a callable, another algorithm) is refused with the risk named; ``unpickle=True`` lets SB3
unpickle the file as it normally does, for a file trusted as a program.
"""

from __future__ import annotations

import importlib
import io
import json
import re
import zipfile
from typing import Any

import numpy as np

from connectn_env.safe_files import read_regular_bytes

MAX_MODEL_BYTES = 2**30  # a model file, and the members of its zip once unpacked
_MAX_DATA_BYTES = 2**24  # its "data" settings
_MAX_SPACE_SIZE = 10**7  # elements of a space's shape, actions of a Discrete
_PICKLE = ":serialized:"
_CLASS = re.compile(r"<class '([A-Za-z_][\w.]*)'>")
_INIT = re.compile(r"<function ([A-Za-z_]\w*)\.__init__ at ")
_SPACES = ("gymnasium.spaces", "gym.spaces")
_POLICY_KWARG_MODULES = (  # classes a policy_kwargs entry may name
    "torch.nn.modules.activation.",
    "torch.optim.",
    "stable_baselines3.common.torch_layers.",
)
# Settings only training uses: given a constant, or nothing, instead of their pickle.
_TRAINING_ONLY: dict[str, Any] = {
    "learning_rate": 0.0,
    "lr_schedule": None,  # made again from learning_rate by SB3
    "clip_range": 0.0,
    "clip_range_vf": None,
    "rollout_buffer_class": None,  # the algorithm's default
    "rollout_buffer_kwargs": {},
    "_last_obs": None,
    "_last_episode_starts": None,
    "_last_original_obs": None,
    "ep_info_buffer": None,
    "ep_success_buffer": None,
    "action_noise": None,
}
_NEVER_FROM_FILE: dict[str, Any] = {  # plain JSON too: an "env" id would be gym.make'd
    "env": None,
    "_vec_normalize_env": None,
}


def load_sb3_model(path: str, *, unpickle: bool = False) -> Any:
    """The MaskablePPO or PPO model saved in ``path``, loaded on the CPU.

    Args:
        path: The ``.zip`` that ``model.save`` wrote.
        unpickle: Let SB3 unpickle the pickled settings the file holds (runs their code:
            only for a file trusted as a program). False: rebuild them from the file's JSON,
            or refuse the file.

    Raises:
        ValueError: the file cannot be read, is not an SB3 model of MaskablePPO or PPO, or
            holds a pickled setting that cannot be rebuilt without unpickling it (named, with
            the risk and how to accept it).
    """
    try:
        from sb3_contrib import MaskablePPO
        from stable_baselines3 import PPO
    except ImportError as error:
        raise ValueError(
            f"sb3 model {path!r} needs stable-baselines3 and sb3-contrib: pip install "
            f'".[rl]" ({error})'
        ) from None
    try:
        raw = read_regular_bytes(path, max_bytes=MAX_MODEL_BYTES, what="an SB3 model")
    except (OSError, ValueError) as error:
        raise ValueError(f"sb3 model {path!r} cannot be read: {error}") from None
    data = _read_zip(path, raw)
    if unpickle:
        return _load_either(path, raw, (MaskablePPO, PPO), dict(_NEVER_FROM_FILE))
    algorithms = _algorithms(path, data, (MaskablePPO, PPO))
    return _load_either(path, raw, algorithms, _settings(path, data, algorithms[0]))


def _read_zip(path: str, raw: bytes) -> dict[str, Any]:
    """The ``data`` settings of the zip in ``raw``, after every weights file in it was read
    as weights only (so that SB3's own reading of them, whatever its version, unpickles
    nothing else)."""
    import torch

    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            members = archive.infolist()
            if sum(member.file_size for member in members) > MAX_MODEL_BYTES:
                raise ValueError(f"it unpacks to more than {MAX_MODEL_BYTES:,} bytes")
            names = [member.filename for member in members]
            if "data" not in names:
                raise ValueError("it has no 'data' settings")
            if archive.getinfo("data").file_size > _MAX_DATA_BYTES:
                raise ValueError(f"its 'data' settings exceed {_MAX_DATA_BYTES:,} bytes")
            data = json.loads(archive.read("data").decode("utf-8"))
            for name in names:
                if name.endswith(".pth"):
                    try:
                        torch.load(io.BytesIO(archive.read(name)), "cpu", weights_only=True)
                    except Exception as error:  # torch's unpickler raises many kinds
                        raise ValueError(
                            f"its {name!r} is not weights only (tensors and plain data): "
                            f"{type(error).__name__}: {str(error).splitlines()[0][:300]}"
                        ) from None
    except (zipfile.BadZipFile, UnicodeDecodeError, RecursionError, OSError) as error:
        raise ValueError(f"sb3 model {path!r} is not an SB3 model zip: {error}") from None
    except ValueError as error:  # a JSONDecodeError too
        raise ValueError(f"sb3 model {path!r} is not an SB3 model zip: {error}") from None
    if not isinstance(data, dict):
        raise ValueError(f"sb3 model {path!r}: its 'data' settings are not a JSON object")
    return data


def _load_either(path: str, raw: bytes, algorithms: tuple, custom: dict[str, Any]) -> Any:
    """The first of ``algorithms`` whose ``load`` reads ``raw`` with ``custom`` objects."""
    failures = []
    for algorithm in algorithms:
        try:
            return algorithm.load(io.BytesIO(raw), device="cpu", custom_objects=custom)
        except Exception as error:  # a model of another kind or shape, damaged weights
            failures.append(f"{algorithm.__name__}: {type(error).__name__}: {error}")
    names = " nor ".join(algorithm.__name__ for algorithm in algorithms)
    raise ValueError(f"sb3 model {path!r} cannot be loaded as {names}: {'; '.join(failures)}")


def _refuse(path: str, key: str, entry: Any, why: str) -> ValueError:
    kind = entry.get(":type:", "?") if isinstance(entry, dict) else "?"
    return ValueError(
        f"sb3 model {path!r}: its setting {key!r} is a pickled object ({str(kind)[:100]}) "
        f"that cannot be rebuilt without unpickling it ({why}); unpickling runs whatever code "
        f"the file holds (any command), so it is not done unless you trust the file as a "
        f"program: sb3:path={path},unpickle=true"
    )


def _algorithms(path: str, data: dict[str, Any], algorithms: tuple) -> tuple:
    """The algorithm whose policy classes include the file's (by module); all of them for a
    policy named by an alias (``"MlpPolicy"``)."""
    entry = data.get("policy_class")
    if isinstance(entry, str):
        return algorithms
    module = entry.get("__module__") if isinstance(entry, dict) else None
    for algorithm in algorithms:
        if any(policy.__module__ == module for policy in algorithm.policy_aliases.values()):
            return (algorithm,)
    names = " or ".join(algorithm.__name__ for algorithm in algorithms)
    raise _refuse(path, "policy_class", entry, f"not a policy of {names}")


def _settings(path: str, data: dict[str, Any], algorithm: Any) -> dict[str, Any]:
    """Every setting of ``data``, the pickled ones rebuilt (SB3 then unpickles none)."""
    settings = {}
    for key, entry in data.items():
        if key in _NEVER_FROM_FILE:
            settings[key] = _NEVER_FROM_FILE[key]
        elif not (isinstance(entry, dict) and _PICKLE in entry):
            settings[key] = entry
        elif key == "policy_class":
            settings[key] = _policy_class(path, entry, algorithm)
        elif key in ("observation_space", "action_space"):
            settings[key] = _space(path, key, entry)
        elif key == "policy_kwargs":
            settings[key] = _policy_kwargs(path, entry)
        elif key in _TRAINING_ONLY:
            settings[key] = _TRAINING_ONLY[key]
        else:
            raise _refuse(path, key, entry, "not a setting this loader knows")
    return settings


def _policy_class(path: str, entry: dict[str, Any], algorithm: Any) -> type:
    match = _INIT.match(str(entry.get("__init__", "")))
    for policy in algorithm.policy_aliases.values():
        module = entry.get("__module__")
        if match and policy.__name__ == match.group(1) and policy.__module__ == module:
            return policy
    raise _refuse(path, "policy_class", entry, f"not one of {algorithm.__name__}'s policies")


def _space(path: str, key: str, entry: dict[str, Any]) -> Any:
    """A ``Discrete`` or a ``Box`` with uniform bounds, from what SB3 wrote beside it."""
    from gymnasium import spaces

    kind = _CLASS.fullmatch(str(entry.get(":type:", "")))
    name = kind.group(1) if kind else ""
    try:
        if name in (f"{module}.discrete.Discrete" for module in _SPACES):
            size = _integer(entry.get("n"), 1, _MAX_SPACE_SIZE)
            return spaces.Discrete(size, start=_integer(entry.get("start", "0"), -(2**62), 2**62))
        if name in (f"{module}.box.Box" for module in _SPACES):
            shape = entry.get("_shape")
            if not (isinstance(shape, list) and all(type(n) is int and n > 0 for n in shape)):
                raise ValueError(f"shape {str(shape)[:60]}")
            if np.prod(shape, dtype=float) > _MAX_SPACE_SIZE:
                raise ValueError(f"shape {shape} too large")
            dtype = np.dtype(str(entry.get("dtype"))[:20])
            if dtype.kind not in "biuf":
                raise ValueError(f"dtype {dtype}")
            low, high = _bound(entry.get("low")), _bound(entry.get("high"))
            return spaces.Box(low, high, tuple(shape), dtype)
    except (TypeError, ValueError) as error:
        raise _refuse(path, key, entry, f"a {name.rpartition('.')[2]} of {error}") from None
    raise _refuse(path, key, entry, "a space other than Box or Discrete")


def _integer(text: Any, low: int, high: int) -> int:
    if not re.fullmatch(r"-?[0-9]{1,20}", str(text)) or not low <= int(str(text)) <= high:
        raise ValueError(f"a number {str(text)[:30]!r} out of range")
    return int(str(text))


def _bound(text: Any) -> float:
    """The one value of a space's bound as numpy prints it (``[[0 0] [0 0]]``)."""
    values = set(re.findall(r"[^\s\[\],]+", str(text))) - {"..."}
    if len(values) != 1:
        raise ValueError(f"bounds other than one value: {str(text)[:40]!r}")
    return float(values.pop())


def _policy_kwargs(path: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The policy's keyword arguments: JSON values, and classes of torch or SB3 named by
    their module (``<class 'torch.nn.modules.activation.ReLU'>``)."""
    kwargs = {}
    for name, value in entry.items():
        if name.startswith(":"):
            continue
        kind = _CLASS.fullmatch(value) if isinstance(value, str) else None
        if kind is not None:
            value = _named_class(kind.group(1))
            if value is None:
                raise _refuse(path, "policy_kwargs", entry, f"{name} is {kind.group(1)}")
        elif isinstance(value, str) and value.startswith("<"):
            raise _refuse(path, "policy_kwargs", entry, f"{name} is {value[:80]}")
        kwargs[name] = value
    return kwargs


def _named_class(name: str) -> type | None:
    """The class ``module.Name`` if its module is one a policy's arguments may name."""
    module, _, attribute = name.rpartition(".")
    if not name.startswith(_POLICY_KWARG_MODULES):
        return None
    try:
        value = getattr(importlib.import_module(module), attribute, None)
    except ImportError:
        return None
    return value if isinstance(value, type) else None
