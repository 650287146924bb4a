"""Writes an OthelloGPT-style dataset: random games as othello_world's tokens, with the
per-position labels a probe trains on."""

from __future__ import annotations

import sys

import numpy as np

from iago import datasets


def main(games: int = 100_000, path: str = "othello.npz") -> None:
    moves, lengths = datasets.random_games(games, seed=0)
    labels = datasets.labels(moves, lengths)
    np.savez_compressed(
        path,
        tokens=datasets.to_othello_world(moves),
        lengths=lengths,
        board=labels["board"],
        legal=labels["legal"],
    )
    print(f"{games} games, {len(labels['board'])} positions into {path}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
