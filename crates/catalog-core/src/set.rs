//! A fixed-size bitset of tools: const-constructible, `Copy`, allocation-free.

use core::fmt;
use core::marker::PhantomData;

/// A tool that a [`ToolSet`] can hold: a dense index into its catalog.
///
/// The generated `Tool` enum is one (its index is its declaration order in
/// `catalog.toml`), and [`ToolRow`] is the tool of a catalog read at run time. A tool
/// names nothing by itself: its catalog, a [`Lookup`](crate::Lookup), finds it by name
/// and gives its row.
pub trait ToolId: Copy + 'static {
    /// The tool's dense index, `0..` the catalog's [length](crate::Lookup::len).
    fn index(self) -> usize;
    /// The tool with this index, if a tool of this kind can have it.
    fn from_index(index: usize) -> Option<Self>;
}

/// A tool of a catalog read at run time: its row number. Which catalog it belongs to is
/// the holder's to know, as an index into a slice is; that catalog's
/// [`Lookup`](crate::Lookup) gives its name and row.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ToolRow(u32);

impl ToolRow {
    /// The tool of row `row`.
    #[must_use]
    pub const fn new(row: u32) -> ToolRow {
        ToolRow(row)
    }
}

impl ToolId for ToolRow {
    fn index(self) -> usize {
        self.0 as usize
    }

    fn from_index(index: usize) -> Option<Self> {
        u32::try_from(index).ok().map(ToolRow)
    }
}

#[derive(Clone, Copy)]
enum Op {
    Or,
    And,
    AndNot,
    Xor,
}

/// A set of tools of one catalog, stored as `W` 64-bit words.
///
/// Every operation is `const` or O(W); iteration yields tools in catalog order.
pub struct ToolSet<T, const W: usize> {
    words: [u64; W],
    tool: PhantomData<fn() -> T>,
}

impl<T, const W: usize> ToolSet<T, W> {
    /// The empty set.
    pub const EMPTY: Self = Self::from_words([0; W]);

    /// A set from its raw words (bit `i % 64` of word `i / 64` is the tool with index `i`).
    #[must_use]
    pub const fn from_words(words: [u64; W]) -> Self {
        Self {
            words,
            tool: PhantomData,
        }
    }

    /// The raw words.
    #[must_use]
    pub const fn words(&self) -> &[u64; W] {
        &self.words
    }

    /// Whether the tool with this index is in the set.
    #[must_use]
    pub const fn contains_index(&self, index: usize) -> bool {
        index / 64 < W && self.words[index / 64] & (1 << (index % 64)) != 0
    }

    /// This set with the tool of this index added. Indexes past the set's capacity are
    /// ignored: they name no tool of the catalog.
    #[must_use]
    pub const fn with_index(mut self, index: usize) -> Self {
        if index / 64 < W {
            self.words[index / 64] |= 1 << (index % 64);
        }
        self
    }

    /// This set with the tool of this index removed.
    #[must_use]
    pub const fn without_index(mut self, index: usize) -> Self {
        if index / 64 < W {
            self.words[index / 64] &= !(1 << (index % 64));
        }
        self
    }

    /// Tools in either set.
    #[must_use]
    pub const fn union(self, other: Self) -> Self {
        self.zip(other, Op::Or)
    }

    /// Tools in both sets.
    #[must_use]
    pub const fn intersection(self, other: Self) -> Self {
        self.zip(other, Op::And)
    }

    /// Tools in `self` but not in `other`.
    #[must_use]
    pub const fn difference(self, other: Self) -> Self {
        self.zip(other, Op::AndNot)
    }

    /// Tools in exactly one of the sets.
    #[must_use]
    pub const fn symmetric_difference(self, other: Self) -> Self {
        self.zip(other, Op::Xor)
    }

    /// Whether every tool of `self` is in `other`.
    #[must_use]
    pub const fn is_subset(&self, other: &Self) -> bool {
        let mut i = 0;
        while i < W {
            if self.words[i] & !other.words[i] != 0 {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Whether the sets share no tool.
    #[must_use]
    pub const fn is_disjoint(&self, other: &Self) -> bool {
        let mut i = 0;
        while i < W {
            if self.words[i] & other.words[i] != 0 {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Number of tools in the set.
    #[must_use]
    pub const fn len(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < W {
            n += self.words[i].count_ones() as usize;
            i += 1;
        }
        n
    }

    /// Whether the set holds no tool.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        let mut i = 0;
        while i < W {
            if self.words[i] != 0 {
                return false;
            }
            i += 1;
        }
        true
    }

    // Function pointers cannot be called in `const fn`, hence the enum.
    const fn zip(mut self, other: Self, op: Op) -> Self {
        let mut i = 0;
        while i < W {
            let (a, b) = (self.words[i], other.words[i]);
            self.words[i] = match op {
                Op::Or => a | b,
                Op::And => a & b,
                Op::AndNot => a & !b,
                Op::Xor => a ^ b,
            };
            i += 1;
        }
        self
    }
}

impl<T: ToolId, const W: usize> ToolSet<T, W> {
    /// Whether `tool` is in the set.
    #[must_use]
    pub fn contains(&self, tool: T) -> bool {
        self.contains_index(tool.index())
    }

    /// Adds `tool`; returns whether it was new.
    pub fn insert(&mut self, tool: T) -> bool {
        let new = !self.contains(tool);
        *self = self.with_index(tool.index());
        new
    }

    /// Removes `tool`; returns whether it was present.
    pub fn remove(&mut self, tool: T) -> bool {
        let present = self.contains(tool);
        *self = self.without_index(tool.index());
        present
    }

    /// The tools in the set, in catalog order.
    #[must_use]
    pub fn iter(&self) -> Iter<T, W> {
        Iter {
            words: self.words,
            word: 0,
            tool: PhantomData,
        }
    }
}

impl<T, const W: usize> Clone for ToolSet<T, W> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, const W: usize> Copy for ToolSet<T, W> {}
impl<T, const W: usize> PartialEq for ToolSet<T, W> {
    fn eq(&self, other: &Self) -> bool {
        self.words == other.words
    }
}
impl<T, const W: usize> Eq for ToolSet<T, W> {}
impl<T, const W: usize> core::hash::Hash for ToolSet<T, W> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.words.hash(state);
    }
}
impl<T, const W: usize> Default for ToolSet<T, W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<T: ToolId + fmt::Debug, const W: usize> fmt::Debug for ToolSet<T, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<T: ToolId, const W: usize> FromIterator<T> for ToolSet<T, W> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut set = Self::EMPTY;
        set.extend(iter);
        set
    }
}

impl<T: ToolId, const W: usize> Extend<T> for ToolSet<T, W> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for tool in iter {
            self.insert(tool);
        }
    }
}

impl<T: ToolId, const W: usize> IntoIterator for ToolSet<T, W> {
    type Item = T;
    type IntoIter = Iter<T, W>;
    fn into_iter(self) -> Iter<T, W> {
        self.iter()
    }
}

impl<T: ToolId, const W: usize> IntoIterator for &ToolSet<T, W> {
    type Item = T;
    type IntoIter = Iter<T, W>;
    fn into_iter(self) -> Iter<T, W> {
        self.iter()
    }
}

macro_rules! set_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign:ident, $op:ident) => {
        impl<T, const W: usize> core::ops::$trait for ToolSet<T, W> {
            type Output = Self;
            fn $method(self, rhs: Self) -> Self {
                self.$op(rhs)
            }
        }
        impl<T, const W: usize> core::ops::$assign_trait for ToolSet<T, W> {
            fn $assign(&mut self, rhs: Self) {
                *self = self.$op(rhs);
            }
        }
    };
}
set_op!(BitOr, bitor, BitOrAssign, bitor_assign, union);
set_op!(BitAnd, bitand, BitAndAssign, bitand_assign, intersection);
set_op!(Sub, sub, SubAssign, sub_assign, difference);
set_op!(
    BitXor,
    bitxor,
    BitXorAssign,
    bitxor_assign,
    symmetric_difference
);

/// Iterator over a [`ToolSet`], in catalog order.
pub struct Iter<T, const W: usize> {
    words: [u64; W],
    word: usize,
    tool: PhantomData<fn() -> T>,
}

impl<T: ToolId, const W: usize> Iterator for Iter<T, W> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        while self.word < W {
            let bits = self.words[self.word];
            if bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                self.words[self.word] &= bits - 1;
                return T::from_index(self.word * 64 + bit);
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.words[self.word.min(W)..]
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum();
        (n, Some(n))
    }
}

impl<T: ToolId, const W: usize> ExactSizeIterator for Iter<T, W> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tool of row `i`.
    fn t(i: u32) -> ToolRow {
        ToolRow::new(i)
    }
    type Set = ToolSet<ToolRow, 3>;

    #[test]
    fn algebra_across_word_boundaries() {
        let a: Set = [t(0), t(63), t(64), t(129)].into_iter().collect();
        let b: Set = [t(63), t(100)].into_iter().collect();
        assert_eq!((a | b).len(), 5);
        assert_eq!((a & b).iter().collect::<alloc::vec::Vec<_>>(), [t(63)]);
        assert_eq!(
            (a - b).iter().collect::<alloc::vec::Vec<_>>(),
            [t(0), t(64), t(129)]
        );
        assert_eq!((a ^ b).len(), 4);
        assert!((a & b).is_subset(&a));
        assert!(!a.is_subset(&b));
        assert!((a - b).is_disjoint(&b));
        assert_eq!(a.iter().len(), 4);
    }

    #[test]
    fn insert_and_remove_report_change() {
        let mut s = Set::EMPTY;
        assert!(s.insert(t(7)));
        assert!(!s.insert(t(7)));
        assert!(s.contains(t(7)));
        assert!(s.remove(t(7)));
        assert!(!s.remove(t(7)));
        assert!(s.is_empty());
    }

    #[test]
    fn out_of_range_index_is_ignored() {
        let s = Set::EMPTY.with_index(500);
        assert!(s.is_empty());
        assert!(!s.contains_index(500));
    }
}
