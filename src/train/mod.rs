//! Data and fitting: self-play data and its chunk files, the evaluation trainer and the ProbCut
//! fitter (the game archives they read are in [`crate::records`]).

pub mod chunk;
pub mod evaluation;
pub mod probcut_fit;
pub mod selfplay;
