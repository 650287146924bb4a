"""Gymnasium environments: one game (``OthelloEnv``) and many games stepped in one call
(``OthelloVectorEnv``).

Observations are player-relative (the canonical form): an ``(2, 8, 8)`` int8 array, plane 0
the discs of the side to move, plane 1 the other side's. There are 65 actions, the squares
0-63 (``row * 8 + col``, a1 = 0) and the pass last (64); ``info["action_mask"]`` marks the
legal ones (the pass is legal only when the side to move has no move). Rewards go to the side
that moved: +1 for a win, -1 for a loss, 0 for a draw or a game that goes on. An illegal
action raises ``iago.IllegalMoveError`` and changes nothing.

>>> from iago.env import OthelloEnv
>>> env = OthelloEnv()
>>> obs, info = env.reset(seed=1)
>>> obs.shape, int(info["action_mask"].sum())
((2, 8, 8), 4)
"""

from __future__ import annotations

from typing import Any, Callable, Optional, SupportsFloat, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from numpy.typing import NDArray

from ._iago import BLACK, PASS, Board, Color, GameBatch, IllegalMoveError, Move

__all__ = ["OthelloEnv", "OthelloVectorEnv", "ACTIONS", "PASS_ACTION"]

ACTIONS = 65
"""The squares 0-63 and the pass."""
PASS_ACTION = 64
"""The pass's action."""

Opponent = Union[str, Callable[[Board], Union[Move, str, int]]]


def _observation(board: Board) -> NDArray[np.int8]:
    position = board.position()
    bits = np.array([position.player, position.opponent], dtype=np.uint64)
    planes = (bits[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    return planes.astype(np.int8).reshape(2, 8, 8)


def _mask(board: Board) -> NDArray[np.int8]:
    mask = np.zeros(ACTIONS, dtype=np.int8)
    for move in board.legal_moves:
        mask[PASS_ACTION if move.is_pass else move.square] = 1
    return mask


def _move(action: Any) -> Move:
    index = int(action)
    if index == PASS_ACTION:
        return PASS
    if not 0 <= index < PASS_ACTION:
        raise IllegalMoveError(f"action {index} is not in 0..64")
    return Move(index)


class OthelloEnv(gym.Env[NDArray[np.int8], np.int64]):
    """One game of standard Othello.

    Without an ``opponent`` the agent plays both sides (self-play): every step is the side to
    move's, and the observation is always from its point of view. With an ``opponent``
    (``"random"``, or a function from a ``Board`` to its move) the agent plays
    ``agent_color`` and the opponent's moves are made inside ``reset`` and ``step``; rewards
    are then the agent's.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        opponent: Optional[Opponent] = None,
        agent_color: Color = BLACK,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not 'ansi'")
        if isinstance(opponent, str) and opponent != "random":
            raise ValueError(f"opponent {opponent!r} is not 'random' or a function")
        self.observation_space = spaces.Box(0, 1, shape=(2, 8, 8), dtype=np.int8)
        self.action_space = spaces.Discrete(ACTIONS)
        self.opponent = opponent
        self.agent_color = agent_color
        self.render_mode = render_mode
        self.board = Board()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": _mask(self.board), "to_move": self.board.turn}

    def _opponent_moves(self) -> None:
        while (
            self.opponent is not None
            and not self.board.is_game_over()
            and self.board.turn != self.agent_color
        ):
            if self.opponent == "random":
                moves = list(self.board.legal_moves)
                move: Union[Move, str, int] = moves[int(self.np_random.integers(len(moves)))]
            else:
                assert callable(self.opponent)
                move = self.opponent(self.board.copy())
            self.board.push(move)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[NDArray[np.int8], dict[str, Any]]:
        super().reset(seed=seed)
        self.board = Board()
        self._opponent_moves()
        return _observation(self.board), self._info()

    def step(
        self, action: np.int64
    ) -> tuple[NDArray[np.int8], SupportsFloat, bool, bool, dict[str, Any]]:
        if self.board.is_game_over():
            raise IllegalMoveError("the game is over: call reset()")
        mover = self.board.turn if self.opponent is None else self.agent_color
        self.board.push(_move(action))
        self._opponent_moves()
        reward = 0.0
        outcome = self.board.outcome()
        if outcome is not None and outcome.winner is not None:
            reward = 1.0 if outcome.winner == mover else -1.0
        return _observation(self.board), reward, outcome is not None, False, self._info()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return str(self.board)
        return None


class OthelloVectorEnv(VectorEnv[NDArray[np.int8], NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` self-play games stepped in one call (in Rust).

    ``step(actions)`` takes one action per game; a game that ends starts again in the same
    step (``AutoresetMode.SAME_STEP``): its observation is the new start's, and
    ``info["final_obs"]`` (where ``info["_final_obs"]``) holds the one it ended on.
    ``info["action_mask"]`` is ``(num_envs, 65)``, ``info["to_move"]`` 0 (Black) or 1.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, *, seed: int = 0) -> None:
        self.num_envs = num_envs
        self.batch = GameBatch(num_envs, seed=seed)
        self.single_observation_space = spaces.Box(0, 1, shape=(2, 8, 8), dtype=np.int8)
        self.single_action_space = spaces.Discrete(ACTIONS)
        self.observation_space = spaces.Box(0, 1, shape=(num_envs, 2, 8, 8), dtype=np.int8)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, ACTIONS))

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[NDArray[np.int8], dict[str, Any]]:
        if seed is not None:
            self.batch = GameBatch(self.num_envs, seed=seed)
        obs, masks = self.batch.reset()
        return obs, {"action_mask": masks, "to_move": self.batch.to_move()}

    def random_actions(self) -> NDArray[np.int64]:
        """One uniformly random legal action per game (seeded by ``reset``'s seed)."""
        return self.batch.random_actions()

    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[NDArray[np.int8], NDArray[Any], NDArray[Any], NDArray[Any], dict[str, Any]]:
        array = np.ascontiguousarray(np.asarray(actions), dtype=np.int64)
        try:
            obs, masks, rewards, done, finals, to_move = self.batch.step(array)
        except ValueError as e:
            raise IllegalMoveError(str(e)) from None
        info = {
            "action_mask": masks,
            "to_move": to_move,
            "final_obs": finals,
            "_final_obs": done,
        }
        return obs, rewards, done, np.zeros_like(done), info
