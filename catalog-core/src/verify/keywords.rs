//! The keywords that narrow a type: numeric bounds, lengths, item counts, enums. Each
//! holds only for a value of its own JSON type, as JSON Schema says.

use alloc::format;
use alloc::string::String;

use super::ErrorClass;
use super::walk::Walk;
use super::words::{describe, number, place};
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
        rules: &'d Rules,
        value: &Value,
        path: &mut String,
        depth: usize,
    ) {
        let subject = self.subject;
        match value {
            Value::Number(n) => {
                if let Some(x) = n.as_f64() {
                    self.bounds(&rules.bounds, x, value, path);
                }
            }
            Value::String(s) => {
                // JSON Schema counts code points, not bytes or UTF-16 units.
                let count = s.chars().count() as u64;
                self.count(count, rules.min_length, rules.max_length, path, |n| {
                    format!("{} has {n} characters", place(subject, path))
                });
            }
            Value::Array(items) => {
                let count = items.len() as u64;
                self.count(count, rules.min_items, rules.max_items, path, |n| {
                    format!("{} has {n} items", place(subject, path))
                });
                if rules.items != Shape::Any {
                    self.items(&rules.items, items, path, depth);
                }
            }
            Value::Object(map) => {
                if let Some(object) = &rules.object {
                    self.object(object, map, path, depth);
                }
            }
            Value::Null | Value::Bool(_) => {}
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
mod tests {
    use alloc::string::String;
    use alloc::vec::Vec;

    use serde_json::json;

    use crate::shape::{Bounds, Defs, Object, Property, Rules, Shape};
    use crate::{Value, check_value};

    fn messages(shape: &Shape, value: &Value) -> Vec<String> {
        check_value(shape, value)
            .into_iter()
            .map(|i| i.path + " | " + &i.message)
            .collect()
    }

    /// A tree of named nodes: a model that refers to itself.
    static TREE: Shape = Shape::Defs(&Defs {
        shape: Shape::Ref(0),
        defs: &[Shape::Object(Object {
            properties: &[
                Property {
                    name: "name",
                    required: true,
                    shape: Shape::String { values: &[] },
                },
                Property {
                    name: "children",
                    required: false,
                    shape: Shape::Array(&Shape::Ref(0)),
                },
            ],
            closed: true,
        })],
    });

    static SHORT: Rules = Rules {
        min_length: 1,
        max_length: Some(3),
        ..Rules::NONE
    };

    static SHORT_TEXT: Shape = Shape::All(&[Shape::String { values: &[] }, Shape::Rules(&SHORT)]);

    static SOME: Rules = Rules {
        min_items: 1,
        ..Rules::NONE
    };

    static TAGS: Shape = Shape::Object(Object {
        properties: &[Property {
            name: "tags",
            required: true,
            shape: Shape::All(&[Shape::Array(&Shape::Any), Shape::Rules(&SOME)]),
        }],
        closed: false,
    });

    static OBJECT: Rules = Rules {
        object: Some(Object {
            properties: &[Property {
                name: "a",
                required: true,
                shape: Shape::Any,
            }],
            closed: false,
        }),
        ..Rules::NONE
    };

    #[test]
    fn a_recursive_model_is_checked_at_every_level() {
        assert!(check_value(&TREE, &json!({"name": "a", "children": [{"name": "b"}]})).is_empty());
        assert_eq!(
            messages(
                &TREE,
                &json!({"name": "a", "children": [{"children": [{"name": 1}]}]})
            ),
            [
                "/children/0/name | `/children/0`: missing required property `name` (a string)",
                "/children/0/children/0/name | `/children/0/children/0/name`: expected a string, got the number 1"
            ]
        );
    }

    #[test]
    fn keywords_say_what_to_change() {
        let positive = Shape::Number(Bounds {
            exclusive_minimum: Some(0.0),
            ..Bounds::NONE
        });
        assert_eq!(
            messages(&positive, &json!(0)),
            [" | the arguments: 0 is not above the exclusive minimum 0"]
        );
        let short = &SHORT_TEXT;
        // Code points: four emoji are four characters, not sixteen bytes.
        assert_eq!(
            messages(short, &json!("😀😀😀😀")),
            [" | the arguments has 4 characters; it must have at most 3"]
        );
        assert!(check_value(short, &json!("😀😀😀")).is_empty());
        assert_eq!(
            messages(&TAGS, &json!({"tags": []})),
            ["/tags | `/tags` has 0 items; it must have at least 1"]
        );
        let levels = Shape::Enum(&["1", "2", "null"]);
        assert!(check_value(&levels, &json!(2.0)).is_empty(), "2.0 is 2");
        assert_eq!(
            messages(&levels, &json!(3)),
            [" | the arguments: expected one of 1, 2, null, got the number 3"]
        );
        assert_eq!(
            messages(&Shape::Enum(&["{\"v\":1}"]), &json!({"v": 2})),
            [" | the arguments: expected exactly {\"v\":1}, got an object"]
        );
    }

    #[test]
    fn keywords_without_a_type_hold_for_their_own_type_only() {
        let untyped = Shape::Rules(&OBJECT);
        assert!(check_value(&untyped, &json!("text")).is_empty());
        assert_eq!(
            messages(&untyped, &json!({})),
            ["/a | missing required parameter `a` (any value)"]
        );
    }

    #[test]
    fn integers_may_be_larger_than_64_bits_unless_typed() {
        let integer = Shape::Integer(Bounds::NONE);
        assert!(check_value(&integer, &json!(u64::MAX)).is_empty());
        assert!(check_value(&integer, &json!(1.5e20)).is_empty());
        assert_eq!(
            check_value(&Shape::Int64(Bounds::NONE), &json!(1.5e20)).len(),
            1
        );
        assert_eq!(
            messages(&integer, &json!(1.5)),
            [" | the arguments: expected an integer, got the number 1.5"]
        );
    }
}
