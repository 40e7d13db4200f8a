"""Shared test setup: headless pygame, quiet prompts, SB3's log folders under pytest's tmp."""

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "hide")
os.environ.setdefault("OMP_NUM_THREADS", "1")


@pytest.fixture(autouse=True, scope="session")
def sb3_logs_in_pytest_tmp(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Stable-Baselines3 makes a folder in the system's temporary directory at every
    ``learn()`` (``SB3-<date>``) unless ``SB3_LOGDIR`` names one: give it pytest's, which
    pytest cleans up, so the suite leaves no folders behind."""
    os.environ.setdefault("SB3_LOGDIR", str(tmp_path_factory.mktemp("sb3")))
