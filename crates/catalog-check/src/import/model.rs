//! The mapped model: what the catalog will say, before it is written as TOML.

use std::fmt;

use serde_json::Value;

use crate::model::{self as compiled, Transport};

/// One imported tool.
pub(super) struct Row {
    pub(super) name: String,
    pub(super) rust_name: Option<String>,
    pub(super) description: String,
    /// From the annotations: [`effect_of`](super::effect_of).
    pub(super) effect: compiled::Effect,
    pub(super) input: Input,
    /// Writes `additional-params = true`: the server's input schema leaves the object open.
    pub(super) additional_params: bool,
    pub(super) output: Option<Type>,
    /// The upstream that serves it, for a row imported from a live server.
    pub(super) upstream: Option<RowSource>,
    /// Writes `arguments = "json"` on the row: a catalog whose default is typed.
    pub(super) json_arguments: bool,
}

/// A row's `upstream`, `upstream-tool` and `upstream-digest`.
pub(super) struct RowSource {
    pub(super) upstream: String,
    /// The tool's name on the server, when the row's name differs from it.
    pub(super) tool: Option<String>,
    pub(super) digest: String,
}

/// A tool's input: a parameter table, or the whole original schema.
pub(super) enum Input {
    Params(Vec<Field>),
    Whole(Value, Reason),
}

/// A parameter or an object property.
pub(super) struct Field {
    pub(super) name: String,
    pub(super) rust_name: Option<String>,
    pub(super) ty: Type,
    pub(super) required: bool,
    pub(super) default: Option<Value>,
    /// The server's `x-mcp-header` for it, written as `header`.
    pub(super) header: Option<String>,
}

/// A type of the type language, or the escape hatch with why it was needed.
pub(super) struct Type {
    pub(super) kind: Kind,
    pub(super) description: Option<String>,
}

pub(super) enum Kind {
    String(Option<Vec<String>>),
    Integer(Bounds),
    Number(Bounds),
    Boolean,
    Array(Box<Type>),
    Object(Option<Vec<Field>>),
    Raw(Value, Reason),
}

/// `minimum` and `maximum` as the source wrote them (the compiler reads them back exactly).
#[derive(Default)]
pub(super) struct Bounds {
    pub(super) minimum: Option<serde_json::Number>,
    pub(super) maximum: Option<serde_json::Number>,
}

/// Why a schema went through an escape hatch. The report counts them by their text.
#[derive(Clone, Debug)]
pub(super) enum Reason {
    NotAnObject,
    NoType,
    ItemsDefault,
    TypeList,
    OtherType(String),
    Keyword(String),
    KeyForOtherType(String, String),
    DescriptionNotString,
    EnumNotStrings,
    EnumRejected,
    ArrayWithoutItems,
    ItemsNotSchema,
    AdditionalProperties,
    OpenObject,
    PropertyName(String),
    RequiredList,
    Bound,
    BoundsReversed,
    DefaultNull,
    DefaultUnwritable,
    DefaultDoesNotFit,
    RequiredWithDefault,
    TopLevelKey(String),
    TopLevelType,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NotAnObject => write!(f, "a schema that is not a JSON object"),
            Reason::NoType => write!(f, "no `type`"),
            Reason::ItemsDefault => write!(f, "`default` on array items"),
            Reason::TypeList => write!(f, "`type` is a list"),
            Reason::OtherType(t) => write!(f, "`type` {t}"),
            Reason::Keyword(k) => write!(f, "`{k}`"),
            Reason::KeyForOtherType(k, t) => write!(f, "`{k}` on type {t}"),
            Reason::DescriptionNotString => write!(f, "`description` is not a string"),
            Reason::EnumNotStrings => write!(f, "`enum` of non-strings"),
            Reason::EnumRejected => write!(f, "`enum` empty, with a blank or repeated value"),
            Reason::ArrayWithoutItems => write!(f, "array without `items`"),
            Reason::ItemsNotSchema => write!(f, "`items` is not one schema"),
            Reason::AdditionalProperties => write!(f, "`additionalProperties`"),
            Reason::OpenObject => write!(
                f,
                "an object open to properties it does not declare (no `additionalProperties: false`)"
            ),
            Reason::PropertyName(n) => write!(f, "property name `{n}` the format rejects"),
            Reason::RequiredList => {
                write!(f, "`required` names unknown or repeated properties")
            }
            Reason::Bound => write!(f, "a bound the compiler would rewrite (e.g. `1.0`)"),
            Reason::BoundsReversed => write!(f, "`minimum` above `maximum`"),
            Reason::DefaultNull => write!(f, "default null"),
            Reason::DefaultUnwritable => {
                write!(
                    f,
                    "a default TOML cannot hold (a null inside, an integer above i64)"
                )
            }
            Reason::DefaultDoesNotFit => write!(f, "a default that does not fit the type"),
            Reason::RequiredWithDefault => write!(f, "required and has a default"),
            Reason::TopLevelKey(k) => write!(f, "extra top-level key `{k}`"),
            Reason::TopLevelType => write!(f, "top-level `type` is not \"object\""),
        }
    }
}

/// A live MCP server to import: the `[[upstream]]` table its rows will name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    /// The upstream's name in the catalog (lowercase letters, digits, `-`, `_`).
    pub name: String,
    /// How the gateway reaches it.
    pub transport: Transport,
}

impl Type {
    /// The type in the compiler's model, for the compiler's rules to decide on (whether a
    /// default fits). Positions are empty: nothing here is reported against a file.
    pub(super) fn to_model(&self) -> compiled::TypeSpec {
        let bound =
            |b: &Option<serde_json::Number>| b.as_ref().and_then(serde_json::Number::as_f64);
        let kind = match &self.kind {
            Kind::String(values) => compiled::Kind::String {
                values: values.clone(),
            },
            Kind::Integer(b) => compiled::Kind::Integer {
                minimum: bound(&b.minimum),
                maximum: bound(&b.maximum),
            },
            Kind::Number(b) => compiled::Kind::Number {
                minimum: bound(&b.minimum),
                maximum: bound(&b.maximum),
            },
            Kind::Boolean => compiled::Kind::Boolean,
            Kind::Array(item) => compiled::Kind::Array(Box::new(item.to_model())),
            Kind::Object(fields) => compiled::Kind::Object(fields.as_ref().map(|fields| {
                fields
                    .iter()
                    .map(|f| compiled::Field {
                        name: f.name.clone(),
                        span: 0..0,
                        rust_name: f.rust_name.clone(),
                        ty: f.ty.to_model(),
                        required: f.required,
                        default: f.default.clone(),
                        header: None,
                    })
                    .collect()
            })),
            Kind::Raw(schema, _) => compiled::Kind::Raw(schema.clone()),
        };
        compiled::TypeSpec {
            kind,
            description: self.description.clone(),
            span: 0..0,
        }
    }
}
