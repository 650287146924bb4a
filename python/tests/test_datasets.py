"""Datasets: random games are legal, complete and seeded (the same bytes on any thread count),
labels agree with the board replayed move by move, the pass conventions and token converters
round-trip, exact scores agree with the engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import iago
from iago import Board, Engine, datasets


def replay(row: np.ndarray, length: int) -> Board:
    board = Board()
    for value in row[:length]:
        if value == datasets.PASS:
            board.push(iago.PASS)
            continue
        if board.must_pass():
            board.push(iago.PASS)
        board.push(int(value))
    return board


def test_random_games_are_legal_complete_and_padded() -> None:
    moves, lengths = datasets.random_games(300, seed=11)
    assert moves.shape == (300, 60) and moves.dtype == np.int8 and lengths.dtype == np.int16
    for row, length in zip(moves, lengths):
        board = replay(row, int(length))
        assert board.is_game_over()
        assert (row[length:] == datasets.PAD).all() and (row[:length] >= 0).all()


def test_the_seed_alone_fixes_the_bytes() -> None:
    one, l1 = datasets.random_games(5000, seed=3, threads=1)
    two, l2 = datasets.random_games(5000, seed=3, threads=2)
    assert one.tobytes() == two.tobytes() and l1.tobytes() == l2.tobytes()
    head, _ = datasets.random_games(1000, seed=3)
    assert head.tobytes() == one[:1000].tobytes()
    other, _ = datasets.random_games(1000, seed=4)
    assert other.tobytes() != head.tobytes()
    # Chunks with `first` moved on are the one call's games.
    tail, lt = datasets.random_games(4000, seed=3, first=1000)
    assert tail.tobytes() == one[1000:].tobytes() and lt.tobytes() == l1[1000:].tobytes()
    explicit, _ = datasets.random_games(50, seed=3, passes=True, first=7)
    assert datasets.without_passes(explicit)[0].tobytes() == one[7:57].tobytes()


def test_engine_games_are_legal_seeded_and_follow_the_temperature() -> None:
    moves, lengths = datasets.engine_games(24, depth=1, temperature=2.0, seed=5, threads=2)
    again, _ = datasets.engine_games(24, depth=1, temperature=2.0, seed=5, threads=1)
    assert moves.tobytes() == again.tobytes()
    for row, length in zip(moves, lengths):
        assert replay(row, int(length)).is_game_over()
    assert len({row.tobytes() for row in moves}) > 20
    greedy, _ = datasets.engine_games(3, depth=2, temperature=0.0, seed=1)
    other, _ = datasets.engine_games(3, depth=2, temperature=0.0, seed=2)
    assert greedy.tobytes() == other.tobytes() and len({r.tobytes() for r in greedy}) == 1
    # The greedy first move is the best of the engine's depth-2 values: each move played, then
    # a search of one ply, from an empty table, in square order.
    with iago.Engine(threads=1, hash_mb=1, book=False) as engine:
        engine.clear_hash()
        values = {}
        for move in Board().legal_moves:
            child = Board().position().play(move)
            values[move.square] = -engine.analyse(child, iago.Limit(depth=1)).score
        best = max(values.values())
        assert greedy[0, 0] == min(sq for sq, v in values.items() if v == best and sq is not None)
    with pytest.raises(ValueError):
        datasets.engine_games(1, depth=0)
    with pytest.raises(ValueError):
        datasets.engine_games(1, temperature=-1.0)


def test_explicit_passes_round_trip() -> None:
    implicit, li = datasets.random_games(3000, seed=5)
    explicit, le = datasets.random_games(3000, seed=5, passes=True)
    assert (explicit == datasets.PASS).any(), "3000 games without a pass"
    added, la = datasets.with_passes(implicit, li)
    assert added.tobytes() == explicit.tobytes() and la.tobytes() == le.tobytes()
    removed, lr = datasets.without_passes(explicit, le)
    assert removed.tobytes() == implicit.tobytes() and lr.tobytes() == li.tobytes()
    game = int(np.argmax((explicit == datasets.PASS).any(axis=1)))
    assert replay(explicit[game], int(le[game])).is_game_over()


def test_labels_agree_with_the_board() -> None:
    moves, lengths = datasets.random_games(40, seed=9)
    labels = datasets.labels(moves, lengths)
    assert labels["board"].shape == (int(lengths.sum()), 64)
    p = 0
    for row, length in zip(moves, lengths):
        board = Board()
        for value in row[:length]:
            if board.must_pass():
                board.push(iago.PASS)
            before = board.position()
            board.push(int(value))
            if board.must_pass():
                board.push(iago.PASS)
            after = board.position()
            mover_before = before.player
            mover_after = after.opponent if after.turn != before.turn else after.player
            flipped = mover_after & ~mover_before & ~(1 << int(value))
            expected = np.zeros(64, dtype=np.int8)
            for sq in range(64):
                if after.player >> sq & 1:
                    expected[sq] = 1
                elif after.opponent >> sq & 1:
                    expected[sq] = 2
            assert (labels["board"][p] == expected).all()
            assert [sq for sq in range(64) if labels["flipped"][p][sq]] == [
                sq for sq in range(64) if flipped >> sq & 1
            ]
            legal = {m.square for m in board.legal_moves if not m.is_pass}
            assert {int(s) for s in np.flatnonzero(labels["legal"][p])} == legal
            assert labels["to_move"][p] == (0 if after.turn == iago.BLACK else 1)
            p += 1
    assert p == len(labels["to_move"])


def test_labels_of_explicit_passes_and_threads_agree() -> None:
    explicit, le = datasets.random_games(500, seed=5, passes=True)
    implicit, li = datasets.random_games(500, seed=5)
    a = datasets.labels(explicit, le, passes=True, threads=1)
    b = datasets.labels(explicit, le, passes=True, threads=2)
    assert all(a[k].tobytes() == b[k].tobytes() for k in a)
    c = datasets.labels(implicit, li)
    # A written pass is a position of its own: the implicit labels are the others.
    keep = np.concatenate(
        [row[:n] != datasets.PASS for row, n in zip(explicit, le)]
    )
    assert len(a["board"]) == len(c["board"]) + int((~keep).sum())


def test_a_batch_too_large_for_memory_raises() -> None:
    # 266 GB: refused by Linux's heuristic overcommit (mode 0), which the test needs.
    mode = Path("/proc/sys/vm/overcommit_memory")
    if not mode.exists() or mode.read_text().strip() != "0":
        pytest.skip("needs Linux's heuristic overcommit to refuse the request")
    with pytest.raises(MemoryError):
        datasets.random_games(2**32, seed=1)


def test_an_illegal_game_is_refused_by_name() -> None:
    moves, lengths = datasets.random_games(3, seed=1)
    moves[2, 5] = moves[2, 4]
    with pytest.raises(ValueError, match="game 2, move 6"):
        datasets.labels(moves, lengths)
    with pytest.raises(ValueError):
        datasets.labels(np.full((1, 60), 70), None)
    with pytest.raises(ValueError):
        datasets.labels(moves, lengths[:2])


def test_token_converters_round_trip() -> None:
    implicit, _ = datasets.random_games(200, seed=2)
    explicit, _ = datasets.random_games(200, seed=2, passes=True)
    ow = datasets.to_othello_world(implicit)
    assert ow.min() >= 0 and ow.max() <= 60
    assert datasets.from_othello_world(ow).tobytes() == implicit.tobytes()
    # othello_world's first moves: d3 c4 f5 e6 are tokens 20, 27, 34, 41.
    assert datasets.to_othello_world(np.array([[19, 26, 37, 44]])).tolist() == [[20, 27, 34, 41]]
    with pytest.raises(ValueError):
        datasets.to_othello_world(explicit[(explicit == 64).any(axis=1)])
    meta = datasets.to_metaothello(explicit)
    assert meta.max() <= 65 and (meta[explicit == 64] == 65).all() and (meta[explicit == -1] == 0).all()
    assert datasets.from_metaothello(meta).tobytes() == explicit.tobytes()
    az = datasets.to_alphazero(explicit)
    assert datasets.from_alphazero(az).tobytes() == explicit.tobytes()


def test_exact_scores_agree_with_the_engine() -> None:
    moves, lengths = datasets.random_games(12, seed=21)
    positions = []
    for row, length in zip(moves, lengths):
        board = replay(row, int(length) - 10)
        if not board.is_game_over():
            positions.append(board.position())
    scores = datasets.exact_scores(positions)
    with Engine(threads=1, hash_mb=16) as engine:
        for position, score in zip(positions, scores):
            solution = engine.solve(position)
            assert solution is not None and solution.score == score
    labels = datasets.labels(moves[:1], lengths[:1])
    player, opponent = datasets.board_masks(labels["board"][-12:])
    assert len(datasets.exact_scores(player, opponent)) == 12
    with pytest.raises(ValueError, match="max_empties"):
        datasets.exact_scores([Board()])
    with pytest.raises(ValueError, match="share squares"):
        datasets.exact_scores(np.array([1], dtype=np.uint64), np.array([1], dtype=np.uint64))
