//! The pattern evaluation's incremental state: the index of every disc-pattern instance, carried
//! by the search with the board and updated from the flips of each move instead of read from
//! the board at every evaluation.
//!
//! An index is a ternary number with one digit per square of the instance (0 empty, 1 the side
//! to move, 2 its opponent; digit k worth 3^k). A move changes the digits of the squares it
//! fills and flips, and it also changes who is to move, which exchanges every 1 and 2. So the
//! state keeps the indices from both sides' points of view (`mine`: the side to move's digits
//! are 1; `theirs`: they are 2): after a move by the side to move, its `mine` (its discs 1)
//! plus the move's changes is the child's `theirs`, and its `theirs` plus the changes the
//! child's `mine`. With `c[x]` the per-lane weight of square `x` (3^k where `x` is digit k of
//! the lane's instance, else 0) and `F` the flips:
//!
//! ```text
//! child.mine   = theirs + 2 c[x] + sum over F of c[f]    (x: 0 -> 2, flips: 1 -> 2)
//! child.theirs = mine   +   c[x] - sum over F of c[f]    (x: 0 -> 1, flips: 2 -> 1)
//! ```
//!
//! A pass exchanges the two. The lanes are `u16` (3^10 < 2^16), 80 of them for the 70
//! instances, so an update is a few 256-bit additions per changed square (Edax and Egaroucid
//! update their features the same way in spirit; this layout is our own).

use std::sync::OnceLock;

use super::pattern::instance_layout;
use crate::board::Board;

/// Lanes of the state: the pattern instances, then zeros up to a multiple of 16.
pub const LANES: usize = 80;

/// The disc-pattern instances.
pub const INSTANCES: usize = 70;

/// The instance indices of a position from both sides' points of view (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct PatternState {
    /// Indices with the side to move's discs as digit 1.
    pub mine: [u16; LANES],
    /// Indices with the side to move's discs as digit 2.
    pub theirs: [u16; LANES],
}

impl std::fmt::Debug for PatternState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternState")
            .field("mine", &&self.mine[..INSTANCES])
            .finish()
    }
}

/// Per square, each lane's weight of that square: 3^k when it is digit k of the lane's instance.
/// Aligned for 256-bit loads.
#[repr(C, align(32))]
struct Coefficients([[u16; LANES]; 64]);

/// The per-square lane weights and each lane's table offset, built once from the pattern list.
pub(crate) struct Layout {
    coefficients: Coefficients,
    /// Where each lane's pattern table starts in a stage's weights (0 for the padding lanes).
    pub offsets: [u32; LANES],
}

/// The layout of the 70 instances (in the order of [`super::pattern::for_each_index`]).
pub(crate) fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Box<Layout>> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let instances = instance_layout();
        assert_eq!(instances.len(), INSTANCES);
        let mut layout = Box::new(Layout {
            coefficients: Coefficients([[0; LANES]; 64]),
            offsets: [0; LANES],
        });
        for (lane, (squares, offset)) in instances.iter().enumerate() {
            layout.offsets[lane] = *offset as u32;
            let mut weight = 1u16;
            for &sq in squares {
                layout.coefficients.0[sq][lane] = weight;
                weight = weight.wrapping_mul(3);
            }
        }
        layout
    })
}

/// How the state is updated: 256-bit vectors where the CPU has AVX2, else plain loops.
///
/// A value is a proof: only [`Kernel::detect`] makes one that names AVX2, after asking the CPU
/// (the field is private), so a function holding a `Kernel` may run the kernel it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(KernelKind);

/// The kernels, kept private so that no code outside this module can name AVX2 unchecked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KernelKind {
    Avx2,
    Scalar,
}

impl Kernel {
    /// The portable kernel, on any CPU.
    pub const SCALAR: Kernel = Kernel(KernelKind::Scalar);

    /// AVX2 when the CPU has it, unless the environment variable `IAGO_EVAL_KERNEL` is `scalar`
    /// (what the test run of the portable path sets). Read once per process.
    pub fn detect() -> Kernel {
        static KERNEL: OnceLock<Kernel> = OnceLock::new();
        *KERNEL.get_or_init(|| {
            let forced = std::env::var("IAGO_EVAL_KERNEL").is_ok_and(|k| k == "scalar");
            if !forced && avx2_available() {
                Kernel(KernelKind::Avx2)
            } else {
                Kernel::SCALAR
            }
        })
    }

    /// Whether this is the AVX2 kernel (then the CPU has AVX2).
    #[inline]
    pub fn is_avx2(self) -> bool {
        self.0 == KernelKind::Avx2
    }
}

fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl PatternState {
    /// The state of `board`, from scratch.
    pub fn new(board: &Board) -> PatternState {
        let c = &layout().coefficients.0;
        let mut state = PatternState {
            mine: [0; LANES],
            theirs: [0; LANES],
        };
        for (bits, (mine, theirs)) in [(board.player, (1, 2)), (board.opponent, (2, 1))] {
            let mut m = bits;
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let lanes = state.mine.iter_mut().zip(state.theirs.iter_mut());
                for ((m, t), &w) in lanes.zip(&c[sq]) {
                    *m = m.wrapping_add(w.wrapping_mul(mine));
                    *t = t.wrapping_add(w.wrapping_mul(theirs));
                }
            }
        }
        state
    }

    /// The state after the side to move plays `x` flipping `flips` (the other side then moves).
    #[inline]
    pub fn play(&self, x: usize, flips: u64, kernel: Kernel) -> PatternState {
        #[cfg(target_arch = "x86_64")]
        if kernel.is_avx2() {
            // SAFETY: only `Kernel::detect` makes an AVX2 `Kernel`, after checking the CPU.
            return unsafe { self.play_avx2(x, flips) };
        }
        self.play_scalar(x, flips)
    }

    /// The state after a pass: the points of view exchange.
    #[inline]
    pub fn pass(&self) -> PatternState {
        PatternState {
            mine: self.theirs,
            theirs: self.mine,
        }
    }

    /// [`PatternState::play`] in portable code.
    pub fn play_scalar(&self, x: usize, flips: u64) -> PatternState {
        let c = &layout().coefficients.0;
        let mut sum = [0u16; LANES];
        let mut m = flips;
        while m != 0 {
            let f = m.trailing_zeros() as usize;
            m &= m - 1;
            for (s, w) in sum.iter_mut().zip(&c[f]) {
                *s = s.wrapping_add(*w);
            }
        }
        let mut out = PatternState {
            mine: [0; LANES],
            theirs: [0; LANES],
        };
        for lane in 0..LANES {
            let (placed, flipped) = (c[x][lane], sum[lane]);
            out.mine[lane] = self.theirs[lane]
                .wrapping_add(placed.wrapping_mul(2))
                .wrapping_add(flipped);
            out.theirs[lane] = self.mine[lane].wrapping_add(placed).wrapping_sub(flipped);
        }
        out
    }

    /// [`PatternState::play`] with 256-bit vectors.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn play_avx2(&self, x: usize, flips: u64) -> PatternState {
        use std::arch::x86_64::*;
        const VECTORS: usize = LANES / 16;
        let c = &layout().coefficients.0;
        let mut out = std::mem::MaybeUninit::<PatternState>::uninit();
        // SAFETY: every pointer below is to a 32-byte aligned run of 16 `u16` inside a
        // `PatternState` or a `Coefficients` row (both `align(32)`, rows of 80 lanes = 5 × 32
        // bytes), read or written whole; `out` is fully written before `assume_init`.
        unsafe {
            let load = |p: *const u16, k: usize| _mm256_load_si256(p.add(16 * k).cast());
            let mut sum = [_mm256_setzero_si256(); VECTORS];
            let mut m = flips;
            while m != 0 {
                let f = m.trailing_zeros() as usize;
                m &= m - 1;
                for (k, s) in sum.iter_mut().enumerate() {
                    *s = _mm256_add_epi16(*s, load(c[f].as_ptr(), k));
                }
            }
            let o = out.as_mut_ptr();
            let mine = std::ptr::addr_of_mut!((*o).mine).cast::<u16>();
            let theirs = std::ptr::addr_of_mut!((*o).theirs).cast::<u16>();
            for (k, &s) in sum.iter().enumerate() {
                let placed = load(c[x].as_ptr(), k);
                let old_mine = load(self.mine.as_ptr(), k);
                let old_theirs = load(self.theirs.as_ptr(), k);
                let new_mine = _mm256_add_epi16(
                    _mm256_add_epi16(old_theirs, _mm256_add_epi16(placed, placed)),
                    s,
                );
                let new_theirs = _mm256_sub_epi16(_mm256_add_epi16(old_mine, placed), s);
                _mm256_store_si256(mine.add(16 * k).cast(), new_mine);
                _mm256_store_si256(theirs.add(16 * k).cast(), new_theirs);
            }
            out.assume_init()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::flips;

    /// Random games: after every move and pass, the updated state equals the state read from
    /// scratch, with both kernels.
    #[test]
    fn updates_equal_states_from_scratch() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let kernels = [Kernel::SCALAR, Kernel::detect()];
        for _ in 0..200 {
            let mut board = Board::start();
            let mut states = [PatternState::new(&board); 2];
            loop {
                let legal = board.legal_moves().0;
                if legal == 0 {
                    let passed = board.pass();
                    if passed.legal_moves().is_empty() {
                        break;
                    }
                    board = passed;
                    for s in &mut states {
                        *s = s.pass();
                    }
                } else {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let pick = (seed % u64::from(legal.count_ones())) as usize;
                    let mut m = legal;
                    for _ in 0..pick {
                        m &= m - 1;
                    }
                    let x = m.trailing_zeros() as usize;
                    let f = flips(board.player, board.opponent, x);
                    board = board.play_unchecked(x, f);
                    for (s, &kernel) in states.iter_mut().zip(&kernels) {
                        *s = s.play(x, f, kernel);
                    }
                }
                let fresh = PatternState::new(&board);
                assert_eq!(states[0], fresh);
                assert_eq!(states[1], fresh);
            }
        }
    }

    /// The lanes are the indices `for_each_index` reads, less each pattern's table offset.
    #[test]
    fn lanes_are_the_pattern_indices() {
        let mut board = Board::start();
        for mv in ["f5", "d6", "c3", "d3", "c4", "f4", "f6"] {
            board = board.play(crate::board::Move::parse(mv).unwrap());
        }
        let state = PatternState::new(&board);
        let mut direct = Vec::new();
        super::super::pattern::for_each_index(&board, |i| direct.push(i));
        let offsets = layout().offsets;
        let lanes: Vec<usize> = (0..INSTANCES)
            .map(|l| offsets[l] as usize + state.mine[l] as usize)
            .collect();
        assert_eq!(lanes, direct);
        assert!(state.mine[INSTANCES..].iter().all(|&x| x == 0));
    }
}
