//! The tuned parameters of the search, in one place. Each says in a line why it has its value
//! and names the lab file (in docs/lab/) with the measurements behind it.

use crate::search::probcut::ProbCutLevel;

/// ProbCut level of play (protocol sessions and the match runner's in-process engines): the
/// lowest, which reaches deeper in the same time and played the strongest at equal time
/// (2026-11-26-time-and-selectivity.md, 2026-11-27-play-level.md).
pub const PLAY_LEVEL: ProbCutLevel = ProbCutLevel::new(58);

/// ProbCut level of the engine's own default, kept by analysis, benchmarks, books and
/// self-play data: a search that prunes little (2026-11-26-time-and-selectivity.md).
pub const ANALYSIS_LEVEL: ProbCutLevel = ProbCutLevel::new(95);

/// ProbCut level of the midgame pre-searches before an exact solve: the cheapest of the
/// levels measured then gave the fewest nodes (2026-11-22-endgame-solver.md).
pub const PRESEARCH_MIDGAME_LEVEL: ProbCutLevel = ProbCutLevel::new(73);

/// ProbCut levels of the whole-game pre-searches before an exact solve: one pass, at 87%; the
/// slower nodes of a second pass cost more than the exact nodes saved
/// (2026-11-22-endgame-solver.md).
pub const PRESEARCH_END_LEVELS: [ProbCutLevel; 1] = [ProbCutLevel::new(87)];
