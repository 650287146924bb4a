//! `GameBatch`: many games of standard Othello stepped together in one call, the state of
//! `iago.env.OthelloVectorEnv`. Observations are player-relative (plane 0 the side to move's
//! discs, plane 1 the other side's), actions 0-63 the squares and 64 the pass, and a finished
//! game starts again at once (its last observation kept apart).

use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

use iago::Board;
use iago::board::movegen;

use crate::datasets::SplitMix;
use crate::errors::value_error;

/// The pass action.
const PASS_ACTION: i64 = 64;

#[derive(Clone, Copy)]
struct Slot {
    board: Board,
    /// 0 when Black is to move, 1 when White is.
    to_move: u8,
}

impl Slot {
    fn start() -> Slot {
        Slot {
            board: Board::start(),
            to_move: 0,
        }
    }

    fn moves(&self) -> u64 {
        movegen::moves(self.board.player, self.board.opponent)
    }

    fn is_over(&self) -> bool {
        self.moves() == 0 && {
            let other = self.board.pass();
            movegen::moves(other.player, other.opponent) == 0
        }
    }
}

/// Games stepped together: `reset()`, then `step(actions)` with one action per game.
#[pyclass(module = "iago", name = "GameBatch")]
pub struct GameBatch {
    slots: Vec<Slot>,
    rng: SplitMix,
}

fn write_planes(slots: &[Slot], out: &mut [i8]) {
    for (slot, cells) in slots.iter().zip(out.chunks_exact_mut(128)) {
        for sq in 0..64 {
            cells[sq] = (slot.board.player >> sq & 1) as i8;
            cells[64 + sq] = (slot.board.opponent >> sq & 1) as i8;
        }
    }
}

fn write_masks(slots: &[Slot], out: &mut [i8]) {
    for (slot, mask) in slots.iter().zip(out.chunks_exact_mut(65)) {
        let moves = slot.moves();
        for (sq, cell) in mask[..64].iter_mut().enumerate() {
            *cell = (moves >> sq & 1) as i8;
        }
        mask[64] = i8::from(moves == 0 && !slot.is_over());
    }
}

type Observation<'py> = (Bound<'py, PyArray4<i8>>, Bound<'py, PyArray2<i8>>);

impl GameBatch {
    fn observe<'py>(&self, py: Python<'py>, slots: &[Slot]) -> PyResult<Observation<'py>> {
        let n = slots.len();
        let mut planes = vec![0i8; n * 128];
        write_planes(slots, &mut planes);
        let mut masks = vec![0i8; n * 65];
        write_masks(slots, &mut masks);
        Ok((
            PyArray1::from_vec(py, planes).reshape([n, 2, 8, 8])?,
            PyArray1::from_vec(py, masks).reshape([n, 65])?,
        ))
    }
}

/// What `step` gives: the observations and masks, the rewards of the movers, which games
/// ended, the observations those games ended on, the side to move in each, and which games
/// ended by an illegal action.
type StepResult<'py> = (
    Bound<'py, PyArray4<i8>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray4<i8>>,
    Bound<'py, PyArray1<i8>>,
    Bound<'py, PyArray1<bool>>,
);

#[pymethods]
impl GameBatch {
    /// `n` games at the standard start. `seed` seeds `random_actions`.
    #[new]
    #[pyo3(signature = (n, *, seed = 0))]
    fn new(n: i64, seed: i128) -> PyResult<GameBatch> {
        let n = crate::errors::in_range("n", n, 1, 1 << 24)? as usize;
        let seed = crate::errors::seed("seed", seed)?;
        Ok(GameBatch {
            slots: vec![Slot::start(); n],
            rng: SplitMix::new(seed, 0),
        })
    }

    /// The number of games.
    fn __len__(&self) -> usize {
        self.slots.len()
    }

    /// Starts every game again; returns the observations `(n, 2, 8, 8)` and the action masks
    /// `(n, 65)`.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Observation<'py>> {
        self.slots.fill(Slot::start());
        self.observe(py, &self.slots)
    }

    /// The observations and masks of the games as they stand.
    fn observe_all<'py>(&self, py: Python<'py>) -> PyResult<Observation<'py>> {
        self.observe(py, &self.slots)
    }

    /// The side to move in each game: 0 Black, 1 White.
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let v: Vec<i8> = self.slots.iter().map(|s| s.to_move as i8).collect();
        PyArray1::from_vec(py, v)
    }

    /// One uniformly random legal action per game (seeded by the batch's seed).
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let rng = &mut self.rng;
        let actions: Vec<i64> = self
            .slots
            .iter()
            .map(|slot| {
                let moves = slot.moves();
                if moves == 0 {
                    PASS_ACTION
                } else {
                    rng.pick(moves) as i64
                }
            })
            .collect();
        PyArray1::from_vec(py, actions)
    }

    /// Plays one action per game (0-63 a square, 64 the pass; an action outside 0..64 is a
    /// `ValueError` and no game changes). An illegal action loses: its game ends with reward
    /// -1 to the mover, on the board it was played on. Returns the observations and masks
    /// after the step (a finished game's are of its new start), the rewards of the side that
    /// moved (+1 win, -1 loss, 0 draw or not over), which games ended, the observations they
    /// ended on (zeros elsewhere), the side to move now, and which games ended by an illegal
    /// action.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepResult<'py>> {
        let actions = actions.as_slice()?;
        let n = self.slots.len();
        if actions.len() != n {
            return Err(value_error(format!(
                "{} actions for {n} games",
                actions.len()
            )));
        }
        if let Some((i, action)) = actions
            .iter()
            .enumerate()
            .find(|&(_, a)| !(0..=PASS_ACTION).contains(a))
        {
            return Err(value_error(format!(
                "game {i}: action {action} is not in the action space 0..64"
            )));
        }
        let mut rewards = vec![0f32; n];
        let mut done = vec![false; n];
        let mut illegal = vec![false; n];
        let mut finals = vec![0i8; n * 128];
        for (i, (&action, slot)) in actions.iter().zip(self.slots.iter_mut()).enumerate() {
            let board = slot.board;
            let moves = slot.moves();
            let legal = match action {
                PASS_ACTION => moves == 0 && !slot.is_over(),
                square => moves >> square & 1 != 0,
            };
            let last = &mut finals[i * 128..(i + 1) * 128];
            if !legal {
                // The mover loses on the board as it stands.
                rewards[i] = -1.0;
                done[i] = true;
                illegal[i] = true;
                write_planes(std::slice::from_ref(slot), last);
                *slot = Slot::start();
                continue;
            }
            let after = if action == PASS_ACTION {
                board.pass()
            } else {
                let sq = action as usize;
                board.play_unchecked(sq, movegen::flips(board.player, board.opponent, sq))
            };
            *slot = Slot {
                board: after,
                to_move: 1 - slot.to_move,
            };
            if slot.is_over() {
                // The mover's view: its discs are `after.opponent`.
                let mover = after.pass();
                let score = mover.final_score();
                rewards[i] = score.signum() as f32;
                done[i] = true;
                write_planes(std::slice::from_ref(slot), last);
                *slot = Slot::start();
            }
        }
        let (obs, masks) = self.observe(py, &self.slots)?;
        Ok((
            obs,
            masks,
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, done),
            PyArray1::from_vec(py, finals).reshape([n, 2, 8, 8])?,
            self.to_move(py),
            PyArray1::from_vec(py, illegal),
        ))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GameBatch>()?;
    Ok(())
}
