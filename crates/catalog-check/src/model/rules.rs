//! Rules on the model's own values, with one home: the parser reports what breaks them,
//! and the importer keeps as JSON what would break them.

use serde_json::Value;

use super::{Field, Kind, TypeSpec};

/// Whether model providers accept a parameter or property name: 1 to 64 characters of
/// `A-Z a-z 0-9 _ . -`.
#[must_use]
pub fn is_field_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// Whether a parameter's `header` may name the HTTP header MCP mirrors it in: an HTTP
/// token (RFC 9110: at least one of ``A-Z a-z 0-9 ! # $ % & ' * + - . ^ _ ` | ~``), as MCP
/// asks of `x-mcp-header`, so it cannot hold a space, a `:` or a control character; and
/// not starting with [`HEADER_PREFIX`], which clients put before it.
#[must_use]
pub fn is_header_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(is_tchar) && !has_header_prefix(name)
}

/// What a client puts before a parameter's `header` to name the HTTP header it sends.
pub const HEADER_PREFIX: &str = "Mcp-Param-";

/// Whether `name` starts with [`HEADER_PREFIX`], in any case.
#[must_use]
pub fn has_header_prefix(name: &str) -> bool {
    name.get(..HEADER_PREFIX.len())
        .is_some_and(|start| start.eq_ignore_ascii_case(HEADER_PREFIX))
}

/// A character of an HTTP token (RFC 9110, `tchar`).
#[must_use]
pub fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The types MCP mirrors in a header, as `type` names them: not `number`, whose text a
/// fractional value has no one spelling of.
pub const HEADER_TYPES: [&str; 3] = ["string", "integer", "boolean"];

/// The largest integer MCP mirrors in a header: JavaScript's `Number.MAX_SAFE_INTEGER`
/// (2^53 - 1), since a client in JavaScript could not write a larger one exactly.
pub const HEADER_MAX_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Whether a string may stand in one of the format's lists of strings (`enum`,
/// `keywords`, `examples`, ...): not blank.
#[must_use]
pub fn is_list_item(s: &str) -> bool {
    !s.trim().is_empty()
}

/// What keeps a list of strings from being an `enum`: it must name at least one value,
/// each once (and each a list item, [`is_list_item`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnumFault {
    /// No value: nothing could ever be passed.
    Empty,
    /// `values[at]` repeats `values[first]`.
    Repeated {
        /// The repeat.
        at: usize,
        /// Its first occurrence.
        first: usize,
    },
}

/// Every [`EnumFault`] of `values`, in order.
#[must_use]
pub fn enum_faults(values: &[&str]) -> Vec<EnumFault> {
    if values.is_empty() {
        return vec![EnumFault::Empty];
    }
    let mut first = std::collections::HashMap::new();
    values
        .iter()
        .enumerate()
        .filter_map(|(at, v)| match first.entry(*v) {
            std::collections::hash_map::Entry::Occupied(e) => Some(EnumFault::Repeated {
                at,
                first: *e.get(),
            }),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(at);
                None
            }
        })
        .collect()
}

/// Whether a number's bounds leave room for a value: `minimum` not above `maximum`.
#[must_use]
pub fn bounds_in_order(minimum: Option<f64>, maximum: Option<f64>) -> bool {
    !matches!((minimum, maximum), (Some(lo), Some(hi)) if lo > hi)
}

/// Whether a field may declare a `default`: only an optional one, since a default applies
/// only when the value is left out.
#[must_use]
pub fn may_have_default(required: bool) -> bool {
    !required
}

/// The parameter the search tool takes the request in: the agent loop reads it.
pub(crate) const SEARCH_QUERY: &str = "query";

/// The parameter named [`SEARCH_QUERY`] among `params`, whatever its type.
pub(crate) fn search_query(params: &[Field]) -> Option<&Field> {
    params.iter().find(|p| p.name == SEARCH_QUERY)
}

/// **The search tool's parameter rule**: it takes the request as a required string
/// [`SEARCH_QUERY`], of any value (no `enum`), which the agent loop reads. The check of the
/// declared search tool, the skeleton's stand-in and the editor schema's search-tool branch
/// all follow it.
pub(crate) fn takes_query(params: &[Field]) -> bool {
    search_query(params)
        .is_some_and(|q| q.required && matches!(q.ty.kind, Kind::String { values: None }))
}

/// The parameter [`takes_query`] asks for, as a stand-in search tool takes it.
pub(crate) fn query_param() -> Field {
    Field {
        name: SEARCH_QUERY.into(),
        span: 0..0,
        rust_name: None,
        ty: TypeSpec {
            kind: Kind::String { values: None },
            description: None,
            span: 0..0,
        },
        required: true,
        default: None,
        header: None,
    }
}

impl Kind {
    /// Whether a JSON value fits the kind, as a `default` must; the reason when it does not.
    ///
    /// It accepts what the schema the compiler publishes for the kind accepts (a test holds
    /// it to the `jsonschema` crate), less what the generated Rust field could not hold: an
    /// integer is written as one (`2`, not `2.0`) and fits the field's `i64`. The `schema`
    /// escape hatch accepts any default: its schema is the author's, kept as written.
    ///
    /// # Errors
    /// Why it does not fit: `is not a string`, `is above the maximum 5`, ...
    pub fn fits(&self, v: &Value) -> Result<(), String> {
        match (self, v) {
            (Kind::String { values: Some(vals) }, Value::String(s)) if !vals.contains(s) => Err(
                format!("is not one of the enum values ({})", vals.join(", ")),
            ),
            (Kind::String { .. }, Value::String(_))
            | (Kind::Boolean, Value::Bool(_))
            | (Kind::Object(None), Value::Object(_))
            | (Kind::Raw(_), _) => Ok(()),
            (Kind::Integer { minimum, maximum }, Value::Number(n)) if n.is_i64() => {
                in_range(n.as_f64().unwrap_or(0.0), *minimum, *maximum)
            }
            (Kind::Integer { .. }, Value::Number(n)) if n.is_u64() => {
                Err("is outside the range of a 64-bit integer".to_string())
            }
            (Kind::Number { minimum, maximum }, Value::Number(n)) => {
                in_range(n.as_f64().unwrap_or(0.0), *minimum, *maximum)
            }
            (Kind::Array(item), Value::Array(xs)) => xs.iter().try_for_each(|x| item.kind.fits(x)),
            (Kind::Object(Some(props)), Value::Object(map)) => {
                for (k, x) in map {
                    let p = props
                        .iter()
                        .find(|p| &p.name == k)
                        .ok_or_else(|| format!("has unknown property `{k}`"))?;
                    p.ty.kind.fits(x)?;
                }
                match props
                    .iter()
                    .find(|p| p.required && !map.contains_key(&p.name))
                {
                    Some(p) => Err(format!("lacks required property `{}`", p.name)),
                    None => Ok(()),
                }
            }
            (k, _) => Err(format!("is not {}", kind_name(k))),
        }
    }
}

fn in_range(x: f64, lo: Option<f64>, hi: Option<f64>) -> Result<(), String> {
    match (lo, hi) {
        (Some(lo), _) if x < lo => Err(format!("is below the minimum {lo}")),
        (_, Some(hi)) if x > hi => Err(format!("is above the maximum {hi}")),
        _ => Ok(()),
    }
}

fn kind_name(k: &Kind) -> &'static str {
    match k {
        Kind::String { .. } => "a string",
        Kind::Integer { .. } => "an integer",
        Kind::Number { .. } => "a number",
        Kind::Boolean => "a boolean",
        Kind::Array(_) => "an array",
        Kind::Object(_) => "an object",
        Kind::Raw(_) => "a value",
    }
}
