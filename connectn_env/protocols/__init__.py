"""Text protocols that let other programs use the suite's agents: GTP for Hex (HexGui,
MoHex's command set) and the Gomocup/Piskvork protocol for Gomoku (``pbrain``)."""

from connectn_env.protocols.clock import TimeSystem
from connectn_env.protocols.gtp import GtpEngine, GtpError, run_gtp
from connectn_env.protocols.match import ProtocolMatch, choose_action
from connectn_env.protocols.numbers import parse_integer
from connectn_env.protocols.pbrain import PbrainEngine, PbrainError, run_pbrain, turn_budget

__all__ = [
    "GtpEngine",
    "GtpError",
    "PbrainEngine",
    "PbrainError",
    "ProtocolMatch",
    "TimeSystem",
    "choose_action",
    "parse_integer",
    "run_gtp",
    "run_pbrain",
    "turn_budget",
]
