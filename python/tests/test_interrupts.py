"""Ctrl-C during a search: a SIGINT sent while the engine works raises KeyboardInterrupt within
half a second, and the engine serves the next call."""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any, Callable

import numpy as np
import pytest

import iago
from iago import Board, Engine, Limit

# A 56-empty position: no search of it ends by itself within seconds.
OPENING = "f5d6c3d3"
SIGNAL_AFTER = 0.3


def interrupted(call: Callable[[], Any]) -> float:
    """Runs `call`, sending this process a SIGINT after SIGNAL_AFTER seconds; the seconds from
    the signal to the KeyboardInterrupt."""
    sent: list[float] = []

    def send() -> None:
        time.sleep(SIGNAL_AFTER)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    sender = threading.Thread(target=send)
    sender.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        raised = time.monotonic()
    finally:
        sender.join()
    return raised - sent[0]


@pytest.fixture(scope="module")
def engine() -> Any:
    with Engine(threads=2, hash_mb=16, book=False) as e:
        yield e


def test_analyse_play_and_solve_stop_on_ctrl_c(engine: Engine) -> None:
    board = Board.from_transcript(OPENING)
    calls: list[Callable[[], Any]] = [
        lambda: engine.analyse(board, Limit(time=10)),
        lambda: engine.analyse(board, Limit(time=10), multipv=3),
        lambda: engine.play(board, Limit(time=10)),
        lambda: engine.solve(board, mode="wld"),
        lambda: engine.solve(board, limit=Limit(time=10)),
    ]
    for call in calls:
        assert interrupted(call) < 0.5
    # The engine goes on serving.
    assert engine.analyse(board, Limit(depth=4)).depth == 4


def test_a_streamed_analysis_stops_on_ctrl_c(engine: Engine) -> None:
    def iterate() -> None:
        with engine.analysis(Board.from_transcript(OPENING)) as stream:
            for _ in stream:
                pass

    assert interrupted(iterate) < 0.5
    assert engine.analyse(Board(), Limit(depth=2)).depth == 2


def test_a_review_stops_on_ctrl_c(engine: Engine) -> None:
    board = Board.from_transcript("f5d6c3d3c4f4f6f3e6e7d7c6b6f7")
    assert interrupted(lambda: engine.review(board, depth=30, exact_from=0)) < 0.5


def test_datasets_engine_calls_stop_on_ctrl_c() -> None:
    assert interrupted(lambda: iago.datasets.engine_games(100_000, depth=6, threads=2)) < 0.5
    # A position of 32 empties from a random game: far longer than a second to solve.
    moves, _ = iago.datasets.random_games(1, seed=5)
    board = Board()
    for square in moves[0][:28]:
        board.push(iago.Move(int(square)))
    position = board.position()
    assert position.empties == 32
    player = np.array([position.player] * 4, dtype=np.uint64)
    opponent = np.array([position.opponent] * 4, dtype=np.uint64)
    assert interrupted(lambda: iago.datasets.exact_scores(player, opponent, threads=2, max_empties=40)) < 0.5
