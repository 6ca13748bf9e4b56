//! The value walk: every way a JSON value misses its [`Shape`], collected in one pass.
//!
//! The walk is bounded whatever the input: it recurses only where the shape does (a value
//! deeper than its shape is not walked), stops at [`MAX_CHECK_DEPTH`] (against a deep or
//! self-referential shape), and builds at most [`MAX_CHECK_ISSUES`] messages, only counting the
//! rest, so a million bad items cost a count, not a million strings.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::words::{Subject, describe, noun, number, place, push_segment, unknown};
use super::{ErrorClass, Issue};
use crate::Value;
use crate::shape::{Object, Shape};

/// Issues reported in full; past it, one last issue says how many more there were.
pub const MAX_CHECK_ISSUES: usize = 32;

/// Levels of nesting the walk follows before it reports the value as too deep.
pub const MAX_CHECK_DEPTH: usize = 64;

/// Checks `value` against `shape` and returns every issue, in the order met: declared
/// properties in schema order, then unknown ones. Empty when the value fits.
///
/// An integer of a typed parameter ([`Shape::Int64`]) must also fit in its `i64`, so a
/// value that passes here also parses into the typed call; any other integer may be as
/// large as JSON writes it.
///
/// Messages speak of the arguments of a call (`missing required parameter ...`); at most
/// [`MAX_CHECK_ISSUES`] are built, and one more issue then counts the rest.
#[must_use]
pub fn check_value(shape: &Shape, value: &Value) -> Vec<Issue> {
    check_counted(shape, value, Subject::Arguments).0
}

/// [`check_value`] with its subject, and the number of issues found (past the cap included).
pub(super) fn check_counted(shape: &Shape, value: &Value, subject: Subject) -> (Vec<Issue>, usize) {
    let mut walk = Walk::new(subject);
    walk.value(shape, value, &mut String::new(), 0);
    let total = walk.total();
    (walk.finish(), total)
}

/// Rewrites whole numbers written as floats (`2.0`) to integers wherever the shape wants an
/// integer, so the typed call (`i64`) accepts what the check accepted. Call it only on a
/// value [`check_value`] passed.
pub(super) fn canonicalize(shape: &Shape, value: &mut Value, depth: usize) {
    rewrite(shape, &[], value, depth);
}

fn rewrite(shape: &Shape, defs: &[Shape], value: &mut Value, depth: usize) {
    if depth > MAX_CHECK_DEPTH {
        return;
    }
    let (shape, defs) = shape.resolve(defs);
    match (shape, value) {
        (Shape::Int64(_), Value::Number(n)) if n.is_f64() => {
            if let Some(whole) = n.as_f64().and_then(as_i64) {
                *n = whole.into();
            }
        }
        (Shape::Array(item), Value::Array(items)) => {
            for v in items {
                rewrite(item, defs, v, depth + 1);
            }
        }
        (Shape::Object(object), Value::Object(map)) => {
            for p in object.properties {
                if let Some(v) = map.get_mut(p.name) {
                    rewrite(&p.shape, defs, v, depth + 1);
                }
            }
        }
        (Shape::All(parts), v) => {
            for part in *parts {
                rewrite(part, defs, v, depth + 1);
            }
        }
        (Shape::Either(branches), v) => {
            // The branch the check accepted the value by, so the rewrite follows that one.
            let passes = |b: &&Shape| {
                // Room for no message: only whether it passes counts.
                let mut walk = Walk::with_room(Subject::Arguments, 0, defs);
                walk.value(b, v, &mut String::new(), depth + 1);
                walk.is_clean()
            };
            if let Some(branch) = branches.iter().find(passes) {
                rewrite(branch, defs, v, depth + 1);
            }
        }
        _ => {}
    }
}

/// A float with no fractional part, as the `i64` it equals; `None` outside `i64`'s range.
fn as_i64(x: f64) -> Option<i64> {
    // 2^63 is exact in f64; `as` is exact for whole numbers strictly inside the range.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    #[allow(
        clippy::cast_possible_truncation,
        reason = "whole and within range: exact"
    )]
    (whole(x) && (-LIMIT..LIMIT).contains(&x)).then_some(x as i64)
}

/// Whether a finite float has no fractional part. `%` is in `core`; `f64::fract` is not.
fn whole(x: f64) -> bool {
    x.is_finite() && x % 1.0 == 0.0
}

/// Whether a whole number fits the `i64` of a typed integer parameter.
fn fits_i64(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.is_i64() || n.as_f64().and_then(as_i64).is_some(),
        _ => false,
    }
}

/// The number as an `f64` when it is a whole number (`2` or `2.0`, not `2.5`).
fn integral(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) if n.is_i64() || n.is_u64() => n.as_f64(),
        Value::Number(n) => n.as_f64().filter(|x| whole(*x)),
        _ => None,
    }
}

/// Whether the value is of the shape's JSON type, constraints aside: which branches of an
/// `Either` are worth walking.
fn fits_kind(shape: &Shape, value: &Value, defs: &[Shape], depth: usize) -> bool {
    if depth > MAX_CHECK_DEPTH {
        return false;
    }
    let (shape, defs) = shape.resolve(defs);
    match shape {
        Shape::Any
        | Shape::Rules(_)
        | Shape::Defs(_)
        | Shape::Ref(_)
        | Shape::Not(_)
        | Shape::If(_) => true,
        Shape::Null => value.is_null(),
        Shape::Boolean => value.is_boolean(),
        Shape::Integer(_) | Shape::Int64(_) => integral(value).is_some(),
        Shape::Number(_) => value.is_number(),
        Shape::String { .. } => value.is_string(),
        Shape::Array(_) => value.is_array(),
        Shape::Object(_) => value.is_object(),
        Shape::Enum(values) => values.iter().any(|v| same_kind(v, value)),
        Shape::Either(branches) => branches
            .iter()
            .any(|b| fits_kind(b, value, defs, depth + 1)),
        Shape::All(parts) => parts.iter().all(|p| fits_kind(p, value, defs, depth + 1)),
    }
}

/// Whether an enum value, as JSON text, is of the value's JSON type.
fn same_kind(text: &str, value: &Value) -> bool {
    let kind = |first: Option<char>| match first {
        Some('n') => 0,
        Some('t' | 'f') => 1,
        Some('"') => 3,
        Some('[') => 4,
        Some('{') => 5,
        _ => 2,
    };
    let first = match value {
        Value::Null => 'n',
        Value::Bool(_) => 't',
        Value::Number(_) => '0',
        Value::String(_) => '"',
        Value::Array(_) => '[',
        Value::Object(_) => '{',
    };
    kind(text.chars().next()) == kind(Some(first))
}

/// The issues found so far, the first [`MAX_CHECK_ISSUES`] in full.
pub(super) struct Walk<'d> {
    pub(super) subject: Subject,
    /// The definitions a [`Shape::Ref`] indexes: the nearest enclosing [`Shape::Defs`]'s.
    defs: &'d [Shape<'d>],
    /// Issues this walk builds in full: the cap, less what the walk it serves already has.
    room: usize,
    issues: Vec<Issue>,
    /// Issues past the cap: how many, and whether every one was a constraint violation.
    more: usize,
    more_all_constraints: bool,
}

impl<'d> Walk<'d> {
    fn new(subject: Subject) -> Walk<'d> {
        Walk::with_room(subject, MAX_CHECK_ISSUES, &[])
    }

    fn with_room(subject: Subject, room: usize, defs: &'d [Shape<'d>]) -> Walk<'d> {
        Walk {
            subject,
            defs,
            room,
            issues: Vec::new(),
            more: 0,
            more_all_constraints: true,
        }
    }

    /// The definitions in scope.
    pub(super) fn defs(&self) -> &'d [Shape<'d>] {
        self.defs
    }

    fn total(&self) -> usize {
        self.issues.len() + self.more
    }

    fn is_clean(&self) -> bool {
        self.total() == 0
    }

    /// Records an issue; the message is built only while under the cap.
    pub(super) fn push(&mut self, path: &str, class: ErrorClass, message: impl FnOnce() -> String) {
        if self.issues.len() < self.room {
            self.issues.push(Issue {
                path: String::from(path),
                class,
                message: message(),
            });
        } else {
            self.more += 1;
            self.more_all_constraints &= class == ErrorClass::ConstraintViolation;
        }
    }

    /// Takes over a branch's issues, as if found here.
    fn absorb(&mut self, other: Walk<'_>) {
        for issue in other.issues {
            let Issue {
                path,
                class,
                message,
            } = issue;
            self.push(&path, class, || message);
        }
        self.more += other.more;
        self.more_all_constraints &= other.more_all_constraints;
    }

    fn finish(mut self) -> Vec<Issue> {
        if self.more > 0 {
            let class = if self.more_all_constraints {
                ErrorClass::ConstraintViolation
            } else {
                ErrorClass::SchemaResolution
            };
            let more = self.more;
            self.issues.push(Issue {
                path: String::new(),
                class,
                message: format!("and {more} more issues"),
            });
        }
        self.issues
    }

    pub(super) fn value(
        &mut self,
        shape: &'d Shape<'d>,
        value: &Value,
        path: &mut String,
        depth: usize,
    ) {
        let subject = self.subject;
        if depth > MAX_CHECK_DEPTH {
            self.push(path, ErrorClass::SchemaResolution, || {
                format!(
                    "{}: nested more than {MAX_CHECK_DEPTH} levels deep, which is more than the verifier reads",
                    place(subject, path)
                )
            });
            return;
        }
        match shape {
            Shape::Any => {}
            Shape::Null if value.is_null() => {}
            Shape::Boolean if value.is_boolean() => {}
            Shape::Integer(bounds) => match integral(value) {
                Some(x) => {
                    self.bounds(bounds, x, value, path);
                }
                None => self.mismatch(shape, value, path),
            },
            Shape::Int64(bounds) => match integral(value) {
                Some(x) => {
                    if !self.bounds(bounds, x, value, path) && !fits_i64(value) {
                        self.push(path, ErrorClass::ConstraintViolation, || {
                            format!(
                                "{}: {} is outside the range of a 64-bit integer ({} to {})",
                                place(subject, path),
                                number(value),
                                i64::MIN,
                                i64::MAX
                            )
                        });
                    }
                }
                None => self.mismatch(shape, value, path),
            },
            Shape::Number(bounds) => match value.as_f64() {
                Some(x) => {
                    self.bounds(bounds, x, value, path);
                }
                None => self.mismatch(shape, value, path),
            },
            Shape::String { values } => match value {
                Value::String(s) if values.is_empty() || values.contains(&s.as_str()) => {}
                Value::String(_) => self.push(path, ErrorClass::ConstraintViolation, || {
                    format!(
                        "{}: expected {}, got {}",
                        place(subject, path),
                        shape.expected(),
                        describe(value)
                    )
                }),
                _ => self.mismatch(shape, value, path),
            },
            Shape::Array(item) => match value {
                Value::Array(items) => self.items(item, items, path, depth),
                _ => self.mismatch(shape, value, path),
            },
            Shape::Object(object) => match value {
                Value::Object(map) => self.object(object, map, path, depth),
                _ => self.mismatch(shape, value, path),
            },
            Shape::Either(branches) => self.either(shape, branches, value, path, depth),
            Shape::All(parts) => {
                for part in *parts {
                    self.value(part, value, path, depth + 1);
                }
            }
            Shape::Enum(values) => self.one_of(shape, values, value, path),
            Shape::Rules(rules) => self.rules(rules, value, path, depth),
            Shape::Defs(defs) => {
                let outer = core::mem::replace(&mut self.defs, defs.defs);
                self.value(&defs.shape, value, path, depth + 1);
                self.defs = outer;
            }
            Shape::Ref(i) => {
                // An index past the table (only a hand-written shape has one) checks nothing.
                if let Some(target) = self.defs.get(*i as usize) {
                    self.value(target, value, path, depth + 1);
                }
            }
            Shape::Not(_) | Shape::If(_) => self.logic(shape, value, path, depth),
            Shape::Null | Shape::Boolean => self.mismatch(shape, value, path),
        }
    }

    /// `not`, and `if` with `then` and `else`.
    fn logic(&mut self, shape: &'d Shape<'d>, value: &Value, path: &mut String, depth: usize) {
        match shape {
            Shape::Not(inner) if self.passes(inner, value, path, depth) => {
                let (subject, defs) = (self.subject, self.defs);
                self.push(path, ErrorClass::ConstraintViolation, || {
                    format!(
                        "{}: {} is what the schema rules out (`not`: {})",
                        place(subject, path),
                        describe(value),
                        inner.expected_in(defs)
                    )
                });
            }
            Shape::If(condition) => {
                let branch = if self.passes(&condition.test, value, path, depth) {
                    &condition.then
                } else {
                    &condition.otherwise
                };
                self.value(branch, value, path, depth + 1);
            }
            _ => {}
        }
    }

    /// Whether `value` meets `shape`, building no message: for `not` and `if`.
    pub(super) fn passes(
        &self,
        shape: &'d Shape<'d>,
        value: &Value,
        path: &str,
        depth: usize,
    ) -> bool {
        let mut walk = Walk::with_room(self.subject, 0, self.defs);
        walk.value(shape, value, &mut String::from(path), depth + 1);
        walk.is_clean()
    }

    /// The first issue of `value` against `shape`, at `path`, if it has one.
    pub(super) fn first_issue(
        &self,
        shape: &'d Shape<'d>,
        value: &Value,
        path: &str,
        depth: usize,
    ) -> Option<Issue> {
        let mut walk = Walk::with_room(self.subject, 1, self.defs);
        walk.value(shape, value, &mut String::from(path), depth + 1);
        walk.finish().into_iter().next()
    }

    /// Every item of an array against `item`.
    pub(super) fn items(
        &mut self,
        item: &'d Shape<'d>,
        items: &[Value],
        path: &mut String,
        depth: usize,
    ) {
        for (i, v) in items.iter().enumerate() {
            let len = path.len();
            let _ = write!(path, "/{i}");
            self.value(item, v, path, depth + 1);
            path.truncate(len);
        }
    }

    pub(super) fn mismatch(&mut self, shape: &Shape, value: &Value, path: &str) {
        let (subject, defs) = (self.subject, self.defs);
        self.push(path, ErrorClass::SchemaResolution, || {
            format!(
                "{}: expected {}, got {}",
                place(subject, path),
                shape.expected_in(defs),
                describe(value)
            )
        });
    }

    pub(super) fn object(
        &mut self,
        object: &'d Object<'d>,
        map: &crate::Map<String, Value>,
        path: &mut String,
        depth: usize,
    ) {
        let len = path.len();
        let (subject, defs) = (self.subject, self.defs);
        for p in object.properties {
            let Some(v) = map.get(p.name) else {
                if p.required {
                    push_segment(path, p.name);
                    let parent = &path[..len];
                    self.push(path, ErrorClass::SchemaResolution, || {
                        let prefix = if parent.is_empty() {
                            String::new()
                        } else {
                            format!("{}: ", place(subject, parent))
                        };
                        format!(
                            "{prefix}missing required {} `{}` ({})",
                            noun(subject, parent),
                            p.name,
                            p.shape.expected_in(defs)
                        )
                    });
                    path.truncate(len);
                }
                continue;
            };
            push_segment(path, p.name);
            self.value(&p.shape, v, path, depth + 1);
            path.truncate(len);
        }
        if !object.closed && object.others.is_none() {
            return;
        }
        for (key, v) in map {
            let declared = object.properties.iter().any(|p| p.name == key);
            let mut matched = false;
            if let Some(others) = object.others {
                // Every pattern that matches applies, to declared properties too.
                for each in others.patterns {
                    if each.pattern.is_match(key) {
                        matched = true;
                        push_segment(path, key);
                        self.value(&each.shape, v, path, depth + 1);
                        path.truncate(len);
                    }
                }
            }
            if declared || matched {
                continue;
            }
            push_segment(path, key);
            if object.closed {
                let parent = &path[..len];
                self.push(path, ErrorClass::SchemaResolution, || {
                    unknown(subject, object, key, parent)
                });
            } else if let Some(others) = object.others {
                self.value(&others.additional, v, path, depth + 1);
            }
            path.truncate(len);
        }
    }

    fn either(
        &mut self,
        shape: &Shape,
        branches: &'d [Shape<'d>],
        value: &Value,
        path: &mut String,
        depth: usize,
    ) {
        let (subject, defs) = (self.subject, self.defs);
        let mut candidates: Vec<Walk<'d>> = Vec::new();
        for branch in branches {
            if !fits_kind(branch, value, defs, depth) {
                continue;
            }
            // A branch walk builds only the messages this walk still has room for.
            let room = self.room.saturating_sub(self.issues.len());
            let mut walk = Walk::with_room(self.subject, room, defs);
            walk.value(branch, value, path, depth + 1);
            if walk.is_clean() {
                return;
            }
            candidates.push(walk);
        }
        if candidates.len() == 1 {
            // Only one branch is of the value's type: its issues say exactly what to fix.
            if let Some(only) = candidates.pop() {
                self.absorb(only);
            }
            return;
        }
        let closest = candidates.into_iter().min_by_key(Walk::total);
        match closest.and_then(|w| w.issues.into_iter().next()) {
            None => self.mismatch(shape, value, path),
            Some(first) => self.push(path, ErrorClass::SchemaResolution, || {
                format!(
                    "{}: {} fits none of the accepted shapes ({}); the closest says: {}",
                    place(subject, path),
                    describe(value),
                    shape.expected_in(defs),
                    first.message
                )
            }),
        }
    }
}
