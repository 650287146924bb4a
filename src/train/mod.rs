//! Data and fitting: game archives, the evaluation trainer and the ProbCut fitter.

pub mod evaluation;
pub mod logbook;
pub mod probcut_fit;
pub mod wthor;
