//! The keywords that narrow a type: numeric bounds and multiples, lengths and patterns,
//! item counts, tuples and uniqueness, property counts, names and dependencies, enums.
//! Each holds only for a value of its own JSON type, as JSON Schema says.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use core::fmt::Write as _;

use super::ErrorClass;
use super::walk::Walk;
use super::words::{describe, number, place, push_segment, quote};
use crate::Value;
use crate::shape::{Bounds, Rules, Shape};

impl<'d> Walk<'d> {
    /// Reports a number outside its bounds; whether it did.
    pub(super) fn bounds(&mut self, bounds: &Bounds, x: f64, value: &Value, path: &str) -> bool {
        let subject = self.subject;
        let broken = [
            (bounds.minimum.filter(|b| x < *b), "below the minimum"),
            (bounds.maximum.filter(|b| x > *b), "above the maximum"),
            (
                bounds.exclusive_minimum.filter(|b| x <= *b),
                "not above the exclusive minimum",
            ),
            (
                bounds.exclusive_maximum.filter(|b| x >= *b),
                "not below the exclusive maximum",
            ),
        ];
        // One message: the first bound broken says what to change.
        let Some((bound, what)) = broken.into_iter().find_map(|(b, w)| b.map(|b| (b, w))) else {
            return false;
        };
        self.push(path, ErrorClass::ConstraintViolation, || {
            format!(
                "{}: {} is {what} {bound}",
                place(subject, path),
                number(value)
            )
        });
        true
    }

    /// An [`Shape::Enum`]: the value must equal one of them.
    pub(super) fn one_of(&mut self, shape: &Shape, values: &[&str], value: &Value, path: &str) {
        if values.iter().any(|v| equals(v, value)) {
            return;
        }
        let (subject, defs) = (self.subject, self.defs());
        self.push(path, ErrorClass::ConstraintViolation, || {
            format!(
                "{}: expected {}, got {}",
                place(subject, path),
                shape.expected_in(defs),
                describe(value)
            )
        });
    }

    /// A [`Shape::Rules`]: each keyword for the value's own type.
    pub(super) fn rules(
        &mut self,
        rules: &'d Rules<'d>,
        value: &Value,
        path: &mut String,
        depth: usize,
    ) {
        let subject = self.subject;
        match value {
            Value::Number(n) => {
                if let Some(x) = n.as_f64()
                    && !self.bounds(&rules.bounds, x, value, path)
                    && let Some(m) = rules.multiple_of
                    && !multiple_of(n, m)
                {
                    self.push(path, ErrorClass::ConstraintViolation, || {
                        format!(
                            "{}: {} is not a multiple of {m}",
                            place(subject, path),
                            number(value)
                        )
                    });
                }
            }
            Value::String(s) => {
                // JSON Schema counts code points, not bytes or UTF-16 units.
                let count = s.chars().count() as u64;
                self.count(count, rules.min_length, rules.max_length, path, |n| {
                    format!("{} has {n} characters", place(subject, path))
                });
                if let Some(pattern) = rules.pattern
                    && !pattern.is_match(s)
                {
                    self.push(path, ErrorClass::ConstraintViolation, || {
                        format!(
                            "{}: {} does not match the pattern `{}`",
                            place(subject, path),
                            describe(value),
                            pattern.source
                        )
                    });
                }
            }
            Value::Array(items) => {
                let count = items.len() as u64;
                self.count(count, rules.min_items, rules.max_items, path, |n| {
                    format!("{} has {n} items", place(subject, path))
                });
                if rules.unique_items
                    && let Some((first, again)) = repeated(items)
                {
                    self.push(path, ErrorClass::ConstraintViolation, || {
                        format!(
                            "{}: items {first} and {again} are equal, and the items must be unique",
                            place(subject, path)
                        )
                    });
                }
                if rules.prefix_items.is_empty() {
                    if rules.items != Shape::Any {
                        self.items(&rules.items, items, path, depth);
                    }
                } else {
                    for (i, v) in items.iter().enumerate() {
                        let item = rules.prefix_items.get(i).unwrap_or(&rules.items);
                        let len = path.len();
                        let _ = write!(path, "/{i}");
                        self.value(item, v, path, depth + 1);
                        path.truncate(len);
                    }
                }
            }
            Value::Object(map) => {
                let count = map.len() as u64;
                self.count(
                    count,
                    rules.min_properties,
                    rules.max_properties,
                    path,
                    |n| format!("{} has {n} properties", place(subject, path)),
                );
                self.dependencies(rules, map, path);
                if rules.property_names != Shape::Any {
                    self.names(&rules.property_names, map, path, depth);
                }
                if let Some(object) = &rules.object {
                    self.object(object, map, path, depth);
                }
            }
            Value::Null | Value::Bool(_) => {}
        }
    }

    /// `dependentRequired`: each present property's companions.
    fn dependencies(&mut self, rules: &Rules, map: &crate::Map<String, Value>, path: &mut String) {
        let subject = self.subject;
        let len = path.len();
        for dependent in rules.dependent_required {
            if !map.contains_key(dependent.name) {
                continue;
            }
            for needed in dependent.requires {
                if map.contains_key(*needed) {
                    continue;
                }
                push_segment(path, needed);
                let parent = &path[..len];
                self.push(path, ErrorClass::SchemaResolution, || {
                    let prefix = if parent.is_empty() {
                        String::new()
                    } else {
                        format!("{}: ", place(subject, parent))
                    };
                    format!(
                        "{prefix}missing `{needed}`, which `{}` needs beside it",
                        dependent.name
                    )
                });
                path.truncate(len);
            }
        }
    }

    /// `propertyNames`: every name, as a string, against `shape`.
    fn names(
        &mut self,
        shape: &'d Shape<'d>,
        map: &crate::Map<String, Value>,
        path: &mut String,
        depth: usize,
    ) {
        let subject = self.subject;
        let len = path.len();
        for key in map.keys() {
            push_segment(path, key);
            let name = Value::String(key.clone());
            if let Some(issue) = self.first_issue(shape, &name, path, depth) {
                let parent = &path[..len];
                self.push(path, ErrorClass::ConstraintViolation, || {
                    format!(
                        "{}: the property name {} is not allowed: {}",
                        place(subject, parent),
                        quote(key),
                        issue.message
                    )
                });
            }
            path.truncate(len);
        }
    }

    /// A length or count outside `min..=max`.
    fn count(
        &mut self,
        count: u64,
        min: u64,
        max: Option<u64>,
        path: &str,
        has: impl FnOnce(u64) -> String,
    ) {
        let broken = if count < min {
            format!("at least {min}")
        } else if let Some(max) = max.filter(|m| count > *m) {
            format!("at most {max}")
        } else {
            return;
        };
        self.push(path, ErrorClass::ConstraintViolation, || {
            format!("{}; it must have {broken}", has(count))
        });
    }
}

/// Whether the number is a whole multiple of `m`, as JSON Schema's reference validators
/// compute it: by a whole divisor, integers exactly and floats by their binary value (so
/// `-3e25`, which is 30000000000000000570425344, is not a multiple of 3); by a fractional
/// one, each read as the decimal it prints as (`0.3` is a multiple of `0.1`). Numbers too
/// far apart for that to be exact in 128 bits pass.
fn multiple_of(number: &serde_json::Number, divisor: f64) -> bool {
    if !(divisor.is_finite() && divisor > 0.0) {
        // The meta-schema asks for a number above 0; anything else checks nothing.
        return true;
    }
    if divisor % 1.0 == 0.0 {
        if divisor <= 9_007_199_254_740_992.0 {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "whole, positive and at most 2^53: exact"
            )]
            let whole = divisor as u64;
            if let Some(value) = number.as_u64() {
                return value % whole == 0;
            }
            if let Some(value) = number.as_i64() {
                return value.unsigned_abs() % whole == 0;
            }
        }
        // `%` on floats is exact.
        return number
            .as_f64()
            .is_none_or(|value| value % 1.0 == 0.0 && value % divisor == 0.0);
    }
    let Some(value) = number.as_f64() else {
        return true;
    };
    if value == 0.0 {
        return true;
    }
    if value.abs() < divisor {
        return false;
    }
    let (Some((a, i)), Some((b, j))) = (decimal(value), decimal(divisor)) else {
        return true;
    };
    // x/m = (a·10^i) / (b·10^j): scale the side with the larger exponent.
    let scaled = |mantissa: i128, places: i32| {
        u32::try_from(places)
            .ok()
            .and_then(|p| 10_i128.checked_pow(p))
            .and_then(|p| mantissa.checked_mul(p))
    };
    let (top, bottom) = if i >= j {
        (scaled(a, i - j), Some(b))
    } else {
        (Some(a), scaled(b, j - i))
    };
    match (top, bottom) {
        (Some(top), Some(bottom)) if bottom != 0 => top % bottom == 0,
        _ => true,
    }
}

/// A finite float as the shortest decimal that reads back as it: `mantissa · 10^exponent`.
fn decimal(x: f64) -> Option<(i128, i32)> {
    let mut text = String::new();
    write!(text, "{x:e}").ok()?;
    let (digits, exponent) = text.split_once('e')?;
    let mut exponent: i32 = exponent.parse().ok()?;
    let mut mantissa: i128 = 0;
    let mut fractional = false;
    for c in digits.chars() {
        match c {
            '-' => {}
            '.' => fractional = true,
            d => {
                mantissa = mantissa
                    .checked_mul(10)?
                    .checked_add(i128::from(d.to_digit(10)?))?;
                exponent -= i32::from(fractional);
            }
        }
    }
    Some((if x < 0.0 { -mantissa } else { mantissa }, exponent))
}

/// The first two equal items, by index, as JSON Schema compares (numbers by value, objects
/// whatever their keys' order).
fn repeated(items: &[Value]) -> Option<(usize, usize)> {
    let mut seen = BTreeMap::new();
    for (i, item) in items.iter().enumerate() {
        let mut key = String::new();
        canonical(item, &mut key);
        if let Some(first) = seen.insert(key, i) {
            return Some((first, i));
        }
    }
    None
}

/// A text equal for two values exactly when JSON Schema calls them equal.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Number(n) => {
            if let Some(x) = n.as_i64() {
                let _ = write!(out, "{x}");
            } else if let Some(x) = n.as_u64() {
                let _ = write!(out, "{x}");
            } else if let Some(x) = n.as_f64() {
                const LIMIT: f64 = 9_223_372_036_854_775_808.0;
                if x % 1.0 == 0.0 && (-LIMIT..LIMIT).contains(&x) {
                    #[allow(clippy::cast_possible_truncation, reason = "whole and in range")]
                    let whole = x as i64;
                    let _ = write!(out, "{whole}");
                } else {
                    let _ = write!(out, "{x}");
                }
            }
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: alloc::vec::Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for key in keys {
                canonical(&Value::String(key.clone()), out);
                out.push(':');
                canonical(&map[key], out);
                out.push(',');
            }
            out.push('}');
        }
        other => {
            if let Ok(text) = serde_json::to_string(other) {
                out.push_str(&text);
            }
        }
    }
}

/// Whether `value` equals the JSON written in `text`, as JSON Schema compares: numbers by
/// value (`1` equals `1.0`), objects whatever their keys' order.
fn equals(text: &str, value: &Value) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|v| same(&v, value))
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            // Exact for whole numbers of either sign, by value for the rest.
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests;
