"""What ``connectn play`` tells a new user outside the game: each game's ``--help`` in its
own colours, and how to install what a feature needs (from a checkout: the package is on
no index)."""

from __future__ import annotations

import importlib
import sys

import pytest

from connectn_env.cli import build_parser


def play_help(game: str, capsys) -> str:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", game, "--help"])
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("game", "first"),
    [
        ("hex", "Red in the window, X in the terminal"),
        ("gomoku", "Black in the window, X in the terminal"),
        ("othello", "Black in the window, X in the terminal"),
        ("connect_four", "Red in the window, X in the terminal"),
        ("tictactoe", "X"),
    ],
)
def test_human_first_is_explained_in_the_games_own_colours(game, first, capsys) -> None:
    text = play_help(game, capsys)
    assert f"--human-first you move first (default): {first} " in text
    other = {"hex": "Gomoku", "gomoku": "Hex"}.get(game, "Gomoku")
    assert other not in text


def test_missing_torch_says_how_to_install_it_from_a_checkout(monkeypatch) -> None:
    alphazero = importlib.import_module("agents.alphazero")
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch fails
    with pytest.raises(ImportError, match=r'need torch: pip install "\.\[train\]" from a ch'):
        alphazero.require_torch()


@pytest.mark.parametrize("kind", ["az:pretrained", "perfect", "human", "mcts", "ab", "random"])
def test_play_help_lists_every_kind_of_opponent(kind, capsys) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--help"])
    assert kind in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("game", ["connect_four", "hex", "othello"])
def test_level_help_lists_the_games_levels_from_its_ladders(game, capsys) -> None:
    from connectn_env.ladder.games import LADDER_GAMES
    from connectn_env.ladder.ladderfile import shipped_keys
    from connectn_env.ladder.levels import levels

    text = play_help(game, capsys)
    for key in (key for key in shipped_keys() if LADDER_GAMES[key].name == game):
        rungs = levels(key)
        listed = ", ".join(f"{n} {rung.label}" for n, rung in enumerate(rungs, start=1))
        assert listed in text


def test_level_help_of_a_game_without_a_ladder_says_so(capsys) -> None:
    assert "(none for tictactoe: no ladder of it ships)" in play_help("tictactoe", capsys)


def test_level_help_names_a_ladder_it_cannot_read_and_still_shows(monkeypatch, capsys) -> None:
    def unreadable(key):
        raise ValueError(f"{key}: bad spec: need torch")

    module = importlib.import_module("connectn_env.ladder.levels")  # (the package's levels
    monkeypatch.setattr(module, "levels", unreadable)  # is the function of that name)
    text = play_help("connect_four", capsys)
    assert "Levels: connect_four: cannot be read (connect_four: bad spec: need torch)" in text
