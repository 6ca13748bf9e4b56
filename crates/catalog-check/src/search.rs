//! The text of each row that search reads — name, keywords, description, examples, and
//! parameter names, descriptions and allowed values — fed to the runtime's index builder:
//! the same code for a compiled catalog (whose index becomes static tables) and for one
//! read at run time.

use catalog_core::search::{Builder, Field as Source, OwnedIndex, Terms, Weights};
use rustc_hash::FxHashMap;
use serde_json::Value;

use crate::model::{CatalogModel, Field, Kind, Tool, TypeSpec, Visibility};

/// Builds the search index of a catalog. Document `i` is tool `i`; the search tool's
/// document is empty, and the inline tools' are withheld, so a search returns neither.
#[must_use]
pub fn index(catalog: &CatalogModel, weights: Weights) -> OwnedIndex {
    builder(catalog, weights).build()
}

/// The builder [`index`] builds from, every tool's text added.
#[must_use]
pub fn builder(catalog: &CatalogModel, weights: Weights) -> Builder {
    let mut b = Builder::new(weights, catalog.settings.language);
    let mut texts = Texts::default();
    for i in 0..catalog.tools.len() {
        texts.document(&mut b, catalog, i);
    }
    b
}

/// Adds tool `i`'s document to `b`.
pub fn document(b: &mut Builder, catalog: &CatalogModel, i: usize) {
    Texts::default().document(b, catalog, i);
}

/// The terms of each parameter text read so far: rows repeat their parameters'
/// descriptions, values and names, and each is read once.
#[derive(Default)]
struct Texts<'a>(FxHashMap<&'a str, Terms>);

impl<'a> Texts<'a> {
    fn document(&mut self, b: &mut Builder, catalog: &'a CatalogModel, i: usize) {
        let t = &catalog.tools[i];
        b.document(&t.name);
        // The model already has the inline tools: a search's hits are all discoverable.
        if t.visibility != Visibility::Discoverable {
            b.withhold();
        }
        if i == catalog.settings.search_tool {
            return;
        }
        // A row's own text is read as it comes: kept, it would double the builder's memory.
        let mut once = |field, text: &str| b.add(field, text);
        head(&mut once, t);
        examples(&mut once, t);
        let mut add = |field, text: &'a str| {
            let terms = self.0.entry(text).or_insert_with(|| b.terms(text));
            b.add_terms(field, terms);
        };
        tail(&mut add, t);
    }
}

/// Calls `f` with each text of tool `i` that search reads, with its field, in the order
/// [`document`] adds them: what a peer retriever is given to compare with.
pub fn each_text<'a>(catalog: &'a CatalogModel, i: usize, mut f: impl FnMut(Source, &'a str)) {
    let t = &catalog.tools[i];
    head(&mut f, t);
    examples(&mut f, t);
    tail(&mut f, t);
}

/// Tool `i`'s document in `index` (built by [`builder`]) without each of its examples in
/// turn, one builder each, in example order: the document's other fields are kept as
/// they are, and its examples' field is summed again from the other examples, each read
/// once. Searches score these as [`document`]'s of the tool without that example.
pub(crate) fn without_each_example(
    index: &Builder,
    catalog: &CatalogModel,
    i: usize,
) -> Vec<Builder> {
    let examples: Vec<Terms> = catalog.tools[i]
        .examples
        .iter()
        .map(|e| index.terms(e))
        .collect();
    (0..examples.len())
        .map(|left_out| {
            let others: Vec<&Terms> = (0..examples.len())
                .filter(|&j| j != left_out)
                .map(|j| &examples[j])
                .collect();
            index.replaced(i, Source::Example, &others)
        })
        .collect()
}

/// A row's name, keywords and description.
fn head<'a>(b: &mut impl FnMut(Source, &'a str), t: &'a Tool) {
    b(Source::Name, &t.name);
    for k in &t.keywords {
        b(Source::Keyword, k);
    }
    b(Source::Description, &t.description);
}

fn examples<'a>(b: &mut impl FnMut(Source, &'a str), t: &'a Tool) {
    for e in &t.examples {
        b(Source::Example, e);
    }
}

/// A row's parameters, or its input schema kept as written.
fn tail<'a>(b: &mut impl FnMut(Source, &'a str), t: &'a Tool) {
    fields(b, &t.params);
    if let Some(raw) = &t.input_schema {
        raw_schema(b, raw);
    }
}

fn fields<'a>(b: &mut impl FnMut(Source, &'a str), fields: &'a [Field]) {
    for f in fields {
        b(Source::ParamName, &f.name);
        type_spec(b, &f.ty);
    }
}

fn type_spec<'a>(b: &mut impl FnMut(Source, &'a str), t: &'a TypeSpec) {
    if let Some(d) = &t.description {
        b(Source::ParamDescription, d);
    }
    match &t.kind {
        // Allowed values are words users say ("celsius", "descending").
        Kind::String {
            values: Some(values),
        } => {
            for v in values {
                b(Source::ParamDescription, v);
            }
        }
        Kind::Array(item) => type_spec(b, item),
        Kind::Object(Some(props)) => fields(b, props),
        Kind::Raw(raw) => raw_schema(b, raw),
        _ => {}
    }
}

/// Property names, descriptions and enum values anywhere in a JSON Schema kept as written.
fn raw_schema<'a>(b: &mut impl FnMut(Source, &'a str), v: &'a Value) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                match (k.as_str(), x) {
                    ("description", Value::String(d)) => b(Source::ParamDescription, d),
                    ("enum", Value::Array(values)) => {
                        for v in values.iter().filter_map(Value::as_str) {
                            b(Source::ParamDescription, v);
                        }
                    }
                    ("properties", Value::Object(props)) => {
                        for (name, schema) in props {
                            b(Source::ParamName, name);
                            raw_schema(b, schema);
                        }
                    }
                    _ => raw_schema(b, x),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|x| raw_schema(b, x)),
        _ => {}
    }
}

/// A request of an evaluation file: one JSON object a line,
/// `{"id": "...", "query": "...", "expected": ["toolName", ...]}` (the format of the BFCL
/// split's `dev.jsonl`, of `cargo xtask gen-catalog --queries`, and what `eval-search` and
/// the benches read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The request's id.
    pub id: String,
    /// What the user asked.
    pub query: String,
    /// The tools it needs, as indexes into the catalog's rows.
    pub expected: Vec<u32>,
}

/// Reads an evaluation file against `catalog`; blank lines are skipped.
///
/// # Errors
/// `LINE: reason`, one line each, for every line that is not such an object, or that
/// expects a tool the catalog lacks or one that is inline, which no search returns.
pub fn requests(catalog: &CatalogModel, jsonl: &str) -> Result<Vec<Request>, String> {
    read_requests(catalog, jsonl, true)
}

/// Reads an evaluation file for an agent's run against `catalog`: as [`requests`], but a
/// request may expect an inline tool, which the model has from the first step.
///
/// # Errors
/// `LINE: reason`, one line each, for every line that is not such an object, or that
/// expects a tool the catalog lacks.
pub fn agent_requests(catalog: &CatalogModel, jsonl: &str) -> Result<Vec<Request>, String> {
    read_requests(catalog, jsonl, false)
}

fn read_requests(
    catalog: &CatalogModel,
    jsonl: &str,
    discoverable_only: bool,
) -> Result<Vec<Request>, String> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in jsonl.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match read_request(catalog, line, discoverable_only) {
            Ok(request) => out.push(request),
            Err(reasons) => errors.extend(reasons.into_iter().map(|r| format!("{}: {r}", i + 1))),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors.join("\n"))
    }
}

/// One line of an evaluation file, or everything wrong with it.
fn read_request(
    catalog: &CatalogModel,
    line: &str,
    discoverable_only: bool,
) -> Result<Request, Vec<String>> {
    let v: Value = serde_json::from_str(line).map_err(|e| vec![format!("not JSON: {e}")])?;
    let mut errors = Vec::new();
    let mut text = |key: &str| {
        let found = v[key].as_str().map(str::to_string);
        if found.is_none() {
            errors.push(format!("`{key}` is not a string"));
        }
        found.unwrap_or_default()
    };
    let (id, query) = (text("id"), text("query"));
    let mut expected = Vec::new();
    match v["expected"].as_array() {
        None => errors.push("`expected` is not a list".into()),
        Some(names) => {
            for name in names {
                let Some(doc) = name
                    .as_str()
                    .and_then(|n| catalog.tools.iter().position(|t| t.name == n))
                else {
                    errors.push(format!(
                        "request `{id}` expects {name}, which the catalog lacks"
                    ));
                    continue;
                };
                if discoverable_only && catalog.tools[doc].visibility != Visibility::Discoverable {
                    errors.push(format!(
                        "request `{id}` expects {name}, which is inline: a search returns only \
                         discoverable tools, since the model has the inline ones from the first \
                         step; leave it out of `expected`"
                    ));
                }
                expected.push(u32::try_from(doc).unwrap_or(u32::MAX));
            }
        }
    }
    if errors.is_empty() {
        Ok(Request {
            id,
            query,
            expected,
        })
    } else {
        Err(errors)
    }
}

/// The value at the nearest rank `permille` of the way up sorted times (500 the median,
/// 990 the p99): one definition for every figure the search benches and `eval-search` print.
///
/// # Panics
/// When `sorted` is empty.
#[must_use]
pub fn percentile(sorted: &[f64], permille: usize) -> f64 {
    let rank = (permille * sorted.len()).div_ceil(1000).max(1);
    sorted[rank.min(sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    /// Every bad line of a requests file is named at once, each with all that is wrong.
    #[test]
    fn every_bad_line_is_reported() {
        let catalog = crate::compile(concat!(
            "[settings]\nsearch-tool = \"s\"\nask-tool = \"seen\"\n\n[[tool]]\nname = \"s\"\ndescription = \"Finds.\"\n",
            "[tool.params]\nquery = { type = \"string\", description = \"q\" }\n\n",
            "[[tool]]\nname = \"seen\"\ndescription = \"Inline.\"\nvisibility = \"inline\"\neffect = \"reads\"\ntier = \"silent\"\n\n",
            "[[tool]]\nname = \"found\"\ndescription = \"Hidden.\"\nvisibility = \"discoverable\"\neffect = \"reads\"\ntier = \"silent\"\n",
        ))
        .unwrap();
        let file = concat!(
            "{\"id\": \"a\", \"query\": \"q\", \"expected\": [\"found\"]}\n",
            "not json\n",
            "\n",
            "{\"id\": 1, \"query\": \"q\", \"expected\": [\"found\", \"gone\"]}\n",
            "{\"id\": \"d\", \"query\": \"q\", \"expected\": [\"seen\"]}\n",
        );
        let errors = super::requests(&catalog, file).unwrap_err();
        let lines: Vec<&str> = errors.lines().collect();
        assert_eq!(lines.len(), 4, "{errors}");
        assert!(lines[0].starts_with("2: not JSON"), "{errors}");
        assert_eq!(lines[1], "4: `id` is not a string");
        assert!(
            lines[2].starts_with("4: request `` expects \"gone\""),
            "{errors}"
        );
        assert!(
            lines[3].starts_with("5: request `d` expects \"seen\", which is inline"),
            "{errors}"
        );
        // For an agent, an inline tool may be expected.
        let agent = super::agent_requests(&catalog, file).unwrap_err();
        assert_eq!(agent.lines().count(), 3, "{agent}");
    }
}
