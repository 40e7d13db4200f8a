"""Hand-made positions with known answers, one file per registered game family
(``tests/data/positions/<family>.json``): a new game is registered together with its file.

A case gives the parameters, the moves in the game's own notation (``"4"`` a column, ``"c3"``
a cell, ``"swap"``, ``"pass"``) and what must hold afterwards: ``result`` (``player_0``,
``player_1``, ``draw`` or ``ongoing``), and optionally ``to_move``, ``legal`` (move names),
``winning_cells`` (cell names) and ``board`` (rows of ``.``, ``x``, ``o``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from connectn_env.games import REGISTRY, TERMINAL_PLAYER, Outcome, parse_cell_name

POSITIONS = Path(__file__).parent / "data" / "positions"
RESULTS = {
    "player_0": Outcome.PLAYER_0_WINS,
    "player_1": Outcome.PLAYER_1_WINS,
    "draw": Outcome.DRAW,
    "ongoing": Outcome.ONGOING,
}
STONES = {".": 0, "x": 1, "o": 2}


def cases() -> list:
    params = []
    for path in sorted(POSITIONS.glob("*.json")):
        for index, case in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            params.append(pytest.param(path.stem, case, id=f"{path.stem}-{index}"))
    return params


def test_every_family_has_a_file_and_every_file_a_family():
    families = {game_class.name for game_class in REGISTRY.families()}
    assert {path.stem for path in POSITIONS.glob("*.json")} == families


@pytest.mark.parametrize(("family", "case"), cases())
def test_known_position(family: str, case: dict) -> None:
    game = REGISTRY[family].make(**case["params"])
    state = game.new_initial_state()
    for name in case["moves"]:
        state.apply_action(game.parse_action(name))
    assert state.outcome == RESULTS[case["result"]], case["note"]
    if "to_move" in case:
        assert state.current_player() == case["to_move"]
    if state.is_terminal():
        assert state.current_player() == TERMINAL_PLAYER
    if "legal" in case:
        assert state.legal_actions() == [game.parse_action(name) for name in case["legal"]]
    if "winning_cells" in case:
        cells = {parse_cell_name(name, game.rows, game.cols) for name in case["winning_cells"]}
        assert set(state.winning_cells()) == cells, case["note"]
    if "board" in case:
        board = [[STONES[mark] for mark in row] for row in case["board"]]
        assert state.board.tolist() == board
