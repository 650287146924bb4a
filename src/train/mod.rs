//! Data and fitting: game archives and the tools that fit the search's parameters on them.

pub mod probcut_fit;
pub mod wthor;
