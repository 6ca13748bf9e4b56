//! Reading a TOML table key by key, so what is left over is an unknown key with the
//! closest known one as a suggestion.

use std::collections::{BTreeSet, HashMap};

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::diag::{Diagnostic, Errors, Span};
use crate::names::suggest;

/// A table's entries, taken one by one so that what is left at the end is unknown.
pub(super) struct Table<'a, 'i> {
    entries: Vec<(
        &'a Spanned<std::borrow::Cow<'i, str>>,
        &'a Spanned<DeValue<'i>>,
    )>,
    taken: Vec<(&'a str, Span)>,
    span: Span,
    /// What the table is, in messages: renamed once a row's name is read.
    pub(super) what: String,
}

impl<'a, 'i> Table<'a, 'i> {
    pub(super) fn new(t: &'a DeTable<'i>, span: Span, what: &str) -> Self {
        Table {
            entries: t.iter().collect(),
            taken: Vec::new(),
            span,
            what: what.to_string(),
        }
    }

    pub(super) fn take(&mut self, key: &str) -> Option<(&'a Spanned<DeValue<'i>>, Span)> {
        let i = self.entries.iter().position(|(k, _)| k.get_ref() == key)?;
        let (k, v) = self.entries.remove(i);
        self.taken.push((k.get_ref().as_ref(), k.span()));
        Some((v, k.span()))
    }

    /// Reports every key not taken, with the closest known key as a suggestion, and
    /// returns which keys the table had.
    pub(super) fn finish(self, known: &[&str], errors: &mut Errors) -> Seen {
        let _ = &self.span;
        let mut meant = BTreeSet::new();
        for (k, _) in &self.entries {
            let key = k.get_ref().as_ref();
            let mut d = Diagnostic::new(k.span(), format!("unknown key `{key}` in {}", self.what));
            d = match suggest(key, known) {
                Some(s) => {
                    meant.insert(s.to_string());
                    d.help(format!("did you mean `{s}`?"))
                }
                None => d.help(format!("the keys here are: {}", known.join(", "))),
            };
            errors.push(d);
        }
        Seen {
            taken: self
                .taken
                .into_iter()
                .map(|(k, s)| (k.to_string(), s))
                .collect(),
            meant,
        }
    }
}

/// The keys a table had: the known ones, valid or not, and the known keys that its unknown
/// ones most likely meant. A rule that a key is missing asks [`Seen::has`] first, so
/// `tier = "silentt"` or `tiér = "silent"` is reported once, not also as a missing `tier`.
#[derive(Default, Debug)]
pub(crate) struct Seen {
    /// Every known key written, and where.
    pub taken: HashMap<String, Span>,
    /// Known keys that an unknown key was taken for (`visiblity` → `visibility`).
    pub meant: BTreeSet<String>,
}

impl Seen {
    /// Whether the key was written, or likely meant by a misspelt key.
    pub fn has(&self, key: &str) -> bool {
        self.taken.contains_key(key) || self.meant.contains(key)
    }
}

pub(super) fn unknown_value(span: Span, key: &str, value: &str, allowed: &[&str]) -> Diagnostic {
    let d = Diagnostic::new(span, format!("`{value}` is not a valid `{key}`"));
    let list = allowed
        .iter()
        .map(|a| format!("`{a}`"))
        .collect::<Vec<_>>()
        .join(", ");
    match suggest(value, allowed) {
        Some(s) => d.help(format!("did you mean `{s}`? `{key}` is one of {list}")),
        None => d.help(format!("`{key}` is one of {list}")),
    }
}

pub(super) fn table<'a, 'i>(
    v: &'a Spanned<DeValue<'i>>,
    what: &str,
    errors: &mut Errors,
) -> Option<&'a DeTable<'i>> {
    match v.get_ref() {
        DeValue::Table(t) => Some(t),
        other => {
            errors.push(
                Diagnostic::new(
                    v.span(),
                    format!("{what} must be a table, found {}", other.type_str()),
                )
                .help("write it as `key = { ... }` or as a `[section]`"),
            );
            None
        }
    }
}
