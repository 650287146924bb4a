"""The Gymnasium environments against a random agent for whole games."""

from __future__ import annotations

import numpy as np
import pytest

import iago
from iago.env import OthelloEnv, OthelloVectorEnv


def test_observations_and_actions_fit_their_spaces() -> None:
    env = OthelloEnv(render_mode="ansi")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info["action_mask"].shape == (65,)
    action = np.int64(np.flatnonzero(info["action_mask"])[0])
    assert env.action_space.contains(action)
    obs, *_ = env.step(action)
    assert env.observation_space.contains(obs)
    assert "a b c d e f g h" in (env.render() or "")


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
            assert not truncated
            steps += 1
        assert env.board.is_game_over() and steps >= 10
        outcome = env.board.outcome()
        assert outcome is not None
        results.append(reward)
        assert int(info["action_mask"].sum()) == 0
    assert set(results) <= {-1.0, 0.0, 1.0}


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
    env = OthelloEnv(opponent=lambda board: next(iter(board.legal_moves)))
    env.reset()
    with pytest.raises(iago.IllegalMoveError):
        env.step(np.int64(0))
    with pytest.raises(ValueError):
        OthelloEnv(opponent="strong")


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
        finished += int(done.sum())
        rewards.extend(reward[done].tolist())
        assert (obs[done].sum(axis=(1, 2, 3)) == 4).all()
        assert (info["final_obs"][done].sum(axis=(1, 2, 3)) > 4).all()
    assert finished >= 64 and set(rewards) <= {-1.0, 0.0, 1.0}
    bad = env.random_actions()
    bad[0] = 0 if info["action_mask"][0, 0] == 0 else 64
    before = env.batch.observe_all()[0].copy()
    with pytest.raises(iago.IllegalMoveError):
        env.step(bad)
    assert (env.batch.observe_all()[0] == before).all()
