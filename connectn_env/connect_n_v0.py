"""connect_n_v0: see :mod:`connectn_env.envs.connect_n_v0` (this module is its public name)."""

from connectn_env.envs import connect_n_v0 as _impl
from connectn_env.envs.connect_n_v0 import env, raw_env

__doc__ = _impl.__doc__
__all__ = ["env", "raw_env"]
