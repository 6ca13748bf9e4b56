//! TOML values as JSON, the form defaults and schemas take.

use serde_json::{Map, Number, Value};
use toml::Spanned;
use toml::de::DeValue;

use crate::diag::{Diagnostic, Errors};

/// Converts a TOML value to JSON, the form defaults and schemas take.
pub(super) fn json(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Option<Value> {
    Some(match v.get_ref() {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Integer(i) => {
            let digits = i.as_str().replace('_', "");
            let (neg, digits) = match digits.strip_prefix('-') {
                Some(d) => (true, d.to_string()),
                None => (false, digits.trim_start_matches('+').to_string()),
            };
            // The TOML reader takes `0o`, `0x` and `0b` with no digits after them (its
            // text may then be empty): an error here, not a panic.
            let digits = if i.radix() == 10 {
                Some(digits.as_str())
            } else {
                digits.get(2..)
            };
            let Some(digits) = digits.filter(|d| !d.is_empty()) else {
                errors.push(
                    Diagnostic::new(v.span(), "an integer with no digits").help(
                        "write the digits after the prefix, e.g. `0x1F`, or a decimal number",
                    ),
                );
                return None;
            };
            if let Ok(n) = i64::from_str_radix(digits, i.radix()) {
                Value::from(if neg { -n } else { n })
            } else {
                errors.push(
                    Diagnostic::new(v.span(), "integer out of range")
                        .help("use a value that fits in 64 bits"),
                );
                return None;
            }
        }
        DeValue::Float(f) => {
            let x: f64 = f.as_str().replace('_', "").parse().unwrap_or(f64::NAN);
            if let Some(n) = Number::from_f64(x) {
                Value::Number(n)
            } else {
                errors.push(
                    Diagnostic::new(v.span(), "`inf` and `nan` are not JSON numbers")
                        .help("use a finite number"),
                );
                return None;
            }
        }
        DeValue::Datetime(_) => {
            errors.push(
                Diagnostic::new(v.span(), "a TOML datetime has no JSON form")
                    .help("quote it as a string"),
            );
            return None;
        }
        DeValue::Array(items) => Value::Array(
            items
                .iter()
                .map(|x| json(x, errors))
                .collect::<Option<_>>()?,
        ),
        DeValue::Table(t) => {
            let mut map = Map::new();
            for (k, x) in t {
                map.insert(k.get_ref().to_string(), json(x, errors)?);
            }
            Value::Object(map)
        }
    })
}

#[cfg(test)]
mod tests {
    /// A prefixed integer with no digits, which the TOML reader takes, is an error with
    /// its place, not a panic (a fuzz run found the panic).
    #[test]
    fn a_prefix_without_digits_is_an_error() {
        for value in ["0o", "0x", "0b"] {
            let source = crate::TEST_HEAD.replacen(
                "ask-tool = \"ask\"",
                &format!("ask-tool = \"ask\"\nsearch-results = {value}"),
                1,
            );
            let errors = crate::compile(&source).expect_err(value);
            let messages: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
            assert_eq!(messages, ["an integer with no digits"], "{value}");
            let at = source.find(&format!("= {value}")).unwrap() + 2;
            assert_eq!(errors[0].span, at..at + value.len(), "{value}");
        }
    }
}
