//! Data and fitting: game archives, self-play data and its chunk files, the evaluation trainer
//! and the ProbCut fitter.

pub mod chunk;
pub mod evaluation;
pub mod logbook;
pub mod probcut_fit;
pub mod selfplay;
pub mod wthor;
