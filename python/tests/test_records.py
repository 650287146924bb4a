"""Game records: WTHOR archives with names, GGF and transcripts, problem files; round trips,
bad records reported in their place while the good ones still come."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

import iago
from iago import Board

from conftest import FFO_40_49, WTHOR_DIR


def names_file(path: Path, names: list[str], width: int) -> None:
    header = bytearray(16)
    header[8:10] = struct.pack("<H", len(names))
    body = b"".join(n.encode("latin-1").ljust(width, b"\0") for n in names)
    path.write_bytes(bytes(header) + body)


def test_a_wthor_archive_replays_with_its_names(tmp_path: Path) -> None:
    source = WTHOR_DIR / "WTH_2023.wtb"
    games = list(iago.read_wthor(source))
    header_count = struct.unpack("<I", source.read_bytes()[4:8])[0]
    assert len(games) == header_count > 0
    first = games[0]
    assert first.year == 2023 and first.black == "" and first.line is None
    assert first.board.ply() >= 50 and first.board.is_game_over()
    # Black's recorded discs agree with the replayed game (empties to the winner).
    outcome = first.board.outcome()
    assert outcome is not None
    assert first.black_discs == (64 + outcome.score_for_black) // 2
    # Names from the player and tournament files beside the archive.
    (tmp_path / "WTH_2023.wtb").write_bytes(source.read_bytes())
    top = max(max(g.black_id or 0, g.white_id or 0) for g in games)
    names_file(tmp_path / "WTHOR.JOU", [f"Player {i}" for i in range(top + 1)], 20)
    tournaments = max(g.tournament_id or 0 for g in games)
    names_file(tmp_path / "WTHOR.TRN", [f"Open {i}" for i in range(tournaments + 1)], 26)
    named = next(iter(iago.read_wthor(tmp_path / "WTH_2023.wtb")))
    assert named.black == f"Player {first.black_id}"
    assert named.tournament == f"Open {first.tournament_id}"


def test_a_bad_wthor_game_is_reported_and_the_others_read(tmp_path: Path) -> None:
    data = bytearray((WTHOR_DIR / "WTH_2023.wtb").read_bytes())
    data[16 + 68 + 8] = 99  # game 1's first move: not a square
    path = tmp_path / "bad.wtb"
    path.write_bytes(bytes(data))
    reader = iago.read_wthor(path)
    games = list(reader)
    total = struct.unpack("<I", bytes(data[4:8]))[0]
    assert len(games) == total - 1
    assert [e.index for e in reader.errors] == [1] and "code 99" in reader.errors[0].message
    with pytest.raises(iago.RecordError):
        list(iago.read_wthor(path, strict=True))
    path.write_bytes(bytes(data[:40]))
    with pytest.raises(iago.RecordError, match="truncated"):
        iago.read_wthor(path)
    with pytest.raises(OSError):
        iago.read_wthor(tmp_path / "missing.wtb")


def test_ggf_games_round_trip(tmp_path: Path) -> None:
    games = [g.board for g in iago.read_wthor(WTHOR_DIR / "WTH_2022.wtb")][:20]
    text = "\n".join(b.to_ggf(black=f"B{i}", white="W") for i, b in enumerate(games))
    path = tmp_path / "games.ggf"
    path.write_text(text + "\n")
    back = list(iago.read_games(path))
    assert [r.board.move_stack for r in back] == [b.move_stack for b in games]
    assert back[3].black == "B3" and back[3].tags["PB"] == "B3" and back[3].line == 4
    assert back[0].transcript() == games[0].transcript()


def test_bad_games_are_reported_in_their_place() -> None:
    text = "(;GM[Othello]PB[Ann]PW[Bob]B[F5]W[D6];)\nf5d6c3\nf5f5\n(;GM[Othello]B[A1];)\n% comment\nf5d6\n"
    reader = iago.parse_games(text)
    good = list(reader)
    assert [g.transcript() for g in good] == ["f5d6", "f5d6c3", "f5d6"]
    assert [(e.index, e.line) for e in reader.errors] == [(2, 3), (3, 4)]
    assert good[0].black == "Ann" and good[1].black == "Black" and good[1].tags == {}
    with pytest.raises(iago.RecordError, match="illegal"):
        list(iago.parse_games(text, strict=True))


def test_transcripts_replay_under_their_rules(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    path.write_text("c2\n# a comment\nc2b4\n")
    games = list(iago.read_games(path, rules="6x6"))
    assert [g.board.size for g in games] == [6, 6]
    assert Board.from_transcript(games[1].transcript(), rules="6x6") == games[1].board


def test_problem_files_give_positions_and_scores(tmp_path: Path) -> None:
    problems, errors = iago.read_obf(FFO_40_49)
    assert len(problems) == 10 and errors == []
    assert problems[0].best_score == 38 and [str(m) for m in problems[0].best_moves()] == ["a2"]
    bad = tmp_path / "bad.obf"
    bad.write_text(FFO_40_49.read_text().splitlines()[2] + "\n" + "X" * 64 + " Q;\n")
    problems, errors = iago.read_obf(bad)
    assert len(problems) == 1 and len(errors) == 1 and errors[0].line == 2
    with pytest.raises(iago.RecordError):
        iago.read_obf(bad, strict=True)


def test_read_text_reads_what_a_paste_box_takes() -> None:
    # A transcript, numbered and in capitals, from the start of the rules given.
    record = iago.read_text("1. F5 d6 2. C3")
    assert record.transcript() == "f5d6c3" and record.tags == {}
    assert (record.black, record.white, record.index, record.line) == ("Black", "White", 0, None)
    assert record.board == Board.from_transcript("f5d6c3")
    assert iago.read_text("c2", rules="6x6").board.size == 6
    # A board string (an OBF line's board), played under the rules at the board's size.
    obf = next(line for line in FFO_40_49.read_text().splitlines() if not line.startswith("%"))
    board = obf.split(";")[0].strip()
    record = iago.read_text(obf)
    assert record.board.board_string() == board and record.board.ply() == 0
    six = "-" * 14 + "OX----XO" + "-" * 14 + " X"
    anti = iago.read_text(six, rules="anti")
    assert anti.board.rules == "6x6 anti" and anti.board.size == 6
    # A GGF game: its players, tags and rules (its TY, not the rules given).
    ggf = "(;GM[Othello]PC[x]PB[Ann]PW[Bob]TY[8a]B[f5]W[d6];)"
    record = iago.read_text(ggf, rules="6x6")
    assert (record.black, record.white, record.tags["PC"]) == ("Ann", "Bob", "x")
    assert record.board.rules == "anti" and record.transcript() == "f5d6"


def test_read_text_names_the_place_of_an_error() -> None:
    with pytest.raises(iago.RecordError, match=r"^transcript, column 7: 'z9' is not a square"):
        iago.read_text("f5 d6 z9")
    with pytest.raises(iago.RecordError, match=r"^transcript: move 4 \(a1\) by White is illegal"):
        iago.read_text("f5d6c3a1")
    with pytest.raises(iago.RecordError, match=r"^board, column 12: 'Z' is not a square"):
        iago.read_text("-" * 11 + "Z" + "-" * 52 + " X")
    with pytest.raises(iago.RecordError, match=r"^GGF games: the text holds 2 games"):
        iago.read_text("(;GM[Othello]B[f5];)\n(;GM[Othello]B[f5];)")
    with pytest.raises(iago.RecordError, match=r"^nothing to read"):
        iago.read_text("   ")
    with pytest.raises(iago.InvalidPositionError):
        iago.read_text("f5", rules="chess")
    # However long the text, the message stays one short line.
    with pytest.raises(iago.RecordError) as raised:
        iago.read_text("(;GM[Othello]" + "B[zz]" * 10_000 + ";)")
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 300
