//! What a catalog read at run time must keep for the rest of the process, kept once per
//! distinct content.
//!
//! A `ToolSpec`, a `Shape` and the search `Index` of an `Info` borrow `'static` data: the
//! generated code's live in its statics, and a `ToolId` hands its spec out with no value to
//! borrow from. The same types built at run time ([`crate::specs`], [`crate::info`],
//! [`crate::schema_shape`], the token budget lint) therefore leak what they decode or
//! build. What they leak is kept here by its content, so that asking again for the same
//! content (a program loading the same catalog again, each expansion of an unchanged
//! catalog in an editor's long-lived macro server) hands back what the first call made
//! rather than leaking a copy more: memory grows with the distinct catalogs a process
//! reads, not with the calls.

use std::sync::{Mutex, PoisonError};

/// Values made once per distinct content. A process reads few distinct catalogs, so a
/// list searched by content is all the bookkeeping this needs.
pub(crate) struct Kept<V: 'static> {
    values: Mutex<Vec<V>>,
}

impl<V: Copy> Kept<V> {
    pub(crate) const fn new() -> Self {
        Kept {
            values: Mutex::new(Vec::new()),
        }
    }

    /// The value kept for `content`, the one `made_from` says was made from it; else what
    /// `make` makes of it, kept. Concurrent callers wait for one another, so one content
    /// is made once.
    pub(crate) fn get<C>(
        &self,
        content: C,
        made_from: impl Fn(&V, &C) -> bool,
        make: impl FnOnce(C) -> V,
    ) -> V {
        // A panic in `make` keeps nothing, and the lock it poisons is taken back.
        let mut values = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(kept) = values.iter().find(|v| made_from(v, &content)) {
            return *kept;
        }
        let value = make(content);
        values.push(value);
        value
    }

    /// How many values are kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.values
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// Data in the packed format (`catalog_core::packed`), leaked once per distinct content,
/// with what `decode` reads from it.
pub(crate) struct Packed<T: 'static> {
    kept: Kept<(&'static str, &'static [u8], T)>,
}

impl<T: Copy> Packed<T> {
    pub(crate) const fn new() -> Self {
        Packed { kept: Kept::new() }
    }

    /// What `decode` read from the first call's leaked copy of this text and byte string.
    pub(crate) fn get(
        &self,
        text: String,
        data: Vec<u8>,
        decode: impl FnOnce(&'static str, &'static [u8]) -> T,
    ) -> T {
        let made_from = |&(t, d, _): &(&str, &[u8], T), (text, data): &(String, Vec<u8>)| {
            t == text && d == data.as_slice()
        };
        let (_, _, decoded) = self.kept.get((text, data), made_from, |(text, data)| {
            let text: &'static str = Box::leak(text.into_boxed_str());
            let data: &'static [u8] = Box::leak(data.into_boxed_slice());
            (text, data, decode(text, data))
        });
        decoded
    }

    /// How many contents are kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.kept.len()
    }
}

#[cfg(test)]
mod tests {
    use super::{Kept, Packed};

    #[test]
    fn the_same_content_is_made_once() {
        let kept: Kept<(u32, &'static str)> = Kept::new();
        let made_from = |v: &(u32, &str), c: &u32| v.0 == *c;
        let make = |name: &'static str| move |c: u32| (c, name);
        assert_eq!(kept.get(1, made_from, make("first")), (1, "first"));
        assert_eq!(kept.get(1, made_from, make("again")), (1, "first"));
        assert_eq!(kept.get(2, made_from, make("other")), (2, "other"));
        assert_eq!(kept.get(1, made_from, make("third")), (1, "first"));
        assert_eq!(kept.len(), 2);
    }

    #[test]
    fn packed_data_is_leaked_once_per_content() {
        let packed: Packed<&'static str> = Packed::new();
        let text = |t: &str, d: &[u8]| packed.get(t.into(), d.into(), |text, _| text);
        let first = text("abc", &[1, 2]);
        let again = text("abc", &[1, 2]);
        assert!(std::ptr::eq(first, again), "the second call leaked a copy");
        // The same text with other bytes is other content.
        assert!(!std::ptr::eq(first, text("abc", &[1, 3])));
        assert!(!std::ptr::eq(first, text("abd", &[1, 2])));
        assert_eq!(packed.len(), 3);
    }
}
