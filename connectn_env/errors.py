"""The suite's base error class: every error this suite defines derives from
:class:`ConnectnError`, so ``except ConnectnError`` catches what the suite raises on purpose
(PettingZoo's ``pettingzoo.utils.env`` and Gymnasium's ``gymnasium.error.Error`` do the same).
Each error keeps its standard base too (most are ``ValueError``\\ s), so code that catches
those goes on working."""


class ConnectnError(Exception):
    """Base class of the errors of ``connectn_env`` and ``agents``."""
