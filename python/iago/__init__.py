"""Iago, an Othello (Reversi) engine, from Python.

The board and its moves in python-chess's manner, the engine (search, exact solver, game
review) with the GIL released, game records (GGF, WTHOR, transcripts, OBF) and datasets at
Rust speed (``iago.datasets``), and Gymnasium environments (``iago.env``).

>>> import iago
>>> board = iago.Board()
>>> board.push_str("f5")
Move.from_str('f5')
>>> len(board.legal_moves), board.turn
(3, Color.WHITE)
"""

from ._iago import (
    BLACK,
    PASS,
    WHITE,
    Analysis,
    BadRecord,
    Board,
    Color,
    Engine,
    GameReader,
    GameRecord,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    LegalMoves,
    Limit,
    Move,
    MoveReview,
    Outcome,
    PlayResult,
    Position,
    Problem,
    RecordError,
    Solution,
    __version__,
    parse_games,
    read_games,
    read_obf,
    read_wthor,
)

from . import datasets

__all__ = [
    "datasets",
    "BLACK",
    "PASS",
    "WHITE",
    "Analysis",
    "BadRecord",
    "Board",
    "Color",
    "Engine",
    "GameReader",
    "GameRecord",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "LegalMoves",
    "Limit",
    "Move",
    "MoveReview",
    "Outcome",
    "PlayResult",
    "Position",
    "Problem",
    "RecordError",
    "Solution",
    "__version__",
    "parse_games",
    "read_games",
    "read_obf",
    "read_wthor",
]
