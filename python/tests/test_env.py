"""The Gymnasium environments: Gymnasium's own checks, whole games against a random agent, and
what an illegal action or an action outside the action space does."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.envs.registration import EnvSpec
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.vector.utils import batch_space
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

import iago
from iago.env import OthelloEnv, OthelloVectorEnv

START = OthelloEnv().reset()[0]
"""The start's observation (Black to move)."""


def test_observations_and_actions_fit_their_spaces() -> None:
    env = OthelloEnv(render_mode="ansi")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info["action_mask"].shape == (65,)
    assert info["illegal_action"] is False
    action = np.int64(np.flatnonzero(info["action_mask"])[0])
    assert env.action_space.contains(action)
    obs, *_ = env.step(action)
    assert env.observation_space.contains(obs)
    assert "a b c d e f g h" in (env.render() or "")


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"opponent": "random"},
        {"opponent": "random", "agent_color": iago.WHITE},
        {"render_mode": "ansi"},
        {"opponent": "random", "render_mode": "ansi"},
    ],
    ids=["self-play", "opponent", "opponent-first", "ansi", "opponent-ansi"],
)
def test_gymnasiums_env_checker_passes(kwargs: dict[str, Any]) -> None:
    # Made through a spec, so that the checker also makes it in every render mode and closes
    # it; every Gymnasium warning is an error.
    spec = EnvSpec("iago/Othello-v0", entry_point="iago.env:OthelloEnv", kwargs=kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym.make(spec).unwrapped)
        check_env(OthelloEnv(**kwargs), skip_render_check=True)  # no spec: no render check


def test_self_play_games_with_the_mask() -> None:
    env = OthelloEnv()
    rng = np.random.default_rng(0)
    results = []
    for game in range(20):
        obs, info = env.reset(seed=game)
        assert obs.shape == (2, 8, 8) and obs.sum() == 4
        terminated = False
        steps = 0
        while not terminated:
            legal = np.flatnonzero(info["action_mask"])
            action = rng.choice(legal)
            obs, reward, terminated, truncated, info = env.step(action)
            assert not truncated and info["illegal_action"] is False
            steps += 1
        assert env.board.is_game_over() and steps >= 10
        outcome = env.board.outcome()
        assert outcome is not None
        results.append(reward)
        assert int(info["action_mask"].sum()) == 0
        with pytest.raises(ResetNeeded, match="reset"):
            env.step(np.int64(64))
    assert set(results) <= {-1.0, 0.0, 1.0} and len(set(results)) > 1


def test_an_opponent_plays_inside_the_env() -> None:
    env = OthelloEnv(opponent="random", agent_color=iago.WHITE)
    obs, info = env.reset(seed=3)
    assert env.board.ply() == 1 and env.board.turn == iago.WHITE
    total = 0.0
    terminated = False
    while not terminated:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, _, info = env.step(legal[0])
        total += float(reward)
    assert total in (-1.0, 0.0, 1.0)
    with pytest.raises(ValueError):
        OthelloEnv(opponent="strong")


def test_an_illegal_action_loses_and_leaves_the_board() -> None:
    env = OthelloEnv()
    for action in (0, 27, 64):  # a1 flips nothing, d4 is taken, the pass with moves to play
        env.reset(seed=0)
        for square in (37, 43):  # f5, d6
            obs, reward, terminated, _, info = env.step(np.int64(square))
            assert reward == 0.0 and not terminated and info["illegal_action"] is False
        before, obs_before, mask = env.board.copy(), obs.copy(), info["action_mask"].copy()
        assert mask[action] == 0
        obs, reward, terminated, truncated, info = env.step(np.int64(action))
        assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
        assert env.board == before and env.board.position() == before.position()
        assert (obs == obs_before).all() and int(obs.sum()) == 6
        assert info["to_move"] == before.turn == iago.BLACK
        assert int(info["action_mask"].sum()) == 0
        with pytest.raises(ResetNeeded, match="illegal"):
            env.step(np.int64(int(np.flatnonzero(mask)[0])))
    obs, info = env.reset()
    assert (obs == START).all() and info["illegal_action"] is False
    assert set(info) == {"action_mask", "to_move", "illegal_action"}


def test_an_illegal_action_loses_for_the_agent_against_an_opponent() -> None:
    for color in (iago.BLACK, iago.WHITE):
        env = OthelloEnv(opponent=lambda board: next(iter(board.legal_moves)), agent_color=color)
        obs, info = env.reset()
        before = env.board.position()
        assert info["action_mask"][0] == 0
        obs, reward, terminated, _, info = env.step(np.int64(0))
        assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
        assert env.board.position() == before and env.board.turn == color


def test_every_action_of_the_space_is_taken_and_the_mask_says_which_lose() -> None:
    env = OthelloEnv()
    for action in range(65):
        _, info = env.reset(seed=1)
        for square in (37, 43, 34):  # f5 d6 c5: a position with moves everywhere
            _, _, _, _, info = env.step(np.int64(square))
        legal = bool(info["action_mask"][action])
        _, reward, terminated, _, info = env.step(np.int64(action))
        assert info["illegal_action"] is (not legal)
        assert (reward == -1.0 and terminated) or legal


@pytest.mark.parametrize("action", [65, -1, 1000, 3.0, np.float32(2), "a1", None, np.array([1, 2])])
def test_an_action_outside_the_space_raises_value_error(action: Any) -> None:
    env = OthelloEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not in the action space") as caught:
        env.step(action)
    assert repr(action) in str(caught.value)
    assert not isinstance(caught.value, iago.IllegalMoveError)
    assert env.board.ply() == 0
    _, reward, terminated, _, info = env.step(np.int64(37))
    assert (reward, terminated, info["illegal_action"]) == (0.0, False, False)


def test_step_before_reset_raises_reset_needed() -> None:
    env = OthelloEnv()
    with pytest.raises(ResetNeeded, match="reset"):
        env.step(np.int64(37))
    env.reset()
    assert env.step(37)[2] is False


def test_the_vector_env_steps_many_games() -> None:
    env = OthelloVectorEnv(64, seed=1)
    obs, info = env.reset(seed=1)
    assert obs.shape == (64, 2, 8, 8) and info["action_mask"].shape == (64, 65)
    finished = 0
    rewards = []
    for _ in range(200):
        actions = env.random_actions()
        assert all(info["action_mask"][i, a] == 1 for i, a in enumerate(actions))
        obs, reward, done, truncated, info = env.step(actions)
        assert not info["illegal_action"].any()
        finished += int(done.sum())
        rewards.extend(reward[done].tolist())
        assert (obs[done].sum(axis=(1, 2, 3)) == 4).all()
        assert (info["final_obs"][done].sum(axis=(1, 2, 3)) > 4).all()
    assert finished >= 64 and set(rewards) == {-1.0, 0.0, 1.0}


def test_the_vector_env_keeps_gymnasiums_vector_contract() -> None:
    n = 8
    env = OthelloVectorEnv(n, seed=2)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.single_observation_space == gym.spaces.Box(0, 1, (2, 8, 8), np.int8)
    assert env.single_action_space == gym.spaces.Discrete(65)
    assert batch_space(env.single_observation_space, n) == env.observation_space
    assert batch_space(env.single_action_space, n) == env.action_space
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    assert set(info) == {"action_mask", "to_move", "illegal_action"}
    env.action_space.seed(0)
    previous = (obs, info)
    for step in range(100):
        actions = env.action_space.sample() if step % 10 == 0 else env.random_actions()
        assert env.action_space.contains(actions)
        obs, rewards, terminations, truncations, info = env.step(actions)
        assert env.observation_space.contains(obs)
        assert rewards.shape == (n,) and rewards.dtype == np.float32
        assert terminations.shape == truncations.shape == (n,)
        assert terminations.dtype == truncations.dtype == np.bool_ and not truncations.any()
        assert info["illegal_action"].dtype == np.bool_
        assert (info["_final_obs"] == terminations).all()
        assert all(len(value) == n for value in info.values())
        assert info["action_mask"].shape == (n, 65) and info["action_mask"].dtype == np.int8
        assert (info["action_mask"].sum(axis=1) > 0).all()
        # Gymnasium's check_returned_data_not_reused, for a vector env.
        for old, new in zip([previous[0], *previous[1].values()], [obs, *info.values()]):
            assert not np.shares_memory(old, new)
        previous = (obs, info)
    env.close()
    assert env.closed
    env.close()


def _run(env: OthelloVectorEnv, seed: int, steps: int) -> list[Any]:
    """What ``steps`` steps show, from ``reset(seed=seed)``, with a few illegal actions."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    seen: list[Any] = [obs, info["action_mask"]]
    for _ in range(steps):
        actions = env.random_actions()
        wild = rng.random(env.num_envs) < 0.05
        actions[wild] = rng.integers(0, 65, int(wild.sum()))
        result = env.step(actions)
        seen.extend([*result[:4], *result[4].values()])
    return seen


def test_the_vector_env_is_deterministic_for_a_seed() -> None:
    first = _run(OthelloVectorEnv(8, seed=1), 7, 150)
    second_env = OthelloVectorEnv(8, seed=99)
    _run(second_env, 3, 40)
    again = _run(second_env, 7, 150)
    assert len(first) == len(again)
    assert all(a.dtype == b.dtype and (a == b).all() for a, b in zip(first, again))
    other = _run(OthelloVectorEnv(8), 8, 150)
    assert any(a.shape != b.shape or (a != b).any() for a, b in zip(first, other))


def test_the_vector_env_plays_as_gymnasiums_sync_vector_env_of_single_envs() -> None:
    # The reference: Gymnasium's SyncVectorEnv over OthelloEnv, same-step autoreset. An illegal
    # action ends that game (reward -1, final_obs the board as it was) and restarts it; the
    # others go on. Gymnasium puts the ended step's info in final_info.
    n = 16
    env = OthelloVectorEnv(n, seed=4)
    reference = SyncVectorEnv(
        [OthelloEnv for _ in range(n)], autoreset_mode=AutoresetMode.SAME_STEP
    )
    obs, _ = env.reset(seed=4)
    assert (obs == reference.reset(seed=4)[0]).all()
    rng = np.random.default_rng(4)
    illegal_seen = 0
    for _ in range(400):
        actions = env.random_actions()
        wild = rng.random(n) < 0.04
        actions[wild] = rng.integers(0, 65, int(wild.sum()))
        obs, rewards, done, truncated, info = env.step(actions)
        ref_obs, ref_rewards, ref_done, ref_truncated, ref_info = reference.step(actions)
        assert (obs == ref_obs).all() and (rewards == ref_rewards).all()
        assert (done == ref_done).all() and not truncated.any() and not ref_truncated.any()
        assert (info["action_mask"] == ref_info["action_mask"]).all()
        assert (info["to_move"] == [int(color) for color in ref_info["to_move"]]).all()
        ended_illegal = np.zeros(n, dtype=np.bool_)
        if "final_info" in ref_info:
            ended = ref_info["_final_info"]
            ended_illegal[ended] = ref_info["final_info"]["illegal_action"][ended]
            for game in np.flatnonzero(done):
                assert (info["final_obs"][game] == ref_info["final_obs"][game]).all()
        assert (info["illegal_action"] == ended_illegal).all()
        assert (rewards[info["illegal_action"]] == -1.0).all()
        illegal_seen += int(info["illegal_action"].sum())
    assert illegal_seen > 50


def test_an_illegal_action_in_the_vector_env_ends_that_game_only() -> None:
    env = OthelloVectorEnv(4, seed=0)
    obs, info = env.reset(seed=0)
    for _ in range(3):
        obs, _, done, _, info = env.step(env.random_actions())
    assert not done.any()
    actions = env.random_actions()
    actions[2] = np.flatnonzero(info["action_mask"][2] == 0)[0]
    before = obs.copy()
    obs, rewards, done, _, info = env.step(actions)
    assert info["illegal_action"].tolist() == [False, False, True, False]
    assert done.tolist() == [False, False, True, False]
    assert rewards[2] == -1.0 and (rewards[[0, 1, 3]] == 0.0).all()
    assert (info["final_obs"][2] == before[2]).all() and (obs[2] == START).all()
    assert info["to_move"][2] == 0 and (obs[[0, 1, 3]].sum(axis=(1, 2, 3)) == 8).all()
    for _ in range(80):  # the games go on, the restarted one too, and end as games do
        actions = env.random_actions()
        assert (info["action_mask"][np.arange(4), actions] == 1).all()
        obs, rewards, done, _, info = env.step(actions)
        assert not info["illegal_action"].any()


def test_gymnasiums_vector_wrappers_read_the_vector_env() -> None:
    stats = RecordEpisodeStatistics(OthelloVectorEnv(3, seed=0))
    env = DictInfoToList(stats)
    env.reset(seed=0)
    actions = np.array([0, 37, 37])  # a1 illegal; f5 legal
    _, rewards, done, _, infos = env.step(actions)
    assert done.tolist() == [True, False, False] and isinstance(infos, list)
    assert infos[0]["illegal_action"] and not infos[1]["illegal_action"]
    assert "final_obs" in infos[0] and "final_obs" not in infos[1]
    assert infos[0]["episode"]["r"] == -1.0 and infos[0]["episode"]["l"] == 1
    assert list(stats.return_queue) == [-1.0] and list(stats.length_queue) == [1]


@pytest.mark.parametrize(
    "actions, message",
    [
        (np.zeros(7, dtype=np.int64), r"shape \(7,\): expected \(8,\).*num_envs=8"),
        (np.zeros(9, dtype=np.int64), r"expected \(8,\)"),
        (np.zeros((8, 1), dtype=np.int64), r"shape \(8, 1\): expected \(8,\)"),
        (np.int64(3), r"shape \(\): expected \(8,\)"),
        (np.zeros(8, dtype=np.float64), "dtype float64"),
        (np.array([37, 37, 37, 65, 37, 37, 37, 37]), "game 3: action 65 is not in"),
        (np.array([-1, 37, 37, 37, 37, 37, 37, 37]), "game 0: action -1 is not in"),
    ],
)
def test_actions_outside_the_vector_space_raise_value_error(actions: Any, message: str) -> None:
    env = OthelloVectorEnv(8, seed=0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=message) as caught:
        env.step(actions)
    assert not isinstance(caught.value, iago.IllegalMoveError)
    obs, rewards, done, _, info = env.step(np.full(8, 37))  # nothing was played
    assert not done.any() and not info["illegal_action"].any()
    assert (obs.sum(axis=(1, 2, 3)) == 5).all()


def test_the_vector_env_takes_lists_and_narrow_integers() -> None:
    env = OthelloVectorEnv(2, seed=0)
    env.reset()
    _, _, done, _, info = env.step([37, 0])
    assert done.tolist() == [False, True] and info["illegal_action"].tolist() == [False, True]
    _, _, done, _, _ = env.step(np.array([43, 37], dtype=np.uint8))
    assert not done.any()


@pytest.mark.parametrize("num_envs", [0, -1, 1 << 24 | 1])
def test_num_envs_out_of_range_raises_value_error(num_envs: int) -> None:
    with pytest.raises(ValueError, match=f"num_envs={num_envs} is not in 1..16777216"):
        OthelloVectorEnv(num_envs)


def test_num_envs_and_seeds_are_checked() -> None:
    with pytest.raises(TypeError, match="num_envs must be an integer"):
        OthelloVectorEnv(2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="num_envs"):
        OthelloVectorEnv(True)
    with pytest.raises(ValueError, match="seed=-1"):
        OthelloVectorEnv(2, seed=-1)
    env = OthelloVectorEnv(np.int64(2))  # type: ignore[arg-type]
    assert env.num_envs == 2 and type(env.num_envs) is int
    with pytest.raises(ValueError, match="seed=-3"):
        env.reset(seed=-3)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=1 << 64)
    assert env.reset(seed=(1 << 64) - 1)[0].shape == (2, 2, 8, 8)
