//! Per-tool strings and orders as the generated code holds them: one string literal and one
//! byte string a table, whatever the catalog's size. An array with an element a tool is
//! work in rustc for every element (a `&str` array most of all), which a large catalog
//! feels; a literal is one token.

use core::cmp::Ordering;

/// Strings laid end to end, each found by where it ends.
#[derive(Clone, Copy, Debug)]
pub struct StrTable {
    /// Every string, one after the other.
    pub text: &'static str,
    /// Where each string ends in `text`, in bytes: a little-endian `u32` a string.
    pub ends: &'static [u8],
}

impl StrTable {
    /// Number of strings.
    #[must_use]
    pub const fn len(self) -> usize {
        self.ends.len() / 4
    }

    /// Whether the table holds no string.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`-th string; empty past the end (the compiler writes every index it uses).
    #[must_use]
    pub const fn get(self, i: usize) -> &'static str {
        if i >= self.len() {
            return "";
        }
        let start = if i == 0 { 0 } else { word(self.ends, i - 1) };
        let end = word(self.ends, i);
        let bytes = self.text.as_bytes();
        if start > end || end > bytes.len() {
            return "";
        }
        let (_, tail) = bytes.split_at(start);
        let (piece, _) = tail.split_at(end - start);
        // The compiler splits only at character boundaries, so this never fails.
        match core::str::from_utf8(piece) {
            Ok(s) => s,
            Err(_) => "",
        }
    }

    /// The index of `key` by binary search, `order` listing the indices (little-endian
    /// `u32`s) in byte-wise order of their strings; `const` so `tools![...]` resolves names
    /// at compile time, and the same code serves `Tool::from_name` at run time.
    #[must_use]
    pub const fn find(self, order: &[u8], key: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0, order.len() / 4);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let at = word(order, mid);
            match str_cmp(self.get(at), key) {
                Ordering::Less => lo = mid + 1,
                Ordering::Greater => hi = mid,
                Ordering::Equal => return Some(at),
            }
        }
        None
    }
}

/// The `i`-th little-endian `u32` of `bytes`, as an index.
const fn word(bytes: &[u8], i: usize) -> usize {
    let at = 4 * i;
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
}

/// Byte-wise string order (the order of `str::cmp`), usable in `const`.
const fn str_cmp(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return if a[i] < b[i] {
                Ordering::Less
            } else {
                Ordering::Greater
            };
        }
        i += 1;
    }
    if a.len() < b.len() {
        Ordering::Less
    } else if a.len() > b.len() {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// A table as the compiler writes one: the strings joined, their ends, and the order.
    fn table(strings: &[&str]) -> (StrTable, &'static [u8]) {
        let text: &'static str = alloc::boxed::Box::leak(strings.concat().into_boxed_str());
        let mut ends = Vec::new();
        let mut end = 0u32;
        for s in strings {
            end += u32::try_from(s.len()).unwrap();
            ends.extend_from_slice(&end.to_le_bytes());
        }
        let mut order: Vec<u32> = (0..u32::try_from(strings.len()).unwrap()).collect();
        order.sort_by_key(|&i| strings[i as usize]);
        let order: Vec<u8> = order.iter().flat_map(|i| i.to_le_bytes()).collect();
        let table = StrTable {
            text,
            ends: ends.leak(),
        };
        (table, order.leak())
    }

    #[test]
    fn reads_back_every_string_and_finds_it() {
        let strings = ["openTable", "", "é.ü", "a", "addRow", "ask"];
        let (t, order) = table(&strings);
        assert_eq!(t.len(), strings.len());
        for (i, s) in strings.iter().enumerate() {
            assert_eq!(t.get(i), *s);
        }
        assert_eq!(t.get(strings.len()), "");
        for (i, s) in strings.iter().enumerate() {
            assert_eq!(t.find(order, s), Some(i), "{s}");
        }
        for missing in ["open", "openTables", "b", "é"] {
            assert_eq!(t.find(order, missing), None, "{missing}");
        }
    }

    #[test]
    fn an_empty_table_finds_nothing() {
        let (t, order) = table(&[]);
        assert!(t.is_empty());
        assert_eq!(t.find(order, ""), None);
    }
}
