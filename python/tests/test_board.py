"""The board, moves and positions: legality against the Rust perft counts, python-chess's
conventions, every error path, the rule variants and the symmetries."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import iago
from iago import BLACK, PASS, WHITE, Board, Move, Position

START = "---------------------------OX------XO--------------------------- X"


def perft(board: Board, depth: int) -> int:
    """Leaves at `depth` plies, a forced pass a ply, a finished game one leaf (Edax's count)."""
    if depth == 0 or board.is_game_over():
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize(
    "depth,leaves", [(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396), (6, 8200), (7, 55092)]
)
def test_perft_matches_the_rust_counts(depth: int, leaves: int) -> None:
    assert perft(Board(), depth) == leaves


def test_a_game_is_played_and_taken_back() -> None:
    board = Board()
    assert board.turn == BLACK and board.ply() == 0
    assert sorted(str(m) for m in board.legal_moves) == ["c4", "d3", "e6", "f5"]
    assert board.push_str("f5") == Move.from_str("f5")
    board.push(Move.from_str("d6"))
    board.push("c3")
    board.push(19)  # d3
    assert board.transcript() == "f5d6c3d3"
    assert board.peek() == Move.from_str("d3")
    assert board.pop() == Move(19)
    assert board.move_stack == [Move.from_str(s) for s in ("f5", "d6", "c3")]
    assert board.turn == WHITE
    assert board.root() == Board()
    with pytest.raises(IndexError):
        Board().pop()
    with pytest.raises(IndexError):
        Board().peek()


def test_legal_moves_support_in_len_and_iteration() -> None:
    moves = Board().legal_moves
    assert len(moves) == 4 and bool(moves)
    assert "d3" in moves and Move.from_str("c4") in moves and 37 in moves
    assert "a1" not in moves and "zz" not in moves and PASS not in moves
    assert moves.mask == sum(1 << m.square for m in moves if m.square is not None)
    assert "LegalMoves (4)" in repr(moves)


def test_bad_moves_raise_and_leave_the_board_unchanged() -> None:
    board = Board.from_transcript("f5d6")
    before = board.copy()
    with pytest.raises(iago.InvalidMoveError, match="not a square"):
        board.push_str("z9")
    with pytest.raises(iago.IllegalMoveError, match="flips no disc"):
        board.push("a1")
    with pytest.raises(iago.IllegalMoveError, match="occupied"):
        board.push("d4")
    with pytest.raises(iago.IllegalMoveError, match="cannot pass"):
        board.push(PASS)
    with pytest.raises(iago.InvalidMoveError):
        board.push(64)
    with pytest.raises(TypeError):
        board.push(3.5)  # type: ignore[arg-type]
    assert board == before and board.move_stack == before.move_stack
    assert issubclass(iago.IllegalMoveError, ValueError)
    assert issubclass(iago.InvalidMoveError, ValueError)
    with pytest.raises(iago.InvalidMoveError):
        Move.from_str("i1")
    with pytest.raises(iago.InvalidMoveError):
        Move(64)


@pytest.mark.parametrize(
    "text",
    ["", "X", "x" * 64, "-" * 64 + " Z", "-" * 63 + " X", START + " extra", "-" * 36 + " X; junk"],
)
def test_bad_positions_raise_invalid_position(text: str) -> None:
    with pytest.raises(iago.InvalidPositionError):
        Board(text)
    with pytest.raises(iago.InvalidPositionError):
        Position(text)


def test_bad_rules_raise() -> None:
    with pytest.raises(iago.InvalidPositionError, match="unknown rules"):
        Board(rules="chess")
    with pytest.raises(iago.InvalidPositionError):
        Board("-" * 14 + "OX----XO" + "-" * 14 + " X", rules="4x4")


def test_moves_are_hashable_ordered_and_round_trip() -> None:
    d3 = Move.from_str("D3")
    assert (d3.square, d3.row, d3.col, d3.is_pass) == (19, 2, 3, False)
    assert str(d3) == "d3" and eval(repr(d3), {"Move": Move}) == d3
    assert PASS.is_pass and PASS.square is None and str(PASS) == "PA"
    assert Move.from_str("pass") == PASS and eval(repr(PASS), {"Move": Move}) == PASS
    assert {d3: 1}[Move(19)] == 1
    assert sorted([PASS, Move(5), Move(1)]) == [Move(1), Move(5), PASS]


def test_positions_are_immutable_hashable_and_round_trip() -> None:
    a = Board.from_transcript("f5d6c3").position()
    b = Board.from_transcript("c4e3f6").transform(4).position()
    assert eval(repr(a), {"Position": Position}) == a
    assert Position(a.board_string()) == a
    assert len({a, Position(a.board_string()), Position()}) == 2
    assert a.turn == WHITE and a.discs(BLACK) == 5 and a.empties == 57
    assert a.black_mask & a.white_mask == 0 and a.player == a.white_mask
    assert a.canonical() == b.canonical()
    assert len(set(a.symmetries())) == 8
    after = a.play("d3")
    assert after.turn == BLACK and a.turn == WHITE
    assert a.disc_at("c3") == BLACK and a.disc_at(Move.from_str("h8")) is None


def test_board_repr_round_trips_and_str_is_the_grid() -> None:
    board = Board.from_transcript("f5d6")
    again = eval(repr(board), {"Board": Board})
    assert again == board and again.move_stack == []
    assert str(board).splitlines()[0].split() == list("abcdefgh")
    with pytest.raises(TypeError):
        hash(board)
    svg = board._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") >= 6


def test_everything_pickles_and_deep_copies() -> None:
    board = Board.from_transcript("f5d6c3d3c4", rules="othello")
    small = Board.from_transcript("c2", rules="6x6 anti")
    values = [
        Move(19), PASS, BLACK, WHITE, board.position(), small.position(), iago.Limit(depth=3),
        iago.Limit(time=0.5),
    ]
    for value in values:
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value
    for b in (board, small):
        again = pickle.loads(pickle.dumps(b))
        assert again == b and again.move_stack == b.move_stack and again.rules == b.rules
        assert again.root() == b.root()


def test_copies_are_independent() -> None:
    board = Board.from_transcript("f5")
    for other in (board.copy(), copy.copy(board), copy.deepcopy(board)):
        other.push("d6")
        assert board.ply() == 1 and other.ply() == 2
    assert board.copy(stack=False).move_stack == []


def test_a_whole_game_ends_with_an_outcome() -> None:
    rng = np.random.default_rng(5)
    board = Board()
    while not board.is_game_over():
        moves = list(board.legal_moves)
        board.push(moves[int(rng.integers(len(moves)))])
    outcome = board.outcome()
    assert outcome is not None and len(board.legal_moves) == 0
    assert outcome.black_discs + outcome.white_discs + board.empties == 64
    assert outcome.score_for_black == board.position().outcome().score_for_black  # type: ignore[union-attr]
    assert outcome.result() == f"{outcome.black_discs}-{outcome.white_discs}"
    replay = Board.from_transcript(board.transcript())
    assert replay == board and replay.transcript(passes=True) == board.transcript(passes=True)


def test_a_forced_pass_is_the_only_legal_move() -> None:
    # White to move has no move; Black has.
    text = "XXXXXXXX" + "XXXXXXXX" * 6 + "XXXXXXO-" + " O"
    board = Board(text)
    assert board.must_pass() and list(board.legal_moves) == [PASS]
    board.push(PASS)
    assert board.turn == BLACK and board.legal_moves.mask == 1 << 63


def test_variants_start_and_play() -> None:
    small = Board(rules="6x6")
    assert small.size == 6 and len(small.legal_moves) == 4
    assert small.board_string().count("-") == 32
    assert eval(repr(small), {"Board": Board}) == small
    reversi = Board(rules="reversi")
    assert sorted(str(m) for m in reversi.legal_moves) == ["d4", "d5", "e4", "e5"]
    anti = Board("XXXXXXXXXXXXOOOO O", rules="anti")
    assert anti.size == 4 and anti.outcome() is not None
    assert anti.outcome().winner == WHITE  # type: ignore[union-attr]
    limited = Board(rules="reversi-32")
    assert limited.rules == "reversi 32-discs"
    assert Board(START, rules="othello").rules == "othello"


def test_symmetries_map_games_to_games() -> None:
    board = Board.from_transcript("f5d6c3d3c4")
    images = board.symmetries()
    assert len(images) == 8 and images[0] == board
    for image in images:
        assert image.ply() == 5
        assert image.position().canonical() == board.position().canonical()
    small = Board.from_transcript("c2", rules="6x6")
    # The images of a 6x6 game stay on the 6x6 board (the mirrors change the start's colours).
    assert {str(b.peek()) for b in small.symmetries()} == {
        "c2", "b3", "e4", "d5", "d2", "e3", "b4", "c5"
    }
    assert Move.from_str("c2").transform(6, 6) in {Move.from_str(s) for s in ("e3", "b4", "d5", "e4")}


def test_to_array_marks_the_discs() -> None:
    grid = Board().to_array()
    assert grid.shape == (8, 8) and grid.dtype == np.int8
    assert grid[3, 3] == -1 and grid[3, 4] == 1 and int(np.abs(grid).sum()) == 4
