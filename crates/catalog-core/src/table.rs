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

impl StrTable {
    /// The string nearest `name` by edit distance (ASCII case aside), when it is near
    /// enough to be a typo of it: at most a third of `name`'s length, between 1 and 3
    /// edits. `const`, for `tools![...]`'s error.
    #[must_use]
    pub const fn closest(self, name: &str) -> Option<usize> {
        let limit = match name.len() / 3 {
            0 => 1,
            n if n > 3 => 3,
            n => n,
        };
        let mut best: Option<(usize, usize)> = None;
        let mut i = 0;
        while i < self.len() {
            if let Some(cost) = distance(self.get(i).as_bytes(), name.as_bytes(), limit)
                && (best.is_none() || matches!(best, Some((_, b)) if cost < b))
            {
                best = Some((i, cost));
            }
            i += 1;
        }
        match best {
            Some((i, _)) => Some(i),
            None => None,
        }
    }

    /// `tools![...]`'s error for `name`, which the table lacks: the name, and the
    /// nearest one it holds when one is near.
    #[must_use]
    pub const fn unknown(self, name: &str) -> Message {
        let mut m = Message::new();
        m.push("tools![...] names `");
        m.push(name);
        m.push("`, which is not a tool of the catalog");
        if let Some(i) = self.closest(name) {
            m.push("; did you mean `");
            m.push(self.get(i));
            m.push("`?");
        }
        m
    }
}

/// Text built at compile time in a buffer of fixed size: what `const` code can put in a
/// panic message. A piece that does not fit is left out whole.
#[derive(Clone, Copy, Debug)]
pub struct Message {
    bytes: [u8; 512],
    len: usize,
}

impl Message {
    const fn new() -> Message {
        Message {
            bytes: [0; 512],
            len: 0,
        }
    }

    const fn push(&mut self, piece: &str) {
        let piece = piece.as_bytes();
        if self.len + piece.len() > self.bytes.len() {
            return;
        }
        let mut i = 0;
        while i < piece.len() {
            self.bytes[self.len + i] = piece[i];
            i += 1;
        }
        self.len += piece.len();
    }

    /// The text.
    #[must_use]
    pub const fn as_str(&self) -> &str {
        let (text, _) = self.bytes.split_at(self.len);
        // Whole `str`s were pushed, so this never fails.
        match core::str::from_utf8(text) {
            Ok(s) => s,
            Err(_) => "",
        }
    }
}

/// Levenshtein distance of `a` and `b` with ASCII case ignored, when it is at most
/// `limit`; `None` past it, or for a string longer than 128 bytes.
const fn distance(a: &[u8], b: &[u8], limit: usize) -> Option<usize> {
    const MAX: usize = 128;
    if a.len() > MAX || b.len() > MAX || a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let mut previous = [0usize; MAX + 1];
    let mut current = [0usize; MAX + 1];
    let mut j = 0;
    while j <= b.len() {
        previous[j] = j;
        j += 1;
    }
    let mut i = 1;
    while i <= a.len() {
        current[0] = i;
        let mut row_min = i;
        let mut j = 1;
        while j <= b.len() {
            let same = a[i - 1].eq_ignore_ascii_case(&b[j - 1]);
            let substitute = previous[j - 1] + if same { 0 } else { 1 };
            let delete = previous[j] + 1;
            let insert = current[j - 1] + 1;
            let mut cost = substitute;
            if delete < cost {
                cost = delete;
            }
            if insert < cost {
                cost = insert;
            }
            current[j] = cost;
            if cost < row_min {
                row_min = cost;
            }
            j += 1;
        }
        if row_min > limit {
            return None;
        }
        previous = current;
        i += 1;
    }
    if previous[b.len()] <= limit {
        Some(previous[b.len()])
    } else {
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
    fn a_missing_name_is_named_with_the_nearest_one() {
        let (t, _) = table(&[
            "searchTools",
            "deleteEvent",
            "deleteEvents",
            "ask",
            "openTable",
        ]);
        assert_eq!(
            t.unknown("deleteEvnt").as_str(),
            "tools![...] names `deleteEvnt`, which is not a tool of the catalog; did you mean `deleteEvent`?"
        );
        assert_eq!(t.closest("OPENTABLE"), Some(4));
        assert_eq!(t.closest("asks"), Some(3));
        // Too far from every name, or too short to guess: no suggestion.
        assert_eq!(t.closest("sendEmail"), None);
        assert_eq!(t.closest("xyz"), None);
        assert_eq!(
            t.unknown("sendEmail").as_str(),
            "tools![...] names `sendEmail`, which is not a tool of the catalog"
        );
        // A name longer than the buffer leaves its piece out, never a broken character.
        let long = "é".repeat(300);
        assert!(
            t.unknown(&long)
                .as_str()
                .ends_with("not a tool of the catalog")
        );
    }

    #[test]
    fn an_empty_table_finds_nothing() {
        let (t, order) = table(&[]);
        assert!(t.is_empty());
        assert_eq!(t.find(order, ""), None);
    }
}
