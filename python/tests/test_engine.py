"""The engine from Python: the same results as the binary (FFO #40-#49, node counts at a fixed
depth), the GIL released during searches, a stop from another thread, errors."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from pathlib import Path

import pytest

import iago
from iago import Board, Engine, Limit

from conftest import FFO_40_49


def ffo_problems() -> list[iago.Problem]:
    problems, errors = iago.read_obf(FFO_40_49)
    assert errors == [] and len(problems) == 10
    return problems


def test_ffo_40_to_49_solve_to_the_published_scores() -> None:
    with Engine(threads=2, hash_mb=64) as engine:
        for problem in ffo_problems():
            solution = engine.solve(problem.position)
            assert solution is not None
            assert solution.score == problem.best_score, problem.line
            assert solution.best_move in problem.best_moves(), problem.line
            assert solution.mode == "exact" and solution.pv[0] == solution.best_move


def test_analyse_visits_the_nodes_of_iago_analyze(binary: Path) -> None:
    out = subprocess.run(
        [str(binary), "analyze", str(FFO_40_49), "--depth", "8", "--threads", "1",
         "--hash", "16", "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert len(rows) == 10
    with Engine(threads=1, hash_mb=16) as engine:
        for problem, row in zip(ffo_problems(), rows):
            result = engine.analyse(problem.position, Limit(depth=8))
            assert (result.nodes, result.score, str(result.best_move)) == (
                row["nodes"], row["score"], row["best_move"].lower()
            ), problem.line


def test_multipv_gives_the_best_moves_in_order() -> None:
    with Engine(threads=1, hash_mb=16) as engine:
        board = Board.from_transcript("f5d6c3")
        lines = engine.analyse(board, Limit(depth=6), multipv=3)
        assert len(lines) == 3
        assert [a.score for a in lines] == sorted((a.score for a in lines), reverse=True)
        assert len({a.best_move for a in lines}) == 3
        assert all(a.best_move in board.legal_moves for a in lines)
        single = engine.analyse(board, Limit(depth=6))
        assert single.score == lines[0].score and single.turn == iago.WHITE
        assert single.score_for_black == -single.score


def test_play_uses_the_book_then_searches() -> None:
    with Engine(threads=1, hash_mb=16) as engine:
        opening = engine.play(Board(), Limit(depth=4))
        assert opening is not None
        assert opening.move in Board().legal_moves and opening.info.source == "book"
    with Engine(threads=1, hash_mb=16, book=False) as engine:
        board = Board.from_transcript("f5d6c3d3c4f4c5b3c2")
        played = engine.play(board, Limit(depth=5))
        assert played is not None
        assert played.info.source == "search" and played.move in board.legal_moves
        assert played.info.depth == 5


def test_a_finished_game_and_a_forced_pass_are_answered() -> None:
    full = Board("X" * 63 + "O X")
    with Engine(threads=1, hash_mb=4) as engine:
        result = engine.analyse(full, Limit(depth=3))
        assert result.best_move == iago.PASS and result.exact
        assert result.score == full.outcome().score_for_black  # type: ignore[union-attr]
        solved = engine.solve(full)
        assert solved is not None and solved.best_move is None


def test_searches_release_the_gil() -> None:
    ticks = 0
    done = threading.Event()

    def search() -> None:
        with Engine(threads=1, hash_mb=16) as engine:
            engine.analyse(Board.from_transcript("f5d6c3d3c4"), Limit(time=0.5))
        done.set()

    worker = threading.Thread(target=search)
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert ticks > 50, "the main thread did not run while the engine searched"


def test_stop_from_another_thread_ends_the_search() -> None:
    engine = Engine(threads=1, hash_mb=16)
    results: list[iago.Analysis] = []
    worker = threading.Thread(
        target=lambda: results.append(engine.analyse(Board(), Limit(time=60)))
    )
    start = time.monotonic()
    worker.start()
    time.sleep(0.3)
    engine.stop()
    worker.join(timeout=10)
    assert not worker.is_alive() and time.monotonic() - start < 10
    assert results and results[0].best_move in Board().legal_moves
    engine.close()
    assert engine.closed
    with pytest.raises(RuntimeError, match="closed"):
        engine.analyse(Board(), Limit(depth=1))


def test_review_gives_each_move_its_loss() -> None:
    board = Board.from_transcript("f5d6c3d3c4f4c5b3c2e6c6b4")
    with Engine(threads=1, hash_mb=16) as engine:
        reviews = engine.review(board, depth=4, exact_from=0)
    assert [r.ply for r in reviews] == list(range(1, 13))
    assert all(r.loss == r.best_value - r.value and r.loss >= 0 for r in reviews)
    assert reviews[0].color == iago.BLACK and reviews[1].color == iago.WHITE
    assert str(reviews[0].move) == "f5"


def test_bad_arguments_raise_value_errors() -> None:
    with pytest.raises(ValueError):
        Limit(depth=0)
    with pytest.raises(ValueError):
        Limit(time=-1.0)
    with pytest.raises(ValueError):
        Engine(threads=0)
    with pytest.raises(ValueError):
        Engine(selectivity=50)
    with pytest.raises(OSError):
        Engine(book="/nonexistent/book.iago")
    with Engine(threads=1, hash_mb=4) as engine:
        with pytest.raises(ValueError, match="solve mode"):
            engine.solve(Board(), mode="fast")  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            engine.analyse(Board(), Limit(depth=2), multipv=0)
        # Limit() runs until stopped: only analysis() takes it.
        for call in (engine.analyse, engine.play):
            with pytest.raises(ValueError, match="analysis"):
                call(Board(), Limit())
        with pytest.raises(iago.InvalidPositionError):
            engine.analyse("garbage", Limit(depth=2))
        # The engine still works after the errors.
        assert engine.analyse(Board(), Limit(depth=2)).depth == 2
        assert isinstance(engine.evaluate(Board()), int)


def test_a_playing_level_draws_its_moves_repeatably() -> None:
    board = Board.from_transcript("f5d6c3d3c4f4")

    def moves(seed: int) -> list[iago.Move]:
        with Engine(threads=1, hash_mb=4, book=False, level=2, seed=seed) as engine:
            assert engine.level == 2
            played = [engine.play(board, Limit(depth=4)) for _ in range(12)]
        return [p.move for p in played if p is not None]

    first = moves(7)
    assert first == moves(7) and all(m in board.legal_moves for m in first)
    assert len(set(first)) > 1, "a weak level varies its moves"
    with Engine(threads=1, hash_mb=4, book=False) as engine:
        assert engine.level == 10
        club = engine.play(board, Limit(depth=4), level="club")
        assert club is not None and club.move in board.legal_moves
        assert engine.level == 10
        with pytest.raises(ValueError, match="level"):
            engine.play(board, Limit(depth=4), level=11)
    with pytest.raises(ValueError, match="level"):
        Engine(level=0)
