//! MCP → catalog: an MCP `tools/list` result as the text of a valid `catalog.toml`, one row
//! per tool, losing nothing. `cargo catalog import --from mcp` is a command-line shell over
//! [`from_mcp`].
//!
//! Each parameter is mapped into the catalog's type language when the type language says
//! exactly the same; anything it cannot say (a combinator, a `format`, a default that does
//! not fit, ...) is kept as the original JSON through the `schema = '...'` escape hatch, at
//! the smallest level that needs it (a property, an array's items, a parameter). A whole
//! input that the parameter table cannot hold (extra top-level keys, property names the
//! format rejects) goes through the tool-level `input-schema = '...'` instead.
//!
//! Every tool is discoverable; `readOnlyHint: true` makes it read-only and silent, anything
//! else full-access and gated. The catalog denies the `poisoned-description` lint: an
//! imported description that addresses the model fails the build until reviewed. Names are kept exactly: where two of them would become the
//! same Rust identifier or generated type, the later one gets a numbered `rust-name`. A
//! search tool and an ask tool are added.
//!
//! ```
//! let tools_list = serde_json::json!({"tools": [{
//!     "name": "get_weather",
//!     "description": "Current weather for a city.",
//!     "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
//!     "annotations": {"readOnlyHint": true}
//! }]});
//! let imported = catalog_compiler::import::from_mcp("tools.json", &tools_list).unwrap();
//! let catalog = catalog_compiler::compile(&imported.toml).unwrap();
//! assert_eq!(catalog.tools.len(), 3); // with the added search and ask tools
//! assert_eq!(imported.report.tools(), 1);
//! print!("{}", imported.report); // what was mapped exactly, what was kept as JSON, ...
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};

use serde_json::{Map, Value};

use crate::names::{self, TypeStep};

mod server;

pub use server::{FromServer, Server, from_server};

/// A catalog imported from MCP: its TOML text and what the mapping did.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The `catalog.toml` text. It compiles with [`crate::compile`] unless a bug in the
    /// importer says otherwise; callers should still compile it before relying on it.
    pub toml: String,
    /// What was mapped exactly, kept as JSON, renamed or dropped.
    pub report: Report,
}

/// Imports an MCP `tools/list` result: `{"tools": [...]}`, bare or as the `result` of a
/// JSON-RPC response. `base_name` names the source in the catalog's header comment
/// (control characters become spaces); give a file name, not a machine-specific path.
///
/// # Errors
/// When `tools_list` has no `tools` array at the top, or a tool has no string `name`.
pub fn from_mcp(base_name: &str, tools_list: &Value) -> Result<Imported, String> {
    import(base_name, tools_list).map(|(toml, report)| Imported { toml, report })
}

// ---------------------------------------------------------------------------------------
// The mapped model: what the catalog will say, before it is written as TOML
// ---------------------------------------------------------------------------------------

/// One imported tool.
struct Row {
    name: String,
    rust_name: Option<String>,
    description: String,
    read_only: bool,
    input: Input,
    output: Option<Type>,
    /// The upstream that serves it, for a row imported from a live server.
    upstream: Option<RowSource>,
    /// Writes `arguments = "json"` on the row: a catalog whose default is typed.
    json_arguments: bool,
}

/// A row's `upstream`, `upstream-tool` and `upstream-digest`.
struct RowSource {
    upstream: String,
    /// The tool's name on the server, when the row's name differs from it.
    tool: Option<String>,
    digest: String,
}

/// A tool's input: a parameter table, or the whole original schema.
enum Input {
    Params(Vec<Field>),
    Whole(Value, Reason),
}

/// A parameter or an object property.
struct Field {
    name: String,
    rust_name: Option<String>,
    ty: Type,
    required: bool,
    default: Option<Value>,
}

/// A type of the type language, or the escape hatch with why it was needed.
struct Type {
    kind: Kind,
    description: Option<String>,
}

enum Kind {
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
struct Bounds {
    minimum: Option<serde_json::Number>,
    maximum: Option<serde_json::Number>,
}

/// Why a schema went through an escape hatch. The report counts them by their text.
#[derive(Clone, Debug)]
enum Reason {
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

// ---------------------------------------------------------------------------------------
// Import: JSON → rows
// ---------------------------------------------------------------------------------------

/// The tool rows of a `tools/list` result (bare, or inside a JSON-RPC `result`).
fn tools_of(doc: &Value) -> Result<&Vec<Value>, String> {
    let doc = match doc.get("result") {
        Some(r) if doc.get("tools").is_none() => r,
        _ => doc,
    };
    doc.get("tools")
        .and_then(Value::as_array)
        .ok_or_else(|| "no `tools` array at the top".to_string())
}

/// The catalog text and the report.
fn import(base: &str, doc: &Value) -> Result<(String, Report), String> {
    let mut report = Report::default();
    let mut rows = rows_of(tools_of(doc)?, &mut report)?;
    let (search, ask) = agent_tools(&rows);
    assign_rust_names(&mut rows, &role_variants(&search, &ask));
    for row in &rows {
        report.add(row);
    }
    report.search.clone_from(&search);
    report.ask.clone_from(&ask);
    let source = format!("`cargo catalog import --from mcp` from {}", one_line(base));
    Ok((write_catalog(&source, &rows, &search, &ask, None), report))
}

/// The Rust names a catalog's other rows already have, which imported rows must not take.
#[derive(Default)]
struct Taken {
    /// Each row's enum variant.
    variants: Vec<String>,
    /// Every type generated for them beyond their arguments' (enums, objects).
    types: BTreeSet<String>,
}

/// The added search and ask tools, the only other rows of a new catalog.
fn role_variants(search: &str, ask: &str) -> Taken {
    Taken {
        variants: vec![names::variant(search), names::variant(ask)],
        types: BTreeSet::new(),
    }
}

/// One row per tool, in order, with the report's notes on what had no place in a row.
fn rows_of(tools: &[Value], report: &mut Report) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        let name = tool
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("tool {} has no string `name`", i + 1))?
            .to_string();
        let text = |v: Option<&Value>| {
            v.and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
                .map(str::to_string)
        };
        let annotations = tool.get("annotations");
        report.not_kept(tool, annotations, text(tool.get("description")).is_some());
        let description = text(tool.get("description"))
            .or_else(|| text(tool.get("title")))
            .or_else(|| text(annotations.and_then(|a| a.get("title"))))
            .unwrap_or_else(|| {
                report.filled_descriptions.push(name.clone());
                name.clone()
            });
        let read_only = annotations
            .and_then(|a| a.get("readOnlyHint"))
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let input = match tool.get("inputSchema") {
            None => Input::Params(Vec::new()),
            Some(schema) => input(schema),
        };
        let output = tool.get("outputSchema").map(|s| exact_or_raw(s, false));
        rows.push(Row {
            name,
            rust_name: None,
            description,
            read_only,
            input,
            output,
            upstream: None,
            json_arguments: false,
        });
    }
    Ok(rows)
}

/// Names for the search and ask tools that no imported tool uses, as a name or in Rust.
fn agent_tools(rows: &[Row]) -> (String, String) {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for r in rows {
        taken.insert(r.name.clone());
        taken.extend(variant_keys(&names::variant(&r.name)));
    }
    let mut pick = |base: &str| {
        let free = |c: &str| {
            !taken.contains(c)
                && variant_keys(&names::variant(c))
                    .iter()
                    .all(|k| !taken.contains(k))
        };
        let name = if free(base) {
            base.to_string()
        } else {
            first_free(|n| format!("{base}_{n}"), free)
        };
        taken.insert(name.clone());
        taken.extend(variant_keys(&names::variant(&name)));
        name
    };
    let search = pick("searchTools");
    let ask = pick("ask");
    (search, ask)
}

/// The first of `candidate(2)`, `candidate(3)`, ... that is `free`.
fn first_free(candidate: impl Fn(usize) -> String, free: impl Fn(&str) -> bool) -> String {
    let mut n = 2;
    loop {
        let c = candidate(n);
        if free(&c) {
            return c;
        }
        n += 1;
    }
}

/// What the compiler compares to find two tools that become the same Rust identifier.
fn variant_keys(variant: &str) -> [String; 2] {
    [variant.to_string(), names::snake_bare(variant)]
}

/// Gives rows and fields the `rust-name`s that keep every Rust name distinct, as the
/// compiler requires: tool variants (`calculate_BMI` after `calculate_bmi` → `CalculateBmi2`),
/// fields of one object (`date_range` after `dateRange` → `date_range_2`), and the types
/// generated for arguments, enums and objects (a field's type is named after its tool and
/// its `rust-name`, so a colliding one is renamed the same way). Earlier rows and fields
/// keep their derived names; a new name avoids every name some row derives on its own.
/// `taken` are the catalog's other rows (the search and ask tools at least), whose
/// variants and types stay as they are.
fn assign_rust_names(rows: &mut [Row], taken: &Taken) {
    let natural: BTreeSet<String> = taken
        .variants
        .iter()
        .cloned()
        .chain(rows.iter().map(|r| names::variant(&r.name)))
        .flat_map(|v| variant_keys(&v))
        .collect();
    let mut used = BTreeSet::new();
    let mut types: BTreeSet<String> = names::RESERVED_TYPES
        .iter()
        .map(ToString::to_string)
        .chain(taken.types.iter().cloned())
        .collect();
    for variant in &taken.variants {
        types.insert(names::generated_type(variant, TypeStep::Args));
        used.extend(variant_keys(variant));
    }
    for row in rows {
        let free = |v: &str| {
            variant_keys(v).iter().all(|k| !used.contains(k))
                && !types.contains(&names::generated_type(v, TypeStep::Args))
        };
        let derived = names::variant(&row.name);
        let variant = if free(&derived) {
            derived
        } else {
            let pick = first_free(
                |n| format!("{derived}{n}"),
                |c| free(c) && variant_keys(c).iter().all(|k| !natural.contains(k)),
            );
            row.rust_name = Some(pick.clone());
            pick
        };
        used.extend(variant_keys(&variant));
        types.insert(names::generated_type(&variant, TypeStep::Args));
        if let Input::Params(params) = &mut row.input {
            place_fields(&variant, params, &mut types);
        }
    }
}

/// `assign_rust_names` for the fields of one object, whose types are named from `stem`.
fn place_fields(stem: &str, fields: &mut [Field], types: &mut BTreeSet<String>) {
    let natural: BTreeSet<String> = fields.iter().map(|f| names::snake_bare(&f.name)).collect();
    let mut idents = BTreeSet::new();
    for f in fields {
        let ok = |word: &str, ident: &str| {
            !idents.contains(ident)
                && own_type(field_type(stem, word), &f.ty).is_none_or(|t| !types.contains(&t))
        };
        let derived = names::snake_bare(&f.name);
        if !ok(&f.name, &derived) {
            let pick = first_free(
                |n| format!("{derived}_{n}"),
                |c| !natural.contains(c) && ok(c, c),
            );
            f.rust_name = Some(pick);
        }
        idents.insert(f.rust_name.clone().unwrap_or(derived));
        let word = f.rust_name.as_deref().unwrap_or(&f.name);
        if let Some(own) = own_type(field_type(stem, word), &f.ty) {
            types.insert(own.clone());
            if let Some(children) = object_fields(&mut f.ty) {
                place_fields(&own, children, types);
            }
        }
    }
}

/// The type the generator names after a field (`ListRows` + `sortOrder` → `ListRowsSortOrder`).
fn field_type(stem: &str, word: &str) -> String {
    names::generated_type(stem, TypeStep::Field(word))
}

/// The type generated for a value that would be named `name`: an enum or an object, also
/// as the items of arrays (`...Item`); `None` when the value needs no type of its own.
fn own_type(name: String, ty: &Type) -> Option<String> {
    match &ty.kind {
        Kind::String(Some(_)) | Kind::Object(Some(_)) => Some(name),
        Kind::Array(item) => own_type(names::generated_type(&name, TypeStep::Item), item),
        _ => None,
    }
}

/// The fields of an object value, also as the items of arrays.
fn object_fields(ty: &mut Type) -> Option<&mut Vec<Field>> {
    match &mut ty.kind {
        Kind::Object(Some(fields)) => Some(fields),
        Kind::Array(item) => object_fields(item),
        _ => None,
    }
}

/// Whether the format accepts a parameter or property name.
fn field_name_ok(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// A tool's `inputSchema`: a parameter table when the type language holds the object
/// itself (type, properties, required), the whole schema otherwise.
fn input(schema: &Value) -> Input {
    let whole = |reason| Input::Whole(schema.clone(), reason);
    let Some(obj) = schema.as_object() else {
        return whole(Reason::NotAnObject);
    };
    for (key, value) in obj {
        match key.as_str() {
            "type" | "properties" | "required" => {}
            // What the compiler writes for every parameter table.
            "additionalProperties" if value == &Value::Bool(false) => {}
            other => return whole(Reason::TopLevelKey(other.to_string())),
        }
    }
    if obj.get("type").and_then(Value::as_str) != Some("object") {
        return whole(Reason::TopLevelType);
    }
    match fields(obj) {
        Ok(params) => Input::Params(params),
        Err(reason) => whole(reason),
    }
}

/// The properties of an object schema as fields; an error when the object itself cannot be
/// written (a name the format rejects, a `required` list that is not a set of its names).
fn fields(obj: &Map<String, Value>) -> Result<Vec<Field>, Reason> {
    let empty = Map::new();
    let props = match obj.get("properties") {
        None => &empty,
        Some(Value::Object(p)) => p,
        Some(_) => return Err(Reason::Keyword("properties".into())),
    };
    if let Some(bad) = props.keys().find(|k| !field_name_ok(k)) {
        return Err(Reason::PropertyName(bad.clone()));
    }
    let required: Vec<&str> = match obj.get("required") {
        None => Vec::new(),
        Some(Value::Array(list)) => list
            .iter()
            .map(|v| v.as_str().ok_or(Reason::RequiredList))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(Reason::RequiredList),
    };
    let set: BTreeSet<&str> = required.iter().copied().collect();
    if set.len() != required.len() || set.iter().any(|r| !props.contains_key(*r)) {
        return Err(Reason::RequiredList);
    }
    Ok(props
        .iter()
        .map(|(name, schema)| field(name, schema, set.contains(name.as_str())))
        .collect())
}

/// A parameter or property: exact when its type and default can be written, the original
/// JSON otherwise.
fn field(name: &str, schema: &Value, required: bool) -> Field {
    let (ty, default) = match exact_field(schema, required) {
        Ok(done) => done,
        Err(reason) => (
            Type {
                kind: Kind::Raw(schema.clone(), reason),
                description: None,
            },
            None,
        ),
    };
    Field {
        name: name.to_string(),
        rust_name: None,
        ty,
        required,
        default,
    }
}

fn exact_field(schema: &Value, required: bool) -> Result<(Type, Option<Value>), Reason> {
    let ty = exact_type(schema, true)?;
    let Some(default) = schema.get("default") else {
        return Ok((ty, None));
    };
    if required {
        return Err(Reason::RequiredWithDefault);
    }
    if default.is_null() {
        return Err(Reason::DefaultNull);
    }
    if !writable(default) {
        return Err(Reason::DefaultUnwritable);
    }
    if !fits(&ty.kind, default) {
        return Err(Reason::DefaultDoesNotFit);
    }
    Ok((ty, Some(default.clone())))
}

/// A type exactly, or the original JSON (for `items` and `output`).
fn exact_or_raw(schema: &Value, field: bool) -> Type {
    exact_type(schema, field).unwrap_or_else(|reason| Type {
        kind: Kind::Raw(schema.clone(), reason),
        description: None,
    })
}

/// The type language's form of a schema, when it says exactly the same. `field` allows a
/// `default` (checked by the caller).
fn exact_type(schema: &Value, field: bool) -> Result<Type, Reason> {
    const TYPED: &[&str] = &[
        "enum",
        "minimum",
        "maximum",
        "items",
        "properties",
        "required",
        "additionalProperties",
    ];
    let Some(obj) = schema.as_object() else {
        return Err(Reason::NotAnObject);
    };
    for key in obj.keys() {
        let known = matches!(key.as_str(), "type" | "description")
            || (field && key == "default")
            || TYPED.contains(&key.as_str());
        if key == "default" && !field {
            return Err(Reason::ItemsDefault);
        }
        if !known {
            return Err(Reason::Keyword(key.clone()));
        }
    }
    let ty = match obj.get("type") {
        None => return Err(Reason::NoType),
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(_)) => return Err(Reason::TypeList),
        Some(other) => return Err(Reason::OtherType(other.to_string())),
    };
    let allowed: &[&str] = match ty {
        "string" => &["enum"],
        "integer" | "number" => &["minimum", "maximum"],
        "boolean" => &[],
        "array" => &["items"],
        "object" => &["properties", "required", "additionalProperties"],
        other => return Err(Reason::OtherType(format!("\"{other}\""))),
    };
    if let Some(k) = TYPED
        .iter()
        .find(|k| obj.contains_key(**k) && !allowed.contains(k))
    {
        return Err(if *k == "enum" {
            Reason::EnumNotStrings
        } else {
            Reason::KeyForOtherType((*k).to_string(), ty.to_string())
        });
    }
    let description = match obj.get("description") {
        None => None,
        Some(Value::String(d)) => Some(d.clone()),
        Some(_) => return Err(Reason::DescriptionNotString),
    };
    let kind = match ty {
        "string" => Kind::String(match obj.get("enum") {
            None => None,
            Some(values) => Some(string_enum(values)?),
        }),
        "integer" | "number" => {
            let bounds = Bounds {
                minimum: bound(obj.get("minimum"))?,
                maximum: bound(obj.get("maximum"))?,
            };
            if let (Some(lo), Some(hi)) = (&bounds.minimum, &bounds.maximum)
                && lo.as_f64() > hi.as_f64()
            {
                return Err(Reason::BoundsReversed);
            }
            if ty == "integer" {
                Kind::Integer(bounds)
            } else {
                Kind::Number(bounds)
            }
        }
        "boolean" => Kind::Boolean,
        "array" => match obj.get("items") {
            None => return Err(Reason::ArrayWithoutItems),
            Some(items @ (Value::Object(_) | Value::Bool(_))) => {
                Kind::Array(Box::new(exact_or_raw(items, false)))
            }
            Some(_) => return Err(Reason::ItemsNotSchema),
        },
        _ => {
            let has_props = obj.contains_key("properties");
            match obj.get("additionalProperties") {
                None => {}
                Some(Value::Bool(false)) if has_props => {}
                Some(_) => return Err(Reason::AdditionalProperties),
            }
            if has_props {
                Kind::Object(Some(fields(obj)?))
            } else if obj.contains_key("required") {
                return Err(Reason::RequiredList);
            } else {
                Kind::Object(None)
            }
        }
    };
    Ok(Type { kind, description })
}

/// A string `enum` the format accepts: strings, at least one, none blank or repeated.
fn string_enum(values: &Value) -> Result<Vec<String>, Reason> {
    let list = values.as_array().ok_or(Reason::EnumNotStrings)?;
    let strings: Vec<String> = list
        .iter()
        .map(|v| v.as_str().map(str::to_string).ok_or(Reason::EnumNotStrings))
        .collect::<Result<_, _>>()?;
    let distinct: BTreeSet<&str> = strings.iter().map(String::as_str).collect();
    if strings.is_empty()
        || distinct.len() != strings.len()
        || strings.iter().any(|s| s.trim().is_empty())
    {
        return Err(Reason::EnumRejected);
    }
    Ok(strings)
}

/// A bound the compiler reads back as the same JSON (it keeps bounds as `f64` and writes
/// whole ones as integers).
fn bound(v: Option<&Value>) -> Result<Option<serde_json::Number>, Reason> {
    let Some(v) = v else { return Ok(None) };
    let Value::Number(n) = v else {
        return Err(Reason::Bound);
    };
    if !writable(v) {
        return Err(Reason::Bound);
    }
    let x = n.as_f64().ok_or(Reason::Bound)?;
    let again = if x.fract() == 0.0 && x.abs() < 9.0e15 {
        #[allow(clippy::cast_possible_truncation)]
        Value::from(x as i64)
    } else {
        Value::from(x)
    };
    if &again == v {
        Ok(Some(n.clone()))
    } else {
        Err(Reason::Bound)
    }
}

/// Whether TOML can hold a JSON value the way the compiler reads it back: no null, and
/// integers within 64-bit signed range.
fn writable(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Number(n) => n.is_i64() || n.is_f64(),
        Value::Bool(_) | Value::String(_) => true,
        Value::Array(xs) => xs.iter().all(writable),
        Value::Object(m) => m.values().all(writable),
    }
}

/// Whether a default fits a type: the compiler's rule, which rejects what does not.
fn fits(kind: &Kind, v: &Value) -> bool {
    match (kind, v) {
        (Kind::String(Some(values)), Value::String(s)) => values.contains(s),
        (Kind::String(None), Value::String(_))
        | (Kind::Boolean, Value::Bool(_))
        | (Kind::Object(None), Value::Object(_))
        | (Kind::Raw(..), _) => true,
        (Kind::Integer(b), Value::Number(n)) if n.is_i64() || n.is_u64() => in_range(n, b),
        (Kind::Number(b), Value::Number(n)) => in_range(n, b),
        (Kind::Array(item), Value::Array(xs)) => xs.iter().all(|x| fits(&item.kind, x)),
        (Kind::Object(Some(props)), Value::Object(map)) => {
            map.iter().all(|(k, x)| {
                props
                    .iter()
                    .find(|p| &p.name == k)
                    .is_some_and(|p| fits(&p.ty.kind, x))
            }) && props
                .iter()
                .all(|p| !p.required || map.contains_key(&p.name))
        }
        _ => false,
    }
}

fn in_range(n: &serde_json::Number, b: &Bounds) -> bool {
    let x = n.as_f64().unwrap_or(0.0);
    let f = |b: &Option<serde_json::Number>| b.as_ref().and_then(serde_json::Number::as_f64);
    f(&b.minimum).is_none_or(|lo| x >= lo) && f(&b.maximum).is_none_or(|hi| x <= hi)
}

// ---------------------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------------------

/// What an import did: how many tools were mapped exactly, which schemas went through an
/// escape hatch and why, which `rust-name`s were assigned, and which MCP keys a catalog has
/// no place for. Its [`Display`](fmt::Display) form is the indented summary that
/// `cargo catalog import` prints under its first line, one item per line.
#[derive(Debug, Clone, Default)]
pub struct Report {
    tools: usize,
    exact: usize,
    read_only: usize,
    search: String,
    ask: String,
    /// Escape hatches by reason, and where.
    schema: BTreeMap<String, Vec<String>>,
    whole: Vec<(String, String)>,
    rust_names: Vec<String>,
    filled_descriptions: Vec<String>,
    /// MCP keys the catalog has no place for, and on how many tools.
    dropped: BTreeMap<String, usize>,
    /// Rows named with a prefix, as `` `name` → `prefixed` ``.
    renamed: Vec<String>,
}

impl Report {
    /// The number of tools imported (the added search and ask tools not counted).
    #[must_use]
    pub fn tools(&self) -> usize {
        self.tools
    }

    /// How many imported tools are read-only (`readOnlyHint: true`); the rest are
    /// full-access.
    #[must_use]
    pub fn read_only(&self) -> usize {
        self.read_only
    }

    /// How many imported tools have every parameter (and output) in the type language,
    /// with no escape hatch.
    #[must_use]
    pub fn exact(&self) -> usize {
        self.exact
    }

    /// The name given to the added search tool (`searchTools`, or a numbered variant when
    /// an imported tool takes it); the catalog's own, for an import into a catalog.
    #[must_use]
    pub fn search_tool(&self) -> &str {
        &self.search
    }

    /// The name given to the added ask tool (`ask`, or a numbered variant); the catalog's
    /// own, for an import into a catalog.
    #[must_use]
    pub fn ask_tool(&self) -> &str {
        &self.ask
    }

    /// The tools that an import into an existing catalog named with the prefix, because
    /// a row already had their name: `` `get_time` → `time_get_time` `` each.
    #[must_use]
    pub fn renamed(&self) -> &[String] {
        &self.renamed
    }

    fn not_kept(&mut self, tool: &Value, annotations: Option<&Value>, described: bool) {
        let mut count = |k: String| *self.dropped.entry(k).or_default() += 1;
        for k in tool.as_object().into_iter().flat_map(Map::keys) {
            match k.as_str() {
                "name" | "description" | "inputSchema" | "outputSchema" | "annotations" => {}
                "title" if !described => {}
                other => count(format!("`{other}`")),
            }
        }
        let notes = annotations.and_then(Value::as_object).into_iter().flatten();
        for (k, _) in notes {
            match k.as_str() {
                "readOnlyHint" => {}
                "title" if !described && tool.get("title").is_none() => {}
                other => count(format!("`annotations.{other}`")),
            }
        }
    }

    fn add(&mut self, row: &Row) {
        self.tools += 1;
        self.read_only += usize::from(row.read_only);
        if let Some(r) = &row.rust_name {
            self.rust_names.push(format!("tool `{}` → `{r}`", row.name));
        }
        let before = self.schema.values().map(Vec::len).sum::<usize>();
        match &row.input {
            Input::Whole(_, reason) => self.whole.push((row.name.clone(), reason.to_string())),
            Input::Params(params) => self.fields(params, &format!("`{}`", row.name)),
        }
        if let Some(out) = &row.output {
            self.ty(out, &format!("`{}` output", row.name));
        }
        let after = self.schema.values().map(Vec::len).sum::<usize>();
        if before == after && matches!(row.input, Input::Params(_)) {
            self.exact += 1;
        }
    }

    fn fields(&mut self, fields: &[Field], at: &str) {
        for f in fields {
            let here = format!("{at}.{}", f.name);
            if let Some(r) = &f.rust_name {
                self.rust_names
                    .push(format!("field `{}` in {at} → `{r}`", f.name));
            }
            self.ty(&f.ty, &here);
        }
    }

    fn ty(&mut self, t: &Type, at: &str) {
        match &t.kind {
            Kind::Raw(_, reason) => self
                .schema
                .entry(reason.to_string())
                .or_default()
                .push(at.to_string()),
            Kind::Array(item) => self.ty(item, &format!("{at}[]")),
            Kind::Object(Some(fields)) => self.fields(fields, at),
            _ => {}
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "  access: {} read-only (readOnlyHint, silent), {} full-access (gated)",
            self.read_only,
            self.tools - self.read_only
        )?;
        writeln!(
            f,
            "  mapped exactly, every parameter in the type language: {} tools",
            self.exact
        )?;
        let hatches: usize = self.schema.values().map(Vec::len).sum();
        writeln!(
            f,
            "  kept via `schema` (parameters, properties or items): {hatches}"
        )?;
        let mut by_count: Vec<_> = self.schema.iter().collect();
        by_count.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
        for (reason, at) in by_count {
            writeln!(f, "    {:>5}  {reason}  (e.g. {})", at.len(), at[0])?;
        }
        writeln!(f, "  tools kept via `input-schema`: {}", self.whole.len())?;
        for (name, reason) in &self.whole {
            writeln!(f, "    {name}: {reason}")?;
        }
        writeln!(f, "  `rust-name`s assigned: {}", self.rust_names.len())?;
        for r in &self.rust_names {
            writeln!(f, "    {r}")?;
        }
        if !self.dropped.is_empty() {
            let list: Vec<String> = self
                .dropped
                .iter()
                .map(|(k, n)| format!("{k} ({n})"))
                .collect();
            writeln!(f, "  not kept (no place in a catalog): {}", list.join(", "))?;
        }
        if !self.renamed.is_empty() {
            writeln!(
                f,
                "  renamed with the prefix (their name elsewhere in the catalog): {}",
                self.renamed.join(", ")
            )?;
        }
        if !self.filled_descriptions.is_empty() {
            writeln!(
                f,
                "  tools without a description (their name is used): {}",
                self.filled_descriptions.join(", ")
            )?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Writing TOML
// ---------------------------------------------------------------------------------------

const SEARCH_DESCRIPTION: &str = "Finds tools by what they do and adds the best matches to your tool list for the rest of the conversation. Describe the action in plain words; call it whenever none of the tools you already have fits the request.";
const ASK_DESCRIPTION: &str = "Asks the user a clarifying question in the chat and waits for the answer. Use it when a request is ambiguous instead of guessing.";

/// `text` on one line: control characters become spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A new catalog: the header, the settings, the search and ask tools, the `[[upstream]]`
/// table when the rows come from a live server, and the rows. `source` says what made it
/// (`` `cargo catalog import --from mcp` from tools.json ``).
fn write_catalog(
    source: &str,
    rows: &[Row],
    search: &str,
    ask: &str,
    upstream: Option<&Server>,
) -> String {
    let mut out = format!(
        "\
# Generated by {source}.
#
# Every imported tool is discoverable: {search} adds it to the model's tool list. Tools
# marked readOnlyHint are read-only and run silently; every other tool needs full access
# and is gated by a permission prompt. What the type language cannot express is kept as
# the original JSON: `schema = '...'` for a parameter, `input-schema = '...'` for a whole
# input.

[settings]
search-tool = {}
ask-tool = {}
# Verified arguments reach one handler method, `call_json`, with the tool: nobody writes a
# method per imported tool. A row that says `arguments = \"typed\"` gets its own.
arguments = \"json\"

# Descriptions written by someone else enter the model's context: one that hides
# characters, gives the model orders or tells it how to call other tools fails the build
# until reviewed (a reviewed row may say `[tool.lints] poisoned-description = \"allow\"`).
# URLs and long descriptions, common in honest servers, stay warnings.
[lints]
poisoned-description = \"deny\"
",
        string(search),
        string(ask)
    );
    let _ = write!(
        out,
        "\n[[tool]]\nname = {}\ndescription = {}\nvisibility = \"inline\"\nmcp = false\n\n[tool.params]\nquery = {{ type = \"string\", description = \"The action you need, in a few words.\" }}\n",
        string(search),
        string(SEARCH_DESCRIPTION)
    );
    let _ = write!(
        out,
        "\n[[tool]]\nname = {}\ndescription = {}\nvisibility = \"inline\"\ntier = \"silent\"\naccess = \"read-only\"\nmcp = false\n\n[tool.params]\nquestion = {{ type = \"string\", description = \"One short, specific question.\" }}\n",
        string(ask),
        string(ASK_DESCRIPTION)
    );
    if let Some(server) = upstream {
        out.push_str("\n# The server the tools below come from. Each row pins its tool's definition as\n# imported (`upstream-digest`), so a server that changes a tool is noticed.\n");
        server::write_upstream(&mut out, server);
    }
    for row in rows {
        write_row(&mut out, row);
    }
    out
}

fn write_row(out: &mut String, row: &Row) {
    let _ = write!(out, "\n[[tool]]\nname = {}\n", string(&row.name));
    if let Some(r) = &row.rust_name {
        let _ = writeln!(out, "rust-name = {}", string(r));
    }
    let (tier, access) = if row.read_only {
        ("silent", "read-only")
    } else {
        ("gated", "full-access")
    };
    let _ = write!(
        out,
        "description = {}\nvisibility = \"discoverable\"\ntier = \"{tier}\"\naccess = \"{access}\"\n",
        string(&row.description)
    );
    if row.json_arguments {
        out.push_str("arguments = \"json\"\n");
    }
    if let Some(source) = &row.upstream {
        let _ = writeln!(out, "upstream = {}", string(&source.upstream));
        if let Some(tool) = &source.tool {
            let _ = writeln!(out, "upstream-tool = {}", string(tool));
        }
        let _ = writeln!(out, "upstream-digest = {}", string(&source.digest));
    }
    match &row.input {
        Input::Whole(schema, _) => {
            let _ = writeln!(out, "input-schema = {}", json_string(schema));
        }
        Input::Params(params) if params.is_empty() => {}
        Input::Params(params) => {
            let mut headers = false;
            for (i, f) in params.iter().enumerate() {
                let table = field_table(f);
                headers |= table.nested;
                if i == 0 && !headers {
                    out.push_str("\n[tool.params]\n");
                }
                if headers {
                    let _ = writeln!(out, "\n[tool.params.{}]", key(&f.name));
                    dotted(out, "", &table);
                } else {
                    let _ = writeln!(out, "{} = {}", key(&f.name), inline(&Val::Table(table)));
                }
            }
        }
    }
    if let Some(output) = &row.output {
        out.push_str("\n[tool.output]\n");
        dotted(out, "", &type_table(output, Vec::new()));
    }
}

/// A TOML value about to be written: text, or a table written inline or as dotted keys.
enum Val {
    Text(String),
    Table(Table),
}

struct Table {
    entries: Vec<(String, Val)>,
    /// Holds an object with properties: written as dotted keys rather than inline.
    nested: bool,
}

fn field_table(f: &Field) -> Table {
    let mut extra = Vec::new();
    if let Some(d) = &f.default {
        extra.push(("default".to_string(), Val::Text(value(d))));
    }
    if !f.required && f.default.is_none() {
        extra.push(("required".to_string(), Val::Text("false".into())));
    }
    if let Some(r) = &f.rust_name {
        extra.push(("rust-name".to_string(), Val::Text(string(r))));
    }
    type_table(&f.ty, extra)
}

/// A type's keys in the order they are written: the type and its constraints, a short
/// nested part, the field's own keys (`extra`), the description, then a long nested part.
fn type_table(t: &Type, extra: Vec<(String, Val)>) -> Table {
    let mut entries = Vec::new();
    let mut nested = None;
    let text = |s: String| Val::Text(s);
    match &t.kind {
        Kind::Raw(schema, _) => entries.push(("schema".into(), text(json_string(schema)))),
        Kind::String(values) => {
            entries.push(("type".into(), text(string("string"))));
            if let Some(values) = values {
                let list: Vec<String> = values.iter().map(|v| string(v)).collect();
                entries.push(("enum".into(), text(format!("[{}]", list.join(", ")))));
            }
        }
        Kind::Integer(b) | Kind::Number(b) => {
            let name = if matches!(t.kind, Kind::Integer(_)) {
                "integer"
            } else {
                "number"
            };
            entries.push(("type".into(), text(string(name))));
            for (k, v) in [("minimum", &b.minimum), ("maximum", &b.maximum)] {
                if let Some(n) = v {
                    entries.push((k.into(), text(value(&Value::Number(n.clone())))));
                }
            }
        }
        Kind::Boolean => entries.push(("type".into(), text(string("boolean")))),
        Kind::Array(item) => {
            entries.push(("type".into(), text(string("array"))));
            let items = type_table(item, Vec::new());
            if items.nested {
                nested = Some(("items".to_string(), Val::Table(items)));
            } else {
                entries.push(("items".into(), Val::Table(items)));
            }
        }
        Kind::Object(props) => {
            entries.push(("type".into(), text(string("object"))));
            match props {
                None => {}
                Some(props) if props.is_empty() => entries.push((
                    "properties".into(),
                    Val::Table(Table {
                        entries: Vec::new(),
                        nested: false,
                    }),
                )),
                Some(props) => {
                    let entries = props
                        .iter()
                        .map(|f| (f.name.clone(), Val::Table(field_table(f))))
                        .collect();
                    nested = Some((
                        "properties".to_string(),
                        Val::Table(Table {
                            entries,
                            nested: true,
                        }),
                    ));
                }
            }
        }
    }
    entries.extend(extra);
    if let Some(d) = &t.description {
        entries.push(("description".into(), text(string(d))));
    }
    let is_nested = nested.is_some();
    entries.extend(nested);
    Table {
        entries,
        nested: is_nested,
    }
}

/// `{ key = value, ... }` on one line.
fn inline(v: &Val) -> String {
    match v {
        Val::Text(t) => t.clone(),
        Val::Table(t) if t.entries.is_empty() => "{}".into(),
        Val::Table(t) => {
            let parts: Vec<String> = t
                .entries
                .iter()
                .map(|(k, v)| format!("{} = {}", key(k), inline(v)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
    }
}

/// One `prefix.key = value` line per entry; nested tables continue the prefix.
fn dotted(out: &mut String, prefix: &str, t: &Table) {
    for (k, v) in &t.entries {
        match v {
            Val::Table(inner) if inner.nested => {
                dotted(out, &format!("{prefix}{}.", key(k)), inner);
            }
            _ => {
                let _ = writeln!(out, "{prefix}{} = {}", key(k), inline(v));
            }
        }
    }
}

/// A bare key when TOML allows one, a quoted key otherwise.
fn key(k: &str) -> String {
    if !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
    {
        k.to_string()
    } else {
        string(k)
    }
}

/// A TOML basic string.
fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Compact JSON as a TOML string: a literal string (`'...'`, what people write by hand)
/// when it can be one, a basic string otherwise.
fn json_string(v: &Value) -> String {
    let json = v.to_string();
    if json.chars().any(|c| c == '\'' || c.is_control()) {
        string(&json)
    } else {
        format!("'{json}'")
    }
}

/// A JSON value as TOML (the caller checked [`writable`]).
fn value(v: &Value) -> String {
    match v {
        Value::Null => "{}".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(x)) => format!("{x:?}"),
            (None, None) => n.to_string(),
        },
        Value::String(s) => string(s),
        Value::Array(xs) => {
            let parts: Vec<String> = xs.iter().map(value).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, x)| format!("{} = {}", key(k), value(x)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
    }
}
