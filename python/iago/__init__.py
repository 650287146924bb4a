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

from typing import Any

from ._iago import (
    BLACK,
    PASS,
    WHITE,
    Analysis,
    AnalysisStream,
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
    read_text,
    read_wthor,
)

from . import datasets, encodings


def _restore(kind: str, args: Any) -> Any:
    """Rebuilds a pickled object (what the classes' ``__reduce__`` names)."""
    if kind == "move":
        return Move.from_str(args)
    if kind == "color":
        return Color.BLACK if args == 0 else Color.WHITE
    if kind == "position":
        text, rules = args
        return Position(text, rules=rules)
    if kind == "board":
        rules, start, transcript = args
        return Board.from_transcript(transcript, rules=rules, start=start)
    if kind == "limit":
        depth, time = args
        return Limit(depth=depth, time=time)
    if kind in _BY_KEYWORDS and isinstance(args, dict):
        return _BY_KEYWORDS[kind](**args)
    raise ValueError(f"cannot restore a {kind!r}")


# The results rebuilt from their fields by keyword (their ``__reduce__`` gives the class's name
# and the fields).
_BY_KEYWORDS: dict[str, Any] = {
    "Analysis": Analysis,
    "PlayResult": PlayResult,
    "Solution": Solution,
    "MoveReview": MoveReview,
    "Outcome": Outcome,
    "Problem": Problem,
    "GameRecord": GameRecord,
}


__all__ = [
    "datasets",
    "encodings",
    "BLACK",
    "PASS",
    "WHITE",
    "Analysis",
    "AnalysisStream",
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
    "read_text",
    "read_wthor",
]
