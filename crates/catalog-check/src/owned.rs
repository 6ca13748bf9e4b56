//! What a catalog read at run time owns: the packed data its specs and shapes borrow, and
//! the arena that holds their nested parts. The generated code's specs borrow its statics;
//! these borrow the value that holds them, and are freed with it.

use std::fmt;

use bumpalo_herd::{Herd, Member};
use catalog_core::packed::{self, Arena};
use catalog_core::shape::Pattern;
use catalog_core::{Shape, ToolSpec};
use elsa::sync::FrozenVec;

/// Packed data (`catalog_core::packed`) and the arena its decoding keeps parts in.
pub(crate) struct Parts {
    text: String,
    data: Vec<u8>,
    /// Shapes, lists and the like: plain `Copy` data, freed together. A herd of bump
    /// arenas rather than one, because a bump arena is not `Sync` and a catalog is shared
    /// by threads.
    nodes: Herd,
    /// Patterns own their compiled expressions, so they are kept apart and dropped.
    patterns: FrozenVec<Box<Pattern>>,
}

impl Parts {
    fn new((text, data): (String, Vec<u8>)) -> Parts {
        Parts {
            text,
            data,
            nodes: Herd::new(),
            patterns: FrozenVec::new(),
        }
    }

    fn arena(&self) -> Keeper<'_> {
        Keeper {
            nodes: self.nodes.get(),
            patterns: &self.patterns,
        }
    }
}

/// The arena of one decoding of [`Parts`].
struct Keeper<'c> {
    nodes: Member<'c>,
    patterns: &'c FrozenVec<Box<Pattern>>,
}

impl<'c> Arena<'c> for Keeper<'c> {
    fn keep<T: Copy + 'c>(&self, value: T) -> &'c T {
        self.nodes.alloc(value)
    }

    fn keep_all<T: Copy + 'c>(&self, values: Vec<T>) -> &'c [T] {
        self.nodes.alloc_slice_copy(&values)
    }

    fn pattern(&self, source: &'c str, unicode: bool) -> &'c Pattern {
        self.patterns
            .push_get(Box::new(Pattern::owned(source, unicode)))
    }
}

type SpecList<'c> = Vec<ToolSpec<'c>>;

self_cell::self_cell!(
    struct SpecCell {
        owner: Parts,
        #[covariant]
        dependent: SpecList,
    }
);

/// Every row's [`ToolSpec`] of a catalog read at run time, in catalog order, with the data
/// they borrow: [`crate::specs`].
pub struct Specs(SpecCell);

impl Specs {
    /// Decodes packed rows.
    ///
    /// # Panics
    /// Never: the packed format reads back what it wrote, which its tests check.
    pub(crate) fn decode(packed: (String, Vec<u8>)) -> Specs {
        Specs(SpecCell::new(Parts::new(packed), |parts| {
            packed::unpack(&parts.text, &parts.data, &parts.arena())
                .expect("the packed format reads back what it wrote")
        }))
    }

    /// The specs, in catalog order.
    #[must_use]
    pub fn get(&self) -> &[ToolSpec<'_>] {
        self.0.borrow_dependent()
    }
}

impl fmt::Debug for Specs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.get().iter().map(|s| s.name))
            .finish()
    }
}

self_cell::self_cell!(
    struct ShapeCell {
        owner: Parts,
        #[covariant]
        dependent: Shape,
    }
);

/// A [`Shape`] read at run time, with the data it borrows: [`crate::schema_shape`].
pub struct OwnedShape(ShapeCell);

impl OwnedShape {
    /// Decodes a packed shape.
    ///
    /// # Panics
    /// Never: the packed format reads back what it wrote, which its tests check.
    pub(crate) fn decode(packed: (String, Vec<u8>)) -> OwnedShape {
        OwnedShape(ShapeCell::new(Parts::new(packed), |parts| {
            packed::unpack_shape(&parts.text, &parts.data, &parts.arena())
                .expect("the packed format reads back what it wrote")
        }))
    }

    /// The shape.
    #[must_use]
    pub fn get(&self) -> &Shape<'_> {
        self.0.borrow_dependent()
    }
}

impl fmt::Debug for OwnedShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}
