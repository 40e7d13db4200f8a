"""Ship a trained network with the package: ``python benchmarks/ship_network.py RUN_DIR``.

Reads ``RUN_DIR/best.pt`` (an evaluated network of ``connectn train``; ``--checkpoint FILE``
for another of the run's networks, such as ``RUN_DIR/checkpoints/step-0049030.pt``), writes
it without its optimizer state to ``agents/alphazero/networks/<game>.pt`` and records its
game, SHA-256 and model card (``docs/models/<game>.md``, written by ``write_card.py``) in
``agents/alphazero/networks/manifest.json``. A network for a game that already has one
replaces it.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from pathlib import Path

from agents.alphazero.checkpoint import load_checkpoint, save_checkpoint
from agents.alphazero.pretrained import MANIFEST, NETWORKS
from connectn_env.atomic_write import write_bytes_atomically
from connectn_env.games import REGISTRY
from connectn_env.games.config import GameConfig

MAX_BYTES = 2 * 1024 * 1024


def file_stem(game: GameConfig) -> str:
    """``tictactoe`` for a preset, else the name and the parameters: ``hex_size7``."""
    if REGISTRY[game.name].is_preset:
        return game.name
    return "_".join([game.name, *(f"{key}{value}" for key, value in game.params.items())])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--checkpoint", type=Path, help="the network to ship (RUN_DIR/best.pt)")
    args = parser.parse_args()
    checkpoint = load_checkpoint(args.checkpoint or args.run_dir / "best.pt")
    name = file_stem(checkpoint.game)
    target = NETWORKS / f"{name}.pt"
    NETWORKS.mkdir(exist_ok=True)
    save_checkpoint(target, dataclasses.replace(checkpoint, optimizer=None, path=None))
    data = target.read_bytes()
    if len(data) > MAX_BYTES:
        target.unlink()
        sys.exit(f"{target}: {len(data):,} bytes, more than the {MAX_BYTES:,} a network may have")
    entries = json.loads(MANIFEST.read_text())["networks"] if MANIFEST.exists() else []
    game = {"name": checkpoint.game.name, "params": dict(checkpoint.game.params)}
    entries = [entry for entry in entries if entry["game"] != game]
    entries.append(
        {
            "game": game,
            "file": target.name,
            "sha256": hashlib.sha256(data).hexdigest(),
            "card": f"docs/models/{name}.md",
        }
    )
    entries.sort(key=lambda entry: entry["file"])
    text = json.dumps({"networks": entries}, indent=2) + "\n"
    write_bytes_atomically(MANIFEST, text.encode())
    print(f"{target}: {len(data):,} bytes; card: docs/models/{name}.md")


if __name__ == "__main__":
    main()
