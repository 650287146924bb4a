"""What searches and readers give: pickled and back, equal, through a process pool; the
streamed analysis; finished games; limits; arguments out of range and files that are not."""

from __future__ import annotations

import concurrent.futures
import pickle
import time
from pathlib import Path
from typing import Any

import pytest

import iago
from iago import Board, Engine, Limit

from conftest import REPO, WTHOR_DIR

HARD_20 = "-OOO------OOOO--XXXOOXXX-XOOOXX-XXXXOOOOOXXOOOO---OXOO---OOOO--- X"


@pytest.fixture(scope="module")
def engine() -> Any:
    with Engine(threads=2, hash_mb=16) as e:
        yield e


def round_trip(value: Any) -> Any:
    back = pickle.loads(pickle.dumps(value))
    assert back == value and type(back) is type(value)
    assert repr(back) == repr(value)
    return back


def test_every_result_pickles_and_compares_equal(engine: Engine) -> None:
    board = Board.from_transcript("f5d6c3d3")
    analysis = engine.analyse(board, Limit(depth=6))
    round_trip(analysis)
    lines = engine.analyse(board, Limit(depth=4), multipv=3)
    assert [round_trip(line).multipv for line in lines] == [1, 2, 3]
    played = engine.play(board, Limit(depth=4))
    assert played is not None
    round_trip(played)
    solution = engine.solve(HARD_20)
    assert solution is not None
    round_trip(solution)
    for review in engine.review(Board.from_transcript("f5d6c3d3c4"), depth=4):
        round_trip(review)
    outcome = Board("X" * 64 + " O").outcome()
    assert outcome is not None
    round_trip(outcome)
    # A different field is a different value.
    assert analysis != engine.analyse(board, Limit(depth=5))


def test_records_and_problems_pickle(tmp_path: Path) -> None:
    wthor = sorted(WTHOR_DIR.glob("*.wtb"))[0]
    records = list(iago.read_wthor(wthor))[:3]
    for record in records:
        back = round_trip(record)
        assert back.board.move_stack == record.board.move_stack
    ggf = tmp_path / "g.ggf"
    ggf.write_text(
        "(;GM[Othello]PC[x]PB[Ann]PW[Bob]TY[8]"
        "BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)\n"
    )
    (record,) = list(iago.read_games(ggf))
    assert round_trip(record).tags == {"GM": "Othello", "PC": "x", "PB": "Ann", "PW": "Bob", "TY": "8"}
    round_trip(iago.read_text("f5d6c3", rules="othello"))
    problems, _ = iago.read_obf(REPO / "tests" / "data" / "hard-20-first40.obf")
    for problem in problems[:3]:
        round_trip(problem)
    assert repr(problems[0]).endswith("best +0>")


def _solve(text: str) -> iago.Solution:
    with Engine(threads=1, hash_mb=8) as e:
        solution = e.solve(text)
    assert solution is not None
    return solution


def test_results_come_back_from_a_process_pool() -> None:
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        solution = pool.submit(_solve, HARD_20).result(timeout=120)
    assert solution.score == 0 and solution.best_move == iago.Move.from_str("e1")


def test_analysis_streams_deeper_depths_and_stops(engine: Engine) -> None:
    board = Board.from_transcript("f5d6c3d3c4")
    depths = []
    nodes = []
    with engine.analysis(board) as stream:
        for info in stream:
            depths.append(info.depth)
            nodes.append(info.nodes)
            assert info.best_move in board.legal_moves and info.turn == board.turn
            if info.depth == 8:
                stream.stop()
    assert depths[:8] == list(range(1, 9)), depths
    assert stream.info is not None and stream.info.depth >= 8
    # Nodes count from the start, as one search's would.
    assert nodes == sorted(nodes) and nodes[-1] > nodes[0]
    # With several lines, each depth gives them in rank order.
    stream = engine.analysis(board, Limit(depth=5), multipv=3)
    ranks = [(info.depth, info.multipv) for info in stream]
    assert ranks[-3:] == [(5, 1), (5, 2), (5, 3)], ranks
    last = stream.wait()
    assert last is not None and last.depth == 5 and [a.multipv for a in stream.multipv] == [1, 2, 3]
    # A time limit ends it by itself.
    start = time.monotonic()
    final = engine.analysis(Board.from_transcript("f5d6"), Limit(time=0.5)).wait()
    assert final is not None and 0.4 < time.monotonic() - start < 2.0
    # stop() from another call ends a stream that nobody reads.
    stream = engine.analysis(Board.from_transcript("f5f6"))
    time.sleep(0.2)
    stream.stop()
    assert stream.wait() is not None


def test_a_solve_with_a_time_limit_says_when_it_ran_out(engine: Engine) -> None:
    with pytest.raises(TimeoutError, match="not solved within 0.3 s"):
        engine.solve(Board.from_transcript("f5d6c3d3"), mode="wld", limit=Limit(time=0.3))
    solved = engine.solve(HARD_20, limit=Limit(time=60))
    assert solved is not None and solved.score == 0
    with pytest.raises(ValueError, match="time"):
        engine.solve(HARD_20, limit=Limit(depth=10))


def test_a_finished_game_agrees_everywhere(engine: Engine) -> None:
    full = Board("X" * 64 + " O")
    assert full.is_game_over()
    assert engine.play(full, Limit(depth=4)) is None
    solution = engine.solve(full)
    assert solution is not None and (solution.score, solution.best_move, solution.pv) == (-64, None, [])
    wld = engine.solve(full, mode="wld")
    assert wld is not None and wld.score == -2
    assert engine.evaluate(full) == -64
    assert engine.analyse(full, Limit(depth=4)).score == -64


def test_numbers_out_of_range_are_value_errors_naming_the_parameter(engine: Engine) -> None:
    cases: list[tuple[str, Any]] = [
        ("threads", lambda: Engine(threads=-1)),
        ("hash_mb", lambda: Engine(hash_mb=-1)),
        ("selectivity", lambda: Engine(selectivity=-3)),
        ("multipv", lambda: engine.analyse(Board(), Limit(depth=2), multipv=-1)),
        ("multipv", lambda: engine.analysis(Board(), multipv=0)),
        ("depth", lambda: engine.review(Board.from_transcript("f5"), depth=-1)),
        ("exact_from", lambda: engine.review(Board.from_transcript("f5"), exact_from=-1)),
        ("seed", lambda: iago.datasets.random_games(2, seed=-1)),
        ("n", lambda: iago.datasets.random_games(-1)),
        ("threads", lambda: iago.datasets.random_games(2, threads=-2)),
        ("first", lambda: iago.datasets.engine_games(1, first=-1)),
        ("depth", lambda: iago.datasets.engine_games(1, depth=-1)),
        ("n", lambda: iago._iago.GameBatch(-1)),
        ("size", lambda: iago.Move(3).transform(0, size=-1)),
    ]
    for name, call in cases:
        with pytest.raises(ValueError, match=name):
            call()


def test_files_that_are_missing_directories_or_binary(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.ggf"
    readers: list[Any] = [iago.read_games, iago.read_wthor, iago.read_obf]
    for reader in readers:
        with pytest.raises(FileNotFoundError) as error:
            reader(missing)
        assert error.value.filename == str(missing)
        with pytest.raises(IsADirectoryError):
            reader(tmp_path)
    with pytest.raises(FileNotFoundError):
        Engine(book=missing)
    wthor = sorted(WTHOR_DIR.glob("*.wtb"))[0]
    with pytest.raises(iago.RecordError, match="binary"):
        iago.read_games(wthor)
    with pytest.raises(iago.RecordError, match="binary"):
        iago.read_obf(wthor)


def test_renamed_attributes_warn_and_agree() -> None:
    position = Board.from_transcript("f5").position()
    with pytest.warns(DeprecationWarning, match="black_mask"):
        assert position.black == position.black_mask
    outcome = Board("X" * 64 + " O").outcome()
    assert outcome is not None and outcome.black_discs == 64
    with pytest.warns(DeprecationWarning, match="white_discs"):
        assert outcome.white == outcome.white_discs == 0
