//! Where decoding keeps the parts a spec points to.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::shape::Pattern;

/// Where the decoder keeps what a [`Shape`](crate::Shape) points to (its nested shapes, lists and
/// patterns), for as long as the specs are used: `'c`.
///
/// Only [`Copy`] values are kept by [`Arena::keep`], so an arena may free them without
/// running any destructor; a [`Pattern`], which owns its compiled expression, is kept
/// apart, by [`Arena::pattern`].
pub trait Arena<'c> {
    /// `value`, kept.
    fn keep<T: Copy + 'c>(&self, value: T) -> &'c T;
    /// `values`, kept.
    fn keep_all<T: Copy + 'c>(&self, values: Vec<T>) -> &'c [T];
    /// A [`Pattern`] of `source`, kept.
    fn pattern(&self, source: &'c str, unicode: bool) -> &'c Pattern;
}

/// The arena of the generated code's specs, which live as long as the program: what it
/// keeps is leaked, once, the first time [`Specs`](super::Specs) decodes the statics.
#[derive(Clone, Copy, Debug)]
pub struct Leak;

impl<'c> Arena<'c> for Leak {
    fn keep<T: Copy + 'c>(&self, value: T) -> &'c T {
        Box::leak(Box::new(value))
    }

    fn keep_all<T: Copy + 'c>(&self, values: Vec<T>) -> &'c [T] {
        values.leak()
    }

    fn pattern(&self, source: &'c str, unicode: bool) -> &'c Pattern {
        Box::leak(Box::new(Pattern::owned(source, unicode)))
    }
}
