"""The package's one board encoding, and converters from and to the others.

**The encoding: planes.** An int8 array of shape ``(..., 2, size, size)``: plane 0 holds the
discs of the side to move, plane 1 the other side's (1 where a disc is, 0 elsewhere), row 0
being row 1 of the board. It is player-relative, as the board looks to whoever moves; the side
to move itself is known beside it (``Board.turn``). ``Board.to_planes()`` and
``Position.to_planes()`` give it, and ``iago.env`` observes it.

The other encodings some tools use, and their converters:

- **signed** (absolute colours): ``(..., size, size)``, 1 Black, -1 White, 0 empty; what
  ``Board.to_array()`` gives. ``planes_from_signed(signed, turn)`` and
  ``signed_from_planes(planes, turn)``.
- **codes** (player-relative, OthelloGPT's probes): ``(..., size * size)``, 0 empty, 1 the
  side to move's disc, 2 the other's; ``datasets.labels(...)["board"]`` rows.
  ``planes_from_codes(codes)`` and ``codes_from_planes(planes)``.

``turn`` is a ``Color`` or an array of them as 0 (Black) and 1 (White), one per board.

>>> import iago
>>> from iago import encodings
>>> board = iago.Board.from_transcript("f5")
>>> planes = board.to_planes()
>>> planes.shape, int(planes[0].sum()), int(planes[1].sum())
((2, 8, 8), 1, 4)
>>> bool((encodings.planes_from_signed(board.to_array(), board.turn) == planes).all())
True
>>> codes = encodings.codes_from_planes(planes)
>>> bool((encodings.planes_from_codes(codes) == planes).all())
True
"""

from __future__ import annotations

from typing import Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._iago import Color

__all__ = [
    "planes_from_signed",
    "signed_from_planes",
    "planes_from_codes",
    "codes_from_planes",
]

Turn = Union[Color, ArrayLike]


def _white_to_move(turn: Turn, batch: tuple[int, ...]) -> NDArray[np.bool_]:
    """Whether White moves, per board of a batch of shape ``batch``."""
    if isinstance(turn, Color):
        return np.full(batch, turn == Color.WHITE, dtype=np.bool_)
    values = np.asarray(turn)
    if values.dtype == object:
        values = np.vectorize(lambda c: int(c == Color.WHITE))(values)
    values = np.broadcast_to(values.astype(np.int64), batch)
    if not np.isin(values, (0, 1)).all():
        raise ValueError("turn is a Color or 0 (Black) and 1 (White) per board")
    return np.asarray(values == 1, dtype=np.bool_)


def planes_from_signed(signed: ArrayLike, turn: Turn) -> NDArray[np.int8]:
    """The planes of boards in absolute colours (1 Black, -1 White, 0 empty), ``turn`` to move."""
    grid = np.asarray(signed)
    if grid.ndim < 2 or grid.shape[-1] != grid.shape[-2]:
        raise ValueError(f"expected (..., size, size) boards, not the shape {grid.shape}")
    white = _white_to_move(turn, grid.shape[:-2])[..., None, None]
    mine = np.where(white, grid == -1, grid == 1)
    theirs = np.where(white, grid == 1, grid == -1)
    return np.stack([mine, theirs], axis=-3).astype(np.int8)


def signed_from_planes(planes: ArrayLike, turn: Turn) -> NDArray[np.int8]:
    """Boards in absolute colours (1 Black, -1 White, 0 empty) from planes, ``turn`` to move."""
    p = _planes(planes)
    white = _white_to_move(turn, p.shape[:-3])[..., None, None]
    mover = np.where(white, -1, 1)
    return (mover * p[..., 0, :, :] - mover * p[..., 1, :, :]).astype(np.int8)


def planes_from_codes(codes: ArrayLike) -> NDArray[np.int8]:
    """The planes of rows of codes (0 empty, 1 the side to move's, 2 the other's), each row
    ``size * size`` long."""
    c = np.asarray(codes)
    side = int(round(c.shape[-1] ** 0.5)) if c.ndim else 0
    if c.ndim < 1 or side * side != c.shape[-1] or side not in (4, 6, 8):
        raise ValueError(f"expected rows of 16, 36 or 64 codes, not the shape {c.shape}")
    grid = c.reshape(c.shape[:-1] + (side, side))
    return np.stack([grid == 1, grid == 2], axis=-3).astype(np.int8)


def codes_from_planes(planes: ArrayLike) -> NDArray[np.int8]:
    """Rows of codes (0 empty, 1 the side to move's, 2 the other's) from planes."""
    p = _planes(planes)
    codes = p[..., 0, :, :] + 2 * p[..., 1, :, :]
    return codes.reshape(codes.shape[:-2] + (-1,)).astype(np.int8)


def _planes(planes: ArrayLike) -> NDArray[np.int8]:
    p = np.asarray(planes)
    if p.ndim < 3 or p.shape[-3] != 2 or p.shape[-1] != p.shape[-2]:
        raise ValueError(f"expected (..., 2, size, size) planes, not the shape {p.shape}")
    if ((p[..., 0, :, :] != 0) & (p[..., 1, :, :] != 0)).any():
        raise ValueError("a square has a disc in both planes")
    return p.astype(np.int8)
