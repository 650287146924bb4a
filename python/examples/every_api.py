"""Uses every public name of the package once, with its types spelled out: `mypy --strict`
checks the stubs against real use (cargo xtask test runs it on this file), and
python/tests/test_every_api.py runs it. Needs the `gym` extra for the environments."""

from __future__ import annotations

import pickle
import tempfile
from pathlib import Path
from typing import Optional

import numpy as np
from numpy.typing import NDArray

import iago
from iago import datasets, encodings
from iago.env import ACTIONS, PASS_ACTION, OthelloEnv, OthelloVectorEnv


def board_and_moves() -> iago.Board:
    board = iago.Board()
    assert iago.__version__
    color: iago.Color = board.turn
    assert color == iago.BLACK and color.opposite() == iago.WHITE and color.symbol == "X"
    assert int(iago.WHITE) == 1
    move: iago.Move = iago.Move.from_str("f5")
    assert move == iago.Move(37) and move.square == 37 and move.row == 4 and move.col == 5
    assert not move.is_pass and iago.PASS.is_pass and move.transform(1) < iago.Move(63)
    legal: iago.LegalMoves = board.legal_moves
    assert move in legal and len(legal) == 4 and bool(legal) and legal.mask != 0
    assert [str(m) for m in legal] == ["d3", "c4", "f5", "e6"]
    board.push(move)
    assert board.push_str("d6") == iago.Move.from_str("d6")
    assert board.is_legal("c3") and board.peek() == iago.Move.from_str("d6")
    assert board.pop() == iago.Move.from_str("d6") and board.ply() == 1
    board.push("d6")
    assert board.move_stack == [move, iago.Move.from_str("d6")]
    assert board.rules == "othello" and board.size == 8 and board.empties == 58
    assert not board.is_game_over() and not board.must_pass() and board.outcome() is None
    assert board.root() == iago.Board() and board.copy(stack=False) == board
    assert board.transcript() == "f5d6" and board.to_ggf(black="A", white="B").startswith("(;")
    assert board.discs(iago.BLACK) == 3 and board.disc_at("f5") == iago.BLACK
    assert len(board.symmetries()) == 8 and board.transform(0) == board
    assert board.to_planes().shape == (2, 8, 8) and board.to_array().shape == (8, 8)
    assert board.board_string().endswith(" X") and "<svg" in board._repr_svg_()
    assert iago.Board.from_transcript("f5d6", rules="othello") == board

    position: iago.Position = board.position()
    assert position.turn == board.turn and position.rules == "othello" and position.size == 8
    assert position.black_mask & position.white_mask == 0
    assert position.player | position.opponent == position.black_mask | position.white_mask
    assert position.empties == 58 and len(position.legal_moves) > 0
    assert position.discs(iago.WHITE) == 3 and position.disc_at(37) == iago.BLACK
    assert position.play("c3").turn == iago.WHITE and not position.is_game_over()
    assert not position.must_pass() and position.outcome() is None
    assert iago.Position(position.board_string()) == position
    assert position.transform(3) in position.symmetries()
    assert position.canonical() == position.transform(0).canonical()
    assert position.to_planes().shape == (2, 8, 8) and "<svg" in position._repr_svg_()

    full = iago.Board("X" * 64 + " O")
    outcome: Optional[iago.Outcome] = full.outcome()
    assert outcome is not None and outcome.winner == iago.BLACK
    assert outcome.score_for_black == 64 and outcome.black_discs == 64
    assert outcome.white_discs == 0 and outcome.result() == "64-0"
    assert pickle.loads(pickle.dumps(outcome)) == outcome

    for error in (iago.InvalidMoveError, iago.IllegalMoveError, iago.InvalidPositionError):
        assert issubclass(error, ValueError)
    return board


def engine(board: iago.Board) -> None:
    with iago.Engine(threads=1, hash_mb=4, level="beginner", seed=1) as weak:
        assert weak.level == 1
        weakest: Optional[iago.PlayResult] = weak.play(board, iago.Limit(depth=2), level=1)
        assert weakest is not None and weakest.move in board.legal_moves
    with iago.Engine(threads=1, hash_mb=16, book=True, eval=None, selectivity=None) as e:
        limit = iago.Limit(depth=4, time=10.0)
        assert limit.depth == 4 and limit.time == 10.0
        analysis: iago.Analysis = e.analyse(board, limit)
        lines: list[iago.Analysis] = e.analyse(board, limit, multipv=2)
        assert analysis.score == lines[0].score and lines[1].multipv == 2
        assert analysis.score_for_black == analysis.score and analysis.turn == iago.BLACK
        assert analysis.best_move == analysis.pv[0] and analysis.depth == 4
        assert analysis.selectivity == 95 and not analysis.exact and analysis.bound == "estimate"
        assert analysis.nodes > 0 and analysis.time >= 0 and analysis.source == "search"
        with e.analysis(board, iago.Limit(depth=3), multipv=1) as stream:
            depths = [info.depth for info in stream]
        last: Optional[iago.Analysis] = stream.wait()
        assert depths == [1, 2, 3] and last is not None and stream.info == last
        assert stream.multipv == [last]
        endless: iago.AnalysisStream = e.analysis(board)
        endless.stop()
        endless.wait()
        played: Optional[iago.PlayResult] = e.play(board, iago.Limit(depth=2))
        assert played is not None and played.move == played.info.best_move
        solution: Optional[iago.Solution] = e.solve(
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
            mode="exact",
            limit=iago.Limit(time=60),
        )
        assert solution is not None and solution.score == 18 and solution.mode == "exact"
        assert solution.score_for_black == 18 and solution.best_move == iago.Move.from_str("g8")
        assert solution.pv[0] == solution.best_move and solution.nodes > 0
        assert solution.time >= 0 and solution.turn == iago.BLACK
        assert isinstance(e.evaluate(board), int)
        reviews: list[iago.MoveReview] = e.review(board, depth=2, exact_from=0)
        review = reviews[0]
        assert review.ply == 1 and review.empties == 60 and review.color == iago.BLACK
        assert review.move == iago.Move.from_str("f5") and review.loss == review.best_value - review.value
        assert review.best_move in iago.Board().legal_moves and not review.exact
        for value in (analysis, played, solution, review):
            assert pickle.loads(pickle.dumps(value)) == value
        e.stop()
        e.clear_hash()
        assert not e.closed
    assert e.closed


def records() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.txt"
        path.write_text("f5d6c3\nf5f5\n")
        reader: iago.GameReader = iago.read_games(path, rules="othello", strict=False)
        records: list[iago.GameRecord] = list(reader)
        bad: list[iago.BadRecord] = reader.errors
        assert len(records) == 1 and bad[0].index == 1 and bad[0].line == 2 and bad[0].message
        record = records[0]
        assert record.index == 0 and record.line == 1 and record.black == "Black"
        assert record.white == "White" and record.tags == {} and record.tournament == ""
        assert record.tournament_id is None and record.black_id is None and record.white_id is None
        assert record.year is None and record.black_discs is None
        assert record.black_theoretical is None and record.theoretical_depth is None
        assert record.board.transcript() == record.transcript() == "f5d6c3"
        assert pickle.loads(pickle.dumps(record)) == record
        obf = Path(tmp) / "p.obf"
        obf.write_text("---------------------------OX------XO--------------------------- X; F5:+0;\n")
        problems, errors = iago.read_obf(obf, rules="othello", strict=False)
        problem: iago.Problem = problems[0]
        assert not errors and problem.line == 1 and problem.best_score == 0
        assert problem.moves == [(iago.Move.from_str("f5"), 0)] and problem.position.empties == 60
        assert problem.best_moves() == [iago.Move.from_str("f5")]
    assert len(list(iago.parse_games("f5d6\n", rules="othello", strict=True))) == 1
    assert iago.read_text("f5d6", rules="othello").transcript() == "f5d6"
    wthor = Path(__file__).resolve().parents[2] / "tests" / "data" / "wthor" / "WTH_2023.wtb"
    first = next(iter(iago.read_wthor(wthor, players=None, tournaments=None, strict=False)))
    assert first.year == 2023
    try:
        iago.read_text("z9")
    except iago.RecordError as error:
        assert "column" in str(error)


def data() -> None:
    moves, lengths = datasets.random_games(100, seed=1, passes=False, first=0, threads=1)
    labels: dict[str, NDArray[np.int8]] = datasets.labels(moves, lengths, passes=False, threads=1)
    assert labels["board"].shape == (int(lengths.sum()), 64)
    played, played_lengths = datasets.engine_games(2, depth=1, temperature=0.0, seed=1)
    assert played.shape[0] == 2 and played_lengths.shape == (2,)
    with_passes, _ = datasets.with_passes(moves, lengths)
    back, _ = datasets.without_passes(with_passes)
    assert (back[:, :60] == moves).all()
    assert (datasets.from_othello_world(datasets.to_othello_world(moves)) == moves).all()
    assert (datasets.from_metaothello(datasets.to_metaothello(moves)) == moves).all()
    assert (datasets.from_alphazero(datasets.to_alphazero(moves)) == moves).all()
    player, opponent = datasets.board_masks(labels["board"][-3:])
    scores = datasets.exact_scores(player, opponent, threads=1, hash_mb=4, max_empties=28)
    assert scores.shape == (3,)
    planes = encodings.planes_from_codes(labels["board"][:5])
    assert (encodings.codes_from_planes(planes) == labels["board"][:5]).all()
    signed = encodings.signed_from_planes(planes, labels["to_move"][:5])
    assert (encodings.planes_from_signed(signed, labels["to_move"][:5]) == planes).all()


def environments() -> None:
    env = OthelloEnv(opponent="random", agent_color=iago.BLACK, render_mode="ansi")
    obs, info = env.reset(seed=0)
    assert obs.shape == (2, 8, 8) and info["action_mask"].shape == (ACTIONS,)
    action = int(np.flatnonzero(info["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(np.int64(action))
    assert not truncated and not info["illegal_action"] and env.render() is not None
    vector = OthelloVectorEnv(4, seed=0)
    batch, infos = vector.reset(seed=0)
    batch, rewards, done, cut, infos = vector.step(vector.random_actions())
    assert batch.shape == (4, 2, 8, 8) and rewards.shape == (4,) and PASS_ACTION == 64
    assert not cut.any() and infos["illegal_action"].shape == (4,) and done.shape == (4,)
    vector.close()


def main() -> None:
    engine(board_and_moves())
    records()
    data()
    environments()
    print("every API: ok")


if __name__ == "__main__":
    main()
