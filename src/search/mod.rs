//! Search: the exact endgame solver and the transposition table it shares with later searches.

pub mod endgame;
pub mod tt;
