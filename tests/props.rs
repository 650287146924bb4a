//! Properties on random positions: the fast kernels agree with a slow, obviously correct
//! implementation; discs add up; move generation commutes with the 8 symmetries.

mod common;

use iago::board::movegen::{flips, moves, potential_moves};
use iago::board::{Board, Move, Square, Symmetry};
use proptest::prelude::*;

/// Walks from `sq` in each direction one square at a time.
fn slow_flips(p: u64, o: u64, sq: usize) -> u64 {
    if (p | o) >> sq & 1 != 0 {
        return 0;
    }
    let mut all = 0;
    for (dr, dc) in [
        (0i32, 1i32),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, -1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ] {
        let (mut r, mut c) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + dc);
        let mut line = 0u64;
        while (0..8).contains(&r) && (0..8).contains(&c) {
            let bit = 1u64 << (r * 8 + c);
            if o & bit != 0 {
                line |= bit;
            } else {
                if p & bit != 0 {
                    all |= line;
                }
                break;
            }
            r += dr;
            c += dc;
        }
    }
    all
}

fn slow_moves(p: u64, o: u64) -> u64 {
    (0..64)
        .filter(|&sq| slow_flips(p, o, sq) != 0)
        .fold(0, |m, sq| m | 1 << sq)
}

/// Any two disjoint sets of discs (not necessarily reachable in a game).
fn any_board() -> impl Strategy<Value = Board> {
    (any::<u64>(), any::<u64>()).prop_map(|(a, b)| Board::new(a & !b, b & !a).unwrap())
}

/// A position reached by playing the given choices from the start (passing when forced).
fn game_board() -> impl Strategy<Value = Board> {
    proptest::collection::vec(any::<u8>(), 0..70).prop_map(|choices| {
        let mut board = Board::start();
        for choice in choices {
            if board.is_game_over() {
                break;
            }
            if board.must_pass() {
                board = board.play(Move::Pass);
                continue;
            }
            let legal: Vec<Square> = board.legal_moves().iter().collect();
            board = board.play(Move::Play(legal[choice as usize % legal.len()]));
        }
        board
    })
}

fn check_against_slow(board: Board) -> Result<(), TestCaseError> {
    let (p, o) = (board.player, board.opponent);
    prop_assert_eq!(moves(p, o), slow_moves(p, o));
    for sq in 0..64 {
        if (p | o) >> sq & 1 == 0 {
            prop_assert_eq!(flips(p, o, sq), slow_flips(p, o, sq), "square {}", sq);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn kernels_match_slow_reference_on_any_board(board in any_board()) {
        check_against_slow(board)?;
    }

    #[test]
    fn kernels_match_slow_reference_in_games(board in game_board()) {
        check_against_slow(board)?;
    }

    #[test]
    fn discs_add_up(board in game_board()) {
        prop_assert_eq!(board.player & board.opponent, 0);
        prop_assert_eq!(board.player_count() + board.opponent_count() + board.empty_count(), 64);
        for sq in board.legal_moves() {
            let flipped = board.flips(sq).count();
            prop_assert!(flipped >= 1);
            let next = board.play(Move::Play(sq));
            // The mover gains the placed disc and the flipped ones; the other side loses them.
            prop_assert_eq!(next.opponent_count(), board.player_count() + flipped + 1);
            prop_assert_eq!(next.player_count(), board.opponent_count() - flipped);
            prop_assert_eq!(next.empty_count(), board.empty_count() - 1);
        }
    }

    #[test]
    fn movegen_commutes_with_symmetries(board in game_board()) {
        for sym in Symmetry::ALL {
            let t = board.transform(sym);
            prop_assert_eq!(t.legal_moves().0, sym.apply_bits(board.legal_moves().0));
            for sq in board.legal_moves() {
                let image = sym.apply_square(sq);
                prop_assert_eq!(t.flips(image).0, sym.apply_bits(board.flips(sq).0));
            }
            prop_assert_eq!(t.canonical().0, board.canonical().0);
            prop_assert_eq!(t.final_score(), board.final_score());
        }
        // The canonical form is the least image, and its symmetry produces it.
        let (canon, sym) = board.canonical();
        prop_assert_eq!(board.transform(sym), canon);
        let least = Symmetry::ALL.iter().map(|&s| board.transform(s)).min().unwrap();
        prop_assert_eq!(canon, least);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Parsers answer every input with a value or an error, never a panic.
    #[test]
    fn parsers_never_panic(
        text in "\\PC{0,80}",
        board_like in "[XOxo*bw.\\- ]{60,70}[XOZ ;]{0,3}",
        small_board_like in "[XOxo*bw.\\- ]{14,40}[XOZ ;]{0,3}",
    ) {
        use iago::board::notation::{
            parse_obf_line, parse_position, parse_sized_position, parse_transcript_moves,
        };
        use iago::board::{Game, Position, Rules};
        for input in [text.as_str(), board_like.as_str(), small_board_like.as_str()] {
            let _ = Move::parse(input);
            let _ = parse_position(input);
            let _ = parse_sized_position(input);
            let _ = parse_obf_line(input);
            let _ = parse_transcript_moves(input);
            let _ = Game::from_transcript(Rules::OTHELLO, Position::start(), input);
        }
    }

    /// A board string of 16, 36 or 64 squares reads back as the same board at the same size.
    #[test]
    fn sized_boards_round_trip(
        size in proptest::sample::select(vec![4u8, 6, 8]),
        cells in proptest::collection::vec(0u8..3, 64),
        black_to_move in any::<bool>(),
    ) {
        use iago::board::Rules;
        use iago::board::notation::parse_sized_position;
        let n = usize::from(size) * usize::from(size);
        let mut text: String = cells[..n].iter().map(|c| ['-', 'X', 'O'][*c as usize]).collect();
        text.push(' ');
        text.push(if black_to_move { 'X' } else { 'O' });
        let (position, read_size) = parse_sized_position(&text).unwrap();
        prop_assert_eq!(read_size, size);
        let rules = Rules { size, ..Rules::OTHELLO };
        prop_assert_eq!(rules.board_string(&position), text);
        prop_assert!(rules.state(position).is_ok());
    }

    /// Transcripts of legal games replay to the same position, with or without their passes.
    #[test]
    fn transcripts_round_trip(choices in proptest::collection::vec(any::<u8>(), 0..70)) {
        use iago::board::{Game, Position, Rules};
        let mut game = Game::new(Rules::OTHELLO);
        for choice in choices {
            let board = game.position().board;
            if board.is_game_over() {
                break;
            }
            let mv = if board.must_pass() {
                Move::Pass
            } else {
                let legal: Vec<Square> = board.legal_moves().iter().collect();
                Move::Play(legal[choice as usize % legal.len()])
            };
            game.play(mv).unwrap();
        }
        let full = Game::from_transcript(Rules::OTHELLO, Position::start(), &game.transcript(true)).unwrap();
        prop_assert_eq!(full.position(), game.position());
        prop_assert_eq!(full.moves(), game.moves());
        // Without passes, a trailing pass cannot be inferred; every other one is.
        let mut expected = game.moves().to_vec();
        while expected.last() == Some(&Move::Pass) {
            expected.pop();
        }
        let short = Game::from_transcript(Rules::OTHELLO, Position::start(), &game.transcript(false)).unwrap();
        prop_assert_eq!(short.moves(), &expected[..]);
    }
}

/// The embedded weights, once per test process, with each kernel.
fn pattern_evals() -> &'static [iago::eval::PatternEval; 2] {
    use iago::eval::PatternEval;
    static EVALS: std::sync::OnceLock<[PatternEval; 2]> = std::sync::OnceLock::new();
    EVALS.get_or_init(|| {
        let fast = PatternEval::embedded().expect("the embedded weights");
        let portable = fast.clone().with_portable_kernel();
        [fast, portable]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The evaluation carried by the search equals the evaluation read from the board, at every
    /// position of random games (every stage, passes included), with both kernels (the detected
    /// one and the portable one), with the side to move's moves (and potential mobility) given
    /// or not, and through the evaluation cache.
    #[test]
    fn incremental_evaluation_equals_evaluation_from_scratch(seed in any::<u64>()) {
        use iago::eval::{Evaluator, Replies, SearchEval};
        let evals = pattern_evals();
        let mut board = Board::start();
        let mut states = [evals[0].state(&board), evals[1].state(&board)];
        let mut rng = common::Xorshift::new(seed | 1);
        loop {
            let legal = moves(board.player, board.opponent);
            let fine = evals[0].evaluate_fine(&board);
            for (eval, s) in evals.iter().zip(&states) {
                prop_assert_eq!(eval.evaluate_fine_with(&board, s, None), fine);
                prop_assert_eq!(eval.evaluate_fine_with(&board, s, Some(Replies::moves(legal))), fine);
                let known = Replies {
                    moves: legal,
                    potential: Some(potential_moves(board.player, board.opponent).count_ones() as u8),
                };
                prop_assert_eq!(eval.evaluate_fine_with(&board, s, Some(known)), fine);
                prop_assert_eq!(
                    SearchEval::evaluate_with(eval, &board, s, None),
                    eval.evaluate(&board)
                );
            }
            if legal == 0 {
                let passed = board.pass();
                if moves(passed.player, passed.opponent) == 0 {
                    break;
                }
                board = passed;
                for (eval, s) in evals.iter().zip(states.iter_mut()) {
                    *s = eval.pass(s);
                }
                continue;
            }
            let squares: Vec<Square> = iago::board::Bitboard(legal).iter().collect();
            let x = squares[rng.below(squares.len())].index() as usize;
            let f = flips(board.player, board.opponent, x);
            board = board.play_unchecked(x, f);
            for (eval, s) in evals.iter().zip(states.iter_mut()) {
                *s = eval.play(s, x, f);
            }
        }
    }
}
