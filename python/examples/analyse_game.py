"""Plays a game of the engine against itself at a fixed depth, then reviews it."""

from __future__ import annotations

import iago


def main() -> None:
    board = iago.Board()
    with iago.Engine(threads=2, hash_mb=64) as engine:
        while not board.is_game_over():
            played = engine.play(board, iago.Limit(depth=6))
            assert played is not None  # None only once the game is over
            board.push(played.move)
        outcome = board.outcome()
        assert outcome is not None
        print(board.transcript(), outcome)
        for review in engine.review(board, depth=6, exact_from=14):
            if review.loss >= 4:
                print(f"ply {review.ply}: {review.move} lost {review.loss} ({review.best_move} best)")


if __name__ == "__main__":
    main()
