"""Benchmarks of the Python package (run alone on the machine):

- random games a second into numpy, and labels (board, flipped, legal, to_move) a second;
- the per-call cost of Board.push/pop and legal_moves;
- the GIL: a fixed set of searches on two Python threads (an engine each, one search thread
  each) against one thread;
- FFO #40-#49 through Engine.solve against the published scores;
- with rust-reversi installed (``pip install rust-reversi``), its per-call costs beside ours,
  interleaved run by run.

    python python/bench/bench.py [--quick]
"""

from __future__ import annotations

import importlib
import sys
import threading
import time
from pathlib import Path
from typing import Callable

import iago
from iago import Board, Engine, Limit, datasets

REPO = Path(__file__).resolve().parents[2]


def best_of(runs: int, f: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    quick = "--quick" in sys.argv
    n = 200_000 if quick else 1_000_000
    t = best_of(5, lambda: datasets.random_games(n, seed=1))
    print(f"random games: {n / t:,.0f} games/s ({n:,} games in {t:.3f} s, best of 5)")
    moves, lengths = datasets.random_games(n // 5, seed=2)
    positions = int(lengths.sum())
    t = best_of(5, lambda: datasets.labels(moves, lengths))
    print(f"labels: {positions / t / 1e6:.1f} M positions/s ({positions:,} positions, "
          f"{positions * 193 / t / 1e9:.2f} GB/s, best of 5)")

    board = Board.from_transcript("f5d6c3d3c4")
    move = next(iter(board.legal_moves))
    calls = 200_000

    def push_pop() -> None:
        for _ in range(calls):
            board.push(move)
            board.pop()

    t = best_of(5, push_pop)
    print(f"Board.push + Board.pop: {t / calls * 1e9:.0f} ns a pair")

    def legal() -> None:
        for _ in range(calls):
            board.legal_moves

    t = best_of(5, legal)
    print(f"Board.legal_moves: {t / calls * 1e9:.0f} ns a call")

    def listed() -> None:
        for _ in range(calls // 4):
            list(board.legal_moves)

    t = best_of(5, listed)
    print(f"list(Board.legal_moves): {t / (calls // 4) * 1e9:.0f} ns a call")

    compare_rust_reversi()

    problems, _ = iago.read_obf(REPO / "src" / "cli" / "ffo40-49.obf")
    work = [p.position for p in problems] * (1 if quick else 4)
    depth = 11
    # The engines are made before the clock starts: the measure is of the searches alone.
    engines = [Engine(threads=1, hash_mb=16) for _ in range(3)]

    def search(engine: Engine, items: list[iago.Position]) -> None:
        for position in items:
            engine.clear_hash()
            engine.analyse(position, Limit(depth=depth))

    one = best_of(5, lambda: search(engines[0], work))

    def two_threads() -> None:
        half = len(work) // 2
        parts = (work[:half], work[half:])
        threads = [
            threading.Thread(target=search, args=(engine, part))
            for engine, part in zip(engines[1:], parts)
        ]
        for th in threads:
            th.start()
        for th in threads:
            th.join()

    two = best_of(5, two_threads)
    for engine in engines:
        engine.close()
    print(f"GIL: {len(work)} searches at depth {depth}: one thread {one:.2f} s, "
          f"two threads {two:.2f} s, {one / two:.2f}x")

    with Engine(threads=2, hash_mb=64) as engine:
        start = time.perf_counter()
        right = 0
        nodes = 0
        for p in problems:
            s = engine.solve(p.position)
            assert s is not None
            nodes += s.nodes
            right += s.score == p.best_score and s.best_move in p.best_moves()
        t = time.perf_counter() - start
    print(f"FFO #40-#49: {right}/10 exact scores and best moves, {t:.2f} s, {nodes:,} nodes (2 threads)")


def compare_rust_reversi() -> None:
    """Per-call costs of rust-reversi's board and ours, the same work interleaved (the best of
    seven runs each): replaying 60-move games, the legal moves as a mask and as a list."""
    try:
        rust_reversi = importlib.import_module("rust_reversi")
    except ImportError:
        print("rust-reversi: not installed, no comparison")
        return
    moves, lengths = datasets.random_games(300, seed=1)
    games = [[int(x) for x in row[:n]] for row, n in zip(moves, lengths) if n == 60][:100]
    plies = sum(len(g) for g in games)

    def replay_theirs() -> None:
        for game in games:
            board = rust_reversi.Board()
            for m in game:
                if board.is_pass():
                    board.do_pass()
                board.do_move(m)

    def replay_ours() -> None:
        for game in games:
            board = Board()
            for m in game:
                if board.must_pass():
                    board.push(iago.PASS)
                board.push(m)

    theirs = rust_reversi.Board()
    ours = Board()
    for m in (37, 43, 18, 19, 26):
        theirs.do_move(m)
        ours.push(m)
    calls = 100_000
    pairs: list[tuple[str, Callable[[], object], Callable[[], object], int]] = [
        ("a move (is_pass + do_move / must_pass + push)", replay_theirs, replay_ours, plies),
        (
            "legal moves as a mask (get_legal_moves / legal_moves.mask)",
            lambda: [theirs.get_legal_moves() for _ in range(calls)],
            lambda: [ours.legal_moves.mask for _ in range(calls)],
            calls,
        ),
        (
            "legal moves as a list (get_legal_moves_vec / list(legal_moves))",
            lambda: [theirs.get_legal_moves_vec() for _ in range(calls)],
            lambda: [list(ours.legal_moves) for _ in range(calls)],
            calls,
        ),
    ]
    for name, f_theirs, f_ours, count in pairs:
        a: list[float] = []
        b: list[float] = []
        for _ in range(7):
            a.append(best_of(1, f_theirs))
            b.append(best_of(1, f_ours))
        t_theirs, t_ours = min(a) / count * 1e9, min(b) / count * 1e9
        print(f"{name}: rust-reversi {t_theirs:.0f} ns, iago {t_ours:.0f} ns ({t_ours / t_theirs:.2f}x)")


if __name__ == "__main__":
    main()
