"""Datasets at Rust speed: seeded random games, per-position labels, pass conventions, token
converters and exact scores, all as numpy arrays (standard 8x8 Othello).

A batch of games is a ``(n, L)`` int8 array of square indices (``row * 8 + col``, a1 = 0,
h8 = 63) padded with ``PAD`` (-1), and the ``(n,)`` int16 lengths. With implicit passes (as
othello_world writes games) a side that cannot move is skipped; with explicit passes a pass
is ``PASS`` (64). Game ``i`` of a seed depends on the seed and ``i`` alone: the same seed gives
the same bytes on any number of threads.

>>> from iago import datasets
>>> moves, lengths = datasets.random_games(1000, seed=7)
>>> moves.shape, moves.dtype, int(lengths.min()) > 8
((1000, 60), dtype('int8'), True)
>>> labels = datasets.labels(moves, lengths)
>>> labels["board"].shape == (int(lengths.sum()), 64)
True
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _iago

PAD = -1
"""Padding after a game's last move."""
PASS = 64
"""A pass, with explicit passes."""

__all__ = [
    "PAD",
    "PASS",
    "random_games",
    "engine_games",
    "labels",
    "with_passes",
    "without_passes",
    "to_othello_world",
    "from_othello_world",
    "to_metaothello",
    "from_metaothello",
    "to_alphazero",
    "from_alphazero",
    "board_masks",
    "exact_scores",
]

Games = Tuple[NDArray[np.int8], NDArray[np.int16]]


def _rows(moves: ArrayLike) -> NDArray[np.int8]:
    array = np.asarray(moves)
    if array.ndim == 1:
        array = array[np.newaxis, :]
    if array.ndim != 2:
        raise ValueError(f"moves must be a 2-d array of games, not {array.ndim}-d")
    if array.size and (array.min() < -1 or array.max() > 64):
        raise ValueError("moves are square indices 0-63, 64 for a pass and -1 for padding")
    return np.ascontiguousarray(array, dtype=np.int8)


def _lengths(lengths: Optional[ArrayLike]) -> Optional[NDArray[np.int16]]:
    if lengths is None:
        return None
    return np.ascontiguousarray(np.asarray(lengths), dtype=np.int16)


def random_games(
    n: int,
    *,
    seed: int = 0,
    passes: bool = False,
    first: int = 0,
    threads: Optional[int] = None,
) -> Games:
    """``n`` complete games of uniformly random legal moves: ``(moves, lengths)``.

    ``moves`` is ``(n, 60)`` int8 padded with -1 (with ``passes=True``, passes written as 64
    and as wide as the longest game of the batch). The games are numbers ``first`` to
    ``first + n - 1`` of the seed, so a large set is made in chunks (``first=0``, ``first=n``,
    ...) with the same bytes as in one call. ``threads``: a pool of that many threads
    (default: every core); the bytes are the same whatever it is.
    """
    return _iago.random_games(n, seed=seed, passes=passes, first=first, threads=threads)


def engine_games(
    n: int,
    *,
    depth: int = 1,
    temperature: float = 1.0,
    seed: int = 0,
    passes: bool = False,
    first: int = 0,
    threads: Optional[int] = None,
) -> Games:
    """``n`` complete games whose moves are drawn from the engine's values: every legal move
    played, then valued by the static evaluation (``depth=1``) or a search of ``depth - 1``
    plies (up to 20 in all; the value in discs for the mover), move ``m``
    chosen with probability proportional to ``exp(value(m) / temperature)``; ``temperature=0``
    plays the best move (the first in square order among equals). Seeded per game as
    ``random_games`` (the same bytes on any thread count). Much slower than random games:
    thousands of games a second at depth 1, fewer deeper.
    """
    return _iago.engine_games(
        n,
        depth=depth,
        temperature=temperature,
        seed=seed,
        passes=passes,
        first=first,
        threads=threads,
    )


def labels(
    moves: ArrayLike,
    lengths: Optional[ArrayLike] = None,
    *,
    passes: bool = False,
    threads: Optional[int] = None,
) -> dict[str, NDArray[np.int8]]:
    """Labels of the position after every move of every game, game by game.

    - ``board`` ``(P, 64)``: 0 empty, 1 a disc of the side to move next, 2 one of the other
      side (the OthelloGPT probes' "mine / theirs");
    - ``flipped`` ``(P, 64)``: 1 where the move flipped a disc;
    - ``legal`` ``(P, 64)``: 1 on the legal moves of the side to move next;
    - ``to_move`` ``(P,)``: 0 Black, 1 White, the side to move next.

    ``P`` is ``lengths.sum()`` (the moves up to the first -1 when ``lengths`` is not given).
    Raises ``ValueError`` naming the game and move when a move is illegal.
    """
    return _iago.labels(_rows(moves), _lengths(lengths), passes=passes, threads=threads)


def with_passes(moves: ArrayLike, lengths: Optional[ArrayLike] = None) -> Games:
    """The games with their passes written as 64 (from games that leave them out)."""
    return _iago.convert_passes(_rows(moves), _lengths(lengths), remove=False)


def without_passes(moves: ArrayLike, lengths: Optional[ArrayLike] = None) -> Games:
    """The games with their passes left out (from games that write them as 64)."""
    return _iago.convert_passes(_rows(moves), _lengths(lengths), remove=True)


# othello_world (OthelloGPT): token = 1 + the square's rank among the 60 squares outside the
# centre, 0 = padding; no pass token.
_CENTRE = (27, 28, 35, 36)
_OW_SQUARES = np.array([s for s in range(64) if s not in _CENTRE], dtype=np.int8)
_TO_OW = np.full(66, -1, dtype=np.int16)  # index: square + 1 (so that -1 maps from 0)
_TO_OW[0] = 0
_TO_OW[_OW_SQUARES.astype(np.int16) + 1] = np.arange(1, 61)
_FROM_OW = np.concatenate([[PAD], _OW_SQUARES]).astype(np.int8)


def to_othello_world(moves: ArrayLike) -> NDArray[np.int8]:
    """othello_world's tokens (vocabulary of 61: 0 padding, 1-60 the squares but the centre's,
    in square order). Games must leave passes out."""
    rows = _rows(moves)
    if (rows == PASS).any():
        raise ValueError("othello_world has no pass token: use games without passes")
    if np.isin(rows, _CENTRE).any():
        raise ValueError("a centre square (d4, e4, d5, e5) is never a move")
    return _TO_OW[rows.astype(np.int16) + 1].astype(np.int8)


def from_othello_world(tokens: ArrayLike) -> NDArray[np.int8]:
    """Square indices (padding -1) of othello_world's tokens."""
    array = np.asarray(tokens)
    if array.size and (array.min() < 0 or array.max() > 60):
        raise ValueError("othello_world's tokens are 0-60")
    return _FROM_OW[array.astype(np.int16)]


def to_metaothello(moves: ArrayLike) -> NDArray[np.int8]:
    """MetaOthello's tokens (vocabulary of 66: 0 padding, 1-64 the squares a1..h8, 65 the
    pass). Games should write their passes (``with_passes``)."""
    rows = _rows(moves).astype(np.int16)
    return np.where(rows == PAD, 0, rows + 1).astype(np.int8)


def from_metaothello(tokens: ArrayLike) -> NDArray[np.int8]:
    """Square indices (64 a pass, -1 padding) of MetaOthello's tokens."""
    array = np.asarray(tokens).astype(np.int16)
    if array.size and (array.min() < 0 or array.max() > 65):
        raise ValueError("MetaOthello's tokens are 0-65")
    return np.where(array == 0, PAD, array - 1).astype(np.int8)


def to_alphazero(moves: ArrayLike) -> NDArray[np.int64]:
    """alpha-zero-general's actions (n*n + 1 = 65: 0-63 the squares, 64 the pass; padding
    stays -1). Games should write their passes (``with_passes``)."""
    return _rows(moves).astype(np.int64)


def from_alphazero(actions: ArrayLike) -> NDArray[np.int8]:
    """Square indices (64 a pass) of alpha-zero-general's actions."""
    return _rows(actions)


def board_masks(board: ArrayLike) -> Tuple[NDArray[np.uint64], NDArray[np.uint64]]:
    """The side to move's and the other side's discs as 64-bit masks, from ``labels``'
    ``board`` rows (1 mine, 2 theirs): what ``exact_scores`` takes."""
    rows = np.asarray(board)
    weights = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
    mine = ((rows == 1) * weights).sum(axis=1, dtype=np.uint64)
    theirs = ((rows == 2) * weights).sum(axis=1, dtype=np.uint64)
    return mine, theirs


def exact_scores(
    player: Union[ArrayLike, Sequence[Any]],
    opponent: Optional[ArrayLike] = None,
    *,
    threads: Optional[int] = None,
    hash_mb: int = 4,
    max_empties: int = 28,
) -> NDArray[np.int8]:
    """Exact scores (disc difference for the side to move, empties to the winner) by the
    solver, one position a thread.

    Give the side to move's and the other side's discs as uint64 masks, or a sequence of
    ``Board``/``Position`` objects (standard Othello) as ``player`` alone. Meant for positions
    with few empties: 14 take a few milliseconds each, 20 about a tenth of a second; one with
    more than ``max_empties`` raises ``ValueError``.
    """
    if opponent is None:
        items = list(player)  # type: ignore[arg-type]
        p = np.array([_position(x).player for x in items], dtype=np.uint64)
        o = np.array([_position(x).opponent for x in items], dtype=np.uint64)
    else:
        p = np.ascontiguousarray(np.asarray(player), dtype=np.uint64)
        o = np.ascontiguousarray(np.asarray(opponent), dtype=np.uint64)
    return _iago.exact_scores(p, o, threads=threads, hash_mb=hash_mb, max_empties=max_empties)


def _position(item: Any) -> _iago.Position:
    if isinstance(item, _iago.Board):
        position = item.position()
    elif isinstance(item, _iago.Position):
        position = item
    else:
        position = _iago.Position(str(item))
    if position.rules != "othello":
        raise ValueError(f"exact_scores solves standard Othello, not {position.rules}")
    return position
