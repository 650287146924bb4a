"""Gymnasium environments: one game (``OthelloEnv``) and many games stepped in one call
(``OthelloVectorEnv``).

Observations are player-relative (the canonical form): an ``(2, 8, 8)`` int8 array, plane 0
the discs of the side to move, plane 1 the other side's. There are 65 actions, the squares
0-63 (``row * 8 + col``, a1 = 0) and the pass last (64); ``info["action_mask"]`` marks the
legal ones (the pass is legal only when the side to move has no move; nothing once the episode
has ended). Rewards go to the side that moved: +1 for a win, -1 for a loss, 0 for a draw or a
game that goes on.

An illegal action (one of the 65 that the mask does not mark) loses the game, as in
PettingZoo's board games (``TerminateIllegalWrapper``): the episode ends (``terminated``) with
reward -1 to the side that made it, the board as it was, and ``info["illegal_action"]`` True
(False after every other step and at ``reset``). ``step`` raises only for an action outside the
action space (not an integer 0-64: ``ValueError``), and before the first ``reset`` or after the
episode ended (Gymnasium's ``ResetNeeded``).

>>> from iago.env import OthelloEnv
>>> env = OthelloEnv()
>>> obs, info = env.reset(seed=1)
>>> obs.shape, int(info["action_mask"].sum())
((2, 8, 8), 4)
>>> obs, reward, terminated, truncated, info = env.step(0)  # a1: not legal at the start
>>> reward, terminated, info["illegal_action"], int(obs.sum())
(-1.0, True, True, 4)
"""

from __future__ import annotations

from typing import Any, Callable, Optional, SupportsFloat, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode, VectorEnv
from numpy.typing import ArrayLike, NDArray

from ._iago import BLACK, PASS, Board, Color, GameBatch, Move

__all__ = ["OthelloEnv", "OthelloVectorEnv", "ACTIONS", "PASS_ACTION"]

ACTIONS = 65
"""The squares 0-63 and the pass."""
PASS_ACTION = 64
"""The pass's action."""

Opponent = Union[str, Callable[[Board], Union[Move, str, int]]]

_MAX_ENVS = 1 << 24
"""The most games one ``GameBatch`` holds."""
_SEED_LIMIT = (1 << 64) - 1


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


def _action(action: object) -> int:
    """``action`` as an index 0-64, or ``ValueError`` where it is not in ``Discrete(65)``."""
    index = -1
    if isinstance(action, (int, np.integer)):
        index = int(action)
    elif (
        isinstance(action, np.ndarray)
        and action.shape == ()
        and np.issubdtype(action.dtype, np.integer)
    ):
        index = int(action)
    if 0 <= index <= PASS_ACTION:
        return index
    raise ValueError(
        f"action {action!r} is not in the action space: an integer 0..64 (64 the pass)"
    )


def _integer(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an int in ``low..high``: ``TypeError`` for a non-integer, ``ValueError``
    out of range, both naming the parameter."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}")
    if not low <= int(value) <= high:
        raise ValueError(f"{name}={int(value)} is not in {low}..{high}")
    return int(value)


class OthelloEnv(gym.Env[NDArray[np.int8], np.int64]):
    """One game of standard Othello.

    Without an ``opponent`` the agent plays both sides (self-play): every step is the side to
    move's, and the observation is always from its point of view. With an ``opponent``
    (``"random"``, or a function from a ``Board`` to its move) the agent plays
    ``agent_color`` and the opponent's moves are made inside ``reset`` and ``step``; rewards
    are then the agent's (an illegal action is the agent's, and its loss).

    ``info`` has the same keys after ``reset`` and every ``step``: ``action_mask`` (65 int8,
    all 0 once the episode has ended), ``to_move`` (the ``Color`` to move) and
    ``illegal_action`` (whether this step's action was illegal).
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
        self._ended: Optional[str] = "call reset() before the first step()"
        """Why ``step`` must wait for ``reset``, while it must."""

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        mask = np.zeros(ACTIONS, dtype=np.int8) if self._ended else _mask(self.board)
        return {"action_mask": mask, "to_move": self.board.turn, "illegal_action": illegal}

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
        self._ended = None
        self._opponent_moves()
        return _observation(self.board), self._info()

    def step(
        self, action: Union[int, np.integer[Any]]
    ) -> tuple[NDArray[np.int8], SupportsFloat, bool, bool, dict[str, Any]]:
        index = _action(action)
        if self._ended:
            raise ResetNeeded(self._ended)
        move = PASS if index == PASS_ACTION else Move(index)
        if not self.board.is_legal(move):
            self._ended = "the episode ended (an illegal action): call reset()"
            return _observation(self.board), -1.0, True, False, self._info(illegal=True)
        mover = self.board.turn if self.opponent is None else self.agent_color
        self.board.push(move)
        self._opponent_moves()
        reward = 0.0
        outcome = self.board.outcome()
        if outcome is not None:
            self._ended = "the game is over: call reset()"
            if outcome.winner is not None:
                reward = 1.0 if outcome.winner == mover else -1.0
        return _observation(self.board), reward, outcome is not None, False, self._info()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return str(self.board)
        return None


class OthelloVectorEnv(VectorEnv[NDArray[np.int8], NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` self-play games stepped in one call (in Rust).

    ``num_envs`` is 1 to 16777216 (else ``ValueError``). ``step(actions)`` takes one action per
    game (an integer array of length ``num_envs``; another shape, or an action not in 0..64,
    raises ``ValueError``). A game that ends starts again in the same step
    (``AutoresetMode.SAME_STEP``): its observation is the new start's, and
    ``info["final_obs"]`` (where ``info["_final_obs"]``) holds the one it ended on.
    ``info["action_mask"]`` is ``(num_envs, 65)``, ``info["to_move"]`` 0 (Black) or 1, and
    ``info["illegal_action"]`` a bool per game.

    An illegal action means what it means in ``OthelloEnv``: that game ends (reward -1 to its
    mover, ``final_obs`` the board it was played on, ``illegal_action`` True) and starts again;
    the others go on (in the same Rust call).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, *, seed: int = 0) -> None:
        self.num_envs = _integer("num_envs", num_envs, 1, _MAX_ENVS)
        self.single_observation_space = spaces.Box(0, 1, shape=(2, 8, 8), dtype=np.int8)
        self.single_action_space = spaces.Discrete(ACTIONS)
        self.observation_space = spaces.Box(
            0, 1, shape=(self.num_envs, 2, 8, 8), dtype=np.int8
        )
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, ACTIONS))
        self._seed = _integer("seed", seed, 0, _SEED_LIMIT)
        self._games = GameBatch(self.num_envs, seed=self._seed)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[NDArray[np.int8], dict[str, Any]]:
        if seed is not None:
            seed = _integer("seed", seed, 0, _SEED_LIMIT)
        super().reset(seed=seed)
        if seed is not None:
            self._games = GameBatch(self.num_envs, seed=seed)
        obs, masks = self._games.reset()
        info = {
            "action_mask": masks,
            "to_move": np.zeros(self.num_envs, dtype=np.int8),
            "illegal_action": np.zeros(self.num_envs, dtype=np.bool_),
        }
        return obs, info

    def random_actions(self) -> NDArray[np.int64]:
        """One uniformly random legal action per game (seeded by ``reset``'s seed)."""
        return self._games.random_actions()

    def _actions(self, actions: ArrayLike) -> NDArray[np.int64]:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(
                f"actions of shape {array.shape}: expected ({self.num_envs},), "
                f"one action for each of the num_envs={self.num_envs} games"
            )
        if array.dtype.kind not in "biu":
            raise ValueError(f"actions of dtype {array.dtype}: expected integers 0..64")
        outside = np.flatnonzero((array < 0) | (array > PASS_ACTION))
        if outside.size:
            game = int(outside[0])
            raise ValueError(
                f"game {game}: action {array[game]} is not in the action space 0..64"
            )
        return array.astype(np.int64)

    def step(
        self, actions: ArrayLike
    ) -> tuple[NDArray[np.int8], NDArray[Any], NDArray[Any], NDArray[Any], dict[str, Any]]:
        played = self._actions(actions)
        obs, masks, rewards, done, finals, to_move, illegal = self._games.step(played)
        info = {
            "action_mask": masks,
            "to_move": to_move,
            "illegal_action": illegal,
            "final_obs": finals,
            "_final_obs": done,
        }
        return obs, rewards, done, np.zeros_like(done), info
