//! The verifier against a reference validator: schemas are generated within what the
//! compiler reads, values for them (mostly near valid, some not), and the verifier's verdict
//! must equal the `jsonschema` crate's (draft 2020-12). Schemas that also use keywords the
//! verifier leaves unchecked must never see it refuse a value the reference accepts.
//!
//! Every keyword the verifier reads is drawn: types, bounds, `multipleOf`, lengths,
//! `pattern` (ECMA-262: ASCII `\d` and `\w`, lookahead, code points), enums, consts,
//! `items`, `prefixItems`, counts, `uniqueItems`, `properties`, `required`,
//! `additionalProperties` (`false` or a schema), `patternProperties`, `propertyNames`,
//! `minProperties`/`maxProperties`, `dependentRequired`, `anyOf`, `allOf`, `not`,
//! `if`/`then`/`else` and `$ref`.
//!
//! The shape is the compiler's own reading of the schema ([`catalog_check::schema_shape`],
//! what an `input-schema` row gets), checked by the core's [`catalog_core::check_value`].
//!
//! The compiler's other validator, [`Kind::fits`] (whether a parameter's `default` fits its
//! declared type), is held to the same reference on the types of the catalog's type
//! language and the schemas the compiler publishes for them.

use catalog_check::model::Kind;
use catalog_core::check_value;
use catalog_testkit::CATALOG_HEAD;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value, json};

/// Schemas per run; each is tried with [`VALUES`] values. `PROPTEST_CASES` overrides it.
const SCHEMAS: u32 = 1500;
/// Values drawn for each schema.
const VALUES: usize = 12;

/// Property names: few, so generated values often hit them.
const KEYS: &[&str] = &["a", "b", "c"];

/// Patterns of strings, each with something only ECMA-262 settles (ASCII classes,
/// lookahead, code points, anchors left out). Not `\\b`: ECMA-262's is ASCII, so there is
/// a boundary between `é` and `a`, where the reference (reading it as Rust's `regex` does)
/// sees none; the verifier keeps ECMA-262's.
const PATTERNS: &[&str] = &[
    "^a",
    "b$",
    "^\\d+$",
    "\\w",
    "^\\W*$",
    "^[a-zé]*$",
    "^.$",
    "^(?=a)\\w+",
    "^(a|ab)$",
    "😀",
    "^[^a]",
    "a|^$",
];

/// Patterns of property names.
const NAME_PATTERNS: &[&str] = &["^a", "b|c", "^[ab]$", "^\\w$", "x"];

/// A number the bounds and values are drawn from: small, whole or halves, so equality at
/// a bound is exact and often met.
fn small_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        (-4i64..6).prop_map(Value::from),
        (-8i32..12).prop_map(|n| Value::from(f64::from(n) / 2.0)),
    ]
}

/// Any JSON value of the small domains the schemas use.
fn literal() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        small_number(),
        prop::sample::select(vec!["", "a", "é", "ab", "x😀"]).prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..2).prop_map(|kv| {
                Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

/// Adds each present `(key, value)` to the schema object.
fn with(mut schema: Value, keywords: Vec<(&str, Option<Value>)>) -> Value {
    if let Value::Object(m) = &mut schema {
        for (k, v) in keywords {
            if let Some(v) = v {
                m.insert(k.to_string(), v);
            }
        }
    }
    schema
}

fn pattern() -> impl Strategy<Value = Option<Value>> {
    prop::option::weighted(0.35, prop::sample::select(PATTERNS).prop_map(Value::from))
}

fn count() -> impl Strategy<Value = Option<Value>> {
    prop::option::weighted(0.4, (0u64..4).prop_map(Value::from))
}

fn bound() -> impl Strategy<Value = Option<Value>> {
    prop::option::weighted(0.3, small_number())
}

/// Keywords without a type: each holds for its own type only.
fn untyped() -> impl Strategy<Value = Value> {
    (
        (count(), count(), bound(), bound()),
        (
            pattern(),
            count(),
            any::<bool>(),
            prop::option::weighted(0.2, Just(json!(2))),
        ),
    )
        .prop_map(
            |((len, items, min, xmax), (pattern, props, unique, multiple))| {
                with(
                    json!({}),
                    vec![
                        ("minLength", len),
                        ("maxItems", items),
                        ("minimum", min),
                        ("exclusiveMaximum", xmax),
                        ("pattern", pattern),
                        ("minProperties", props),
                        ("uniqueItems", unique.then(|| json!(true))),
                        ("multipleOf", multiple),
                    ],
                )
            },
        )
}

/// The schemas without subschemas: types, bounds, lengths, enums, consts, `$ref`s.
fn leaves(refs: Vec<String>, extra: bool) -> Vec<BoxedStrategy<Value>> {
    let numeric = (
        prop::sample::select(vec!["integer", "number"]),
        bound(),
        bound(),
        bound(),
        bound(),
    )
        .prop_map(|(t, min, max, xmin, xmax)| {
            with(
                json!({"type": t}),
                vec![
                    ("minimum", min),
                    ("maximum", max),
                    ("exclusiveMinimum", xmin),
                    ("exclusiveMaximum", xmax),
                ],
            )
        });
    let string = (count(), count(), pattern()).prop_map(|(min, max, pattern)| {
        with(
            json!({"type": "string"}),
            vec![("minLength", min), ("maxLength", max), ("pattern", pattern)],
        )
    });
    let multiple = (
        prop::sample::select(vec!["integer", "number"]),
        prop::sample::select(vec![
            json!(2),
            json!(0.5),
            json!(3),
            json!(1.5),
            json!(0.25),
        ]),
        bound(),
    )
        .prop_map(|(t, m, min)| with(json!({"type": t, "multipleOf": m}), vec![("minimum", min)]));
    let enumeration = prop::collection::vec(literal(), 1..4).prop_map(|v| json!({"enum": v}));
    let typed_enum = (
        prop::sample::select(vec!["string", "integer", "number", "boolean"]),
        prop::collection::vec(literal(), 1..4),
    )
        .prop_map(|(t, v)| json!({"type": t, "enum": v}));
    let constant = literal().prop_map(|v| json!({"const": v}));
    let untyped = untyped();
    let types = prop::sample::subsequence(
        vec![
            "null", "boolean", "integer", "number", "string", "array", "object",
        ],
        1..3,
    )
    .prop_map(|t| json!({"type": t}));
    let mut leaves: Vec<BoxedStrategy<Value>> = vec![
        numeric.boxed(),
        multiple.boxed(),
        string.boxed(),
        enumeration.boxed(),
        typed_enum.boxed(),
        constant.boxed(),
        untyped.boxed(),
        types.boxed(),
        Just(json!({})).boxed(),
        Just(json!({"type": "boolean"})).boxed(),
        Just(json!({"type": "null"})).boxed(),
    ];
    if !refs.is_empty() {
        leaves.push(
            prop::sample::select(refs)
                .prop_map(|r| json!({"$ref": r}))
                .boxed(),
        );
    }
    if extra {
        leaves.push(
            prop::sample::select(vec![
                json!({"type": "string", "format": "email"}),
                json!({"type": "array", "contains": {"type": "string"}}),
                json!({"type": "array", "contains": {"type": "null"}, "minContains": 2}),
                json!({"type": "object", "unevaluatedProperties": false}),
                json!({"type": "object", "dependentSchemas": {"a": {"required": ["b"]}}}),
            ])
            .boxed(),
        );
    }
    leaves
}

/// An object schema over `inner`: properties, required ones, what the others may be
/// (`false`, a schema, patterns), and the keywords of names, counts and dependencies.
fn object(inner: &BoxedStrategy<Value>) -> impl Strategy<Value = Value> + use<> {
    let keys = prop::sample::subsequence(KEYS.to_vec(), 0..=KEYS.len());
    (
        prop::collection::vec(inner.clone(), KEYS.len()),
        keys.clone(),
        keys,
        (0u8..3, any::<bool>(), inner.clone()),
        (
            prop::option::weighted(0.3, (prop::sample::select(NAME_PATTERNS), inner.clone())),
            prop::option::weighted(
                0.2,
                prop::sample::select(vec![
                    json!({"maxLength": 0}),
                    json!({"enum": ["a", "b"]}),
                    json!({"pattern": "^[ab]"}),
                    json!({"not": {"const": "c"}}),
                ]),
            ),
            count(),
            count(),
            prop::option::weighted(
                0.2,
                prop::sample::select(vec![json!({"a": ["b"]}), json!({"b": ["a", "c"]})]),
            ),
        ),
    )
        .prop_map(
            |(
                schemas,
                declared,
                required,
                (additional, typed, additional_schema),
                (pattern, names, min, max, dependent),
            )| {
                let properties: Map<String, Value> = declared
                    .iter()
                    .zip(schemas)
                    .map(|(k, s)| (k.to_string(), s))
                    .collect();
                let mut s = json!({"properties": properties, "required": required});
                match additional {
                    0 => {}
                    1 => s["additionalProperties"] = json!(false),
                    _ => s["additionalProperties"] = additional_schema,
                }
                if typed {
                    s["type"] = json!("object");
                }
                if let Some((p, schema)) = pattern {
                    s["patternProperties"] = json!({ p: schema });
                }
                with(
                    s,
                    vec![
                        ("propertyNames", names),
                        ("minProperties", min),
                        ("maxProperties", max),
                        ("dependentRequired", dependent),
                    ],
                )
            },
        )
}

/// A schema the verifier reads in full. `refs` names the definitions a `$ref` may point
/// to; `extra` adds keywords the verifier does not check.
fn schema(refs: Vec<String>, extra: bool) -> BoxedStrategy<Value> {
    let leaf = proptest::strategy::Union::new(leaves(refs, extra));
    leaf.prop_recursive(3, 12, 3, move |inner| {
        let object = object(&inner);
        let array = (
            inner.clone(),
            count(),
            count(),
            any::<bool>(),
            prop::option::weighted(0.3, prop::collection::vec(inner.clone(), 1..3)),
            prop::option::weighted(0.25, Just(json!(true))),
        )
            .prop_map(|(items, min, max, typed, prefix, unique)| {
                let base = if typed {
                    json!({"type": "array", "items": items})
                } else {
                    json!({"items": items})
                };
                with(
                    base,
                    vec![
                        ("minItems", min),
                        ("maxItems", max),
                        ("prefixItems", prefix.map(Value::Array)),
                        ("uniqueItems", unique),
                    ],
                )
            });
        let mut nodes = vec![
            object.boxed(),
            array.boxed(),
            prop::collection::vec(inner.clone(), 1..3)
                .prop_map(|b| json!({"anyOf": b}))
                .boxed(),
            prop::collection::vec(inner.clone(), 1..3)
                .prop_map(|b| json!({"allOf": b}))
                .boxed(),
            inner.clone().prop_map(|n| json!({"not": n})).boxed(),
            (
                inner.clone(),
                prop::option::of(inner.clone()),
                prop::option::of(inner.clone()),
            )
                .prop_map(|(test, then, otherwise)| {
                    with(
                        json!({"if": test}),
                        vec![("then", then), ("else", otherwise)],
                    )
                })
                .boxed(),
        ];
        if extra {
            nodes.push(
                prop::collection::vec(inner, 1..3)
                    .prop_map(|b| json!({"oneOf": b}))
                    .boxed(),
            );
        }
        proptest::strategy::Union::new(nodes)
    })
    .boxed()
}

/// Replaces every `$ref` not under `properties` or `items` with `{}`: a definition that
/// names itself without a value between is no schema either validator can walk.
fn guard(schema: &mut Value, guarded: bool) {
    let Value::Object(m) = schema else { return };
    if !guarded && m.contains_key("$ref") {
        *schema = json!({});
        return;
    }
    for (k, v) in m.iter_mut() {
        match (k.as_str(), v) {
            ("properties" | "patternProperties", Value::Object(props)) => {
                for p in props.values_mut() {
                    guard(p, true);
                }
            }
            ("items" | "additionalProperties" | "propertyNames", v) => guard(v, true),
            ("prefixItems", Value::Array(items)) => {
                for item in items {
                    guard(item, true);
                }
            }
            ("anyOf" | "allOf" | "oneOf", Value::Array(branches)) => {
                for b in branches {
                    guard(b, guarded);
                }
            }
            ("not" | "if" | "then" | "else", v) => guard(v, guarded),
            _ => {}
        }
    }
}

/// A whole schema: a root and, half the time, definitions under `$defs` or `definitions`
/// that the root and each other (themselves included) refer to.
fn document(extra: bool) -> impl Strategy<Value = Value> {
    (0usize..3, any::<bool>()).prop_flat_map(move |(n, legacy)| {
        let at = if legacy { "definitions" } else { "$defs" };
        let refs: Vec<String> = (0..n).map(|i| format!("#/{at}/d{i}")).collect();
        (
            schema(refs.clone(), extra),
            prop::collection::vec(schema(refs, extra), n),
        )
            .prop_map(move |(mut root, mut defs)| {
                if defs.is_empty() {
                    return root;
                }
                for d in &mut defs {
                    guard(d, false);
                }
                let defs: Map<String, Value> = defs
                    .into_iter()
                    .enumerate()
                    .map(|(i, d)| (format!("d{i}"), d))
                    .collect();
                if !root.is_object() {
                    root = json!({"allOf": [root]});
                }
                root[at] = Value::Object(defs);
                root
            })
    })
}

/// A small random source for values: a value drawn per schema node would make the
/// strategy as deep as the schema, and shrinking the schema is what helps.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap_or(0)
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Any value of the small domains, big integers included.
fn noise(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 2 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => Value::from(rng.chance(2)),
        2 => rng
            .pick(&[
                json!(0),
                json!(-1),
                json!(3),
                json!(2.5),
                json!(2.0),
                json!(-0.5),
                json!(u64::MAX),
                json!(i64::MIN),
                // Whole, and past every 64-bit integer: JSON Schema's `integer` still.
                json!(1.5e20),
                json!(-3.0e25),
            ])
            .clone(),
        3 | 4 => Value::from(*rng.pick(&[
            "",
            "a",
            "é",
            "ab",
            "x😀",
            "abc",
            "😀😀😀😀",
            "12",
            "a1",
            "b",
            "😀",
            "a b",
        ])),
        5 => Value::Array((0..rng.below(4)).map(|_| noise(rng, depth + 1)).collect()),
        _ => Value::Object(
            (0..rng.below(4))
                .map(|_| (rng.pick(KEYS).to_string(), noise(rng, depth + 1)))
                .collect(),
        ),
    }
}

/// A value for the schema: mostly what it asks for, now and then anything, so values on
/// both sides of every keyword come up.
fn sample(schema: &Value, root: &Value, rng: &mut Rng, depth: usize) -> Value {
    if depth > 6 || rng.chance(10) {
        return noise(rng, depth);
    }
    let Value::Object(m) = schema else {
        return noise(rng, depth);
    };
    if let Some(target) = m
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| root.pointer(&r[1..]))
    {
        return sample(target, root, rng, depth + 1);
    }
    for key in ["enum", "const"] {
        if let Some(v) = m.get(key) {
            let values = v.as_array().cloned().unwrap_or_else(|| vec![v.clone()]);
            if !values.is_empty() && !rng.chance(4) {
                return rng.pick(&values).clone();
            }
        }
    }
    for key in ["anyOf", "allOf", "oneOf"] {
        if let Some(Value::Array(branches)) = m.get(key)
            && !rng.chance(4)
        {
            return sample(rng.pick(branches), root, rng, depth + 1);
        }
    }
    let kind = match m.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) if !ts.is_empty() => {
            rng.pick(ts).as_str().unwrap_or("null").to_string()
        }
        _ if m.contains_key("properties") && !rng.chance(4) => "object".into(),
        _ if m.contains_key("items") && !rng.chance(4) => "array".into(),
        _ => return noise(rng, depth),
    };
    of_kind(&kind, m, root, rng, depth)
}

/// A value of one JSON type for the schema `m`, near its bounds.
fn of_kind(kind: &str, m: &Map<String, Value>, root: &Value, rng: &mut Rng, depth: usize) -> Value {
    let near = |rng: &mut Rng, keys: &[&str], fallback: f64| {
        let bounds: Vec<f64> = keys.iter().filter_map(|k| m.get(*k)?.as_f64()).collect();
        let at = if bounds.is_empty() {
            fallback
        } else {
            *rng.pick(&bounds)
        };
        at + *rng.pick(&[-1.0, -0.5, 0.0, 0.0, 0.5, 1.0])
    };
    match kind {
        "null" => Value::Null,
        "boolean" => Value::from(rng.chance(2)),
        "integer" | "number" => {
            if rng.chance(6) {
                return noise(rng, depth);
            }
            let x = near(
                rng,
                &["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
                1.0,
            );
            #[allow(clippy::cast_possible_truncation, reason = "small by construction")]
            if x.fract() == 0.0 && rng.chance(2) {
                Value::from(x as i64)
            } else {
                Value::from(x)
            }
        }
        "string" => {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "small by construction"
            )]
            let n = near(rng, &["minLength", "maxLength"], 2.0).max(0.0) as usize;
            let s: String = (0..n)
                .map(|_| *rng.pick(&['a', 'é', '😀', '1', 'b']))
                .collect();
            Value::from(s)
        }
        "array" => {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "small by construction"
            )]
            let n = near(rng, &["minItems", "maxItems"], 1.0).max(0.0) as usize;
            let items = m.get("items").cloned().unwrap_or(json!({}));
            let prefix = m
                .get("prefixItems")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let mut out: Vec<Value> = (0..n)
                .map(|i| sample(prefix.get(i).unwrap_or(&items), root, rng, depth + 1))
                .collect();
            // Repeats now and then, for `uniqueItems`.
            if let Some(first) = out.first().cloned()
                && rng.chance(4)
            {
                out.push(first);
            }
            Value::Array(out)
        }
        "object" => {
            let mut out = Map::new();
            let properties = m.get("properties").and_then(Value::as_object);
            for key in KEYS {
                let required = m
                    .get("required")
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.iter().any(|k| k == key));
                let skip = if required {
                    rng.chance(8)
                } else {
                    rng.chance(2)
                };
                if skip {
                    continue;
                }
                let value = match properties.and_then(|p| p.get(*key)) {
                    Some(s) => sample(s, root, rng, depth + 1),
                    None => noise(rng, depth + 1),
                };
                out.insert((*key).to_string(), value);
            }
            Value::Object(out)
        }
        _ => noise(rng, depth),
    }
}

/// What one run found: values tried and, of them, valid by the reference.
#[derive(Default)]
struct Tally {
    tried: usize,
    valid: usize,
}

fn compare(schema: &Value, seed: u64, exact: bool, tally: &mut Tally) -> Result<(), TestCaseError> {
    let reference = jsonschema::draft202012::new(schema)
        .map_err(|e| TestCaseError::fail(format!("the reference refused the schema: {e}")))?;
    let shape = catalog_check::schema_shape(schema);
    let mut rng = Rng(seed);
    for _ in 0..VALUES {
        let value = sample(schema, schema, &mut rng, 0);
        let valid = reference.is_valid(&value);
        let issues = check_value(shape.get(), &value);
        tally.tried += 1;
        tally.valid += usize::from(valid);
        if valid && !issues.is_empty() {
            return Err(TestCaseError::fail(format!(
                "refused a value the schema accepts\n schema: {schema}\n value: {value}\n issues: {issues:?}"
            )));
        }
        if exact && !valid && issues.is_empty() {
            return Err(TestCaseError::fail(format!(
                "accepted a value the schema refuses\n schema: {schema}\n value: {value}"
            )));
        }
    }
    Ok(())
}

fn run(extra: bool) -> Tally {
    let config = Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(SCHEMAS),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let tally = std::cell::RefCell::new(Tally::default());
    let result = runner.run(&(document(extra), any::<u64>()), |(schema, seed)| {
        compare(&schema, seed, !extra, &mut tally.borrow_mut())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    tally.into_inner()
}

#[test]
fn the_verifier_agrees_with_the_reference() {
    let tally = run(false);
    eprintln!(
        "{} values, {} valid by the reference",
        tally.tried, tally.valid
    );
    // Both verdicts must come up often, or the comparison proves little.
    assert!(
        tally.valid * 5 > tally.tried,
        "{} of {} valid",
        tally.valid,
        tally.tried
    );
    assert!(
        tally.valid * 5 < tally.tried * 4,
        "{} of {} valid",
        tally.valid,
        tally.tried
    );
}

#[test]
fn with_unchecked_keywords_the_verifier_never_refuses_a_valid_value() {
    let tally = run(true);
    assert!(
        tally.valid * 5 > tally.tried,
        "{} of {} valid",
        tally.valid,
        tally.tried
    );
}

/// The head of the row whose one parameter has the drawn type, after the search and ask
/// tools every catalog of [`type_language`] starts with (`CATALOG_HEAD`).
const ROW: &str = r#"
[[tool]]
name = "withDefault"
description = "Has a parameter whose default is checked."
visibility = "inline"
effect = "reads"
tier = "silent"
[tool.params]
"#;

/// A bound as TOML writes it: small, whole or a half.
fn toml_bound() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop_oneof![
        (-4i64..6).prop_map(|n| n.to_string()),
        (-8i32..12).prop_map(|n| format!("{:?}", f64::from(n) / 2.0)),
    ])
}

/// A type of the catalog's type language, as the keys of its TOML inline table: every
/// kind [`Kind::fits`] reads but the `schema` escape hatch (its defaults are not checked:
/// the schema is the author's, kept as written), nested in arrays and objects.
fn type_language() -> impl Strategy<Value = String> {
    let numeric = |ty: &'static str| {
        (toml_bound(), toml_bound()).prop_map(move |(lo, hi)| {
            let bounds: String = [("minimum", lo), ("maximum", hi)]
                .into_iter()
                .filter_map(|(key, bound)| bound.map(|b| format!(", {key} = {b}")))
                .collect();
            format!("type = \"{ty}\"{bounds}")
        })
    };
    let leaf = prop_oneof![
        Just("type = \"string\"".to_string()),
        prop::sample::subsequence(vec!["a", "b", "ab"], 1..=3)
            .prop_map(|values| format!("type = \"string\", enum = {values:?}")),
        numeric("integer"),
        numeric("number"),
        Just("type = \"boolean\"".to_string()),
        Just("type = \"object\"".to_string()),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            inner
                .clone()
                .prop_map(|t| format!("type = \"array\", items = {{ {t} }}")),
            prop::collection::vec((inner, any::<bool>()), 1..=KEYS.len()).prop_map(|props| {
                let props: Vec<String> = props
                    .iter()
                    .zip(KEYS)
                    .map(|((t, required), key)| {
                        let optional = if *required { "" } else { ", required = false" };
                        format!("{key} = {{ {t}{optional} }}")
                    })
                    .collect();
                format!("type = \"object\", properties = {{ {} }}", props.join(", "))
            }),
        ]
    })
}

/// Whether every value at an `integer` of the schema is written as an integer within
/// `i64`, as the generated Rust field (`i64`) holds it: where a default is held to more than
/// the schema says (`2`, not `2.0`; nothing past `i64::MAX`).
fn fits_rust(schema: &Value, value: &Value) -> bool {
    match (schema.get("type").and_then(Value::as_str), value) {
        (Some("integer"), Value::Number(n)) => n.is_i64(),
        (Some("array"), Value::Array(items)) => {
            items.iter().all(|v| fits_rust(&schema["items"], v))
        }
        (Some("object"), Value::Object(map)) => map.iter().all(|(k, v)| {
            schema
                .get("properties")
                .and_then(|p| p.get(k))
                .is_none_or(|s| fits_rust(s, v))
        }),
        _ => true,
    }
}

/// One drawn type: its catalog compiled, its parameter's kind and published schema, and
/// [`VALUES`] values drawn for the schema, each judged by [`Kind::fits`] and the reference.
fn compare_defaults(ty: &str, seed: u64, tally: &mut Tally) -> Result<(), TestCaseError> {
    let source = format!("{CATALOG_HEAD}{ROW}x = {{ {ty} }}\n");
    // Bounds drawn out of order are an error of the catalog: nothing to compare.
    let Ok(catalog) = catalog_check::validate(&source) else {
        return Ok(());
    };
    let tool = &catalog.tools[2];
    let kind: &Kind = &tool.params[0].ty.kind;
    let schema = catalog_check::schema::input(tool)["properties"]["x"].clone();
    let reference = jsonschema::draft202012::new(&schema)
        .map_err(|e| TestCaseError::fail(format!("the reference refused the schema: {e}")))?;
    let mut rng = Rng(seed);
    for _ in 0..VALUES {
        let value = sample(&schema, &schema, &mut rng, 0);
        let valid = reference.is_valid(&value) && fits_rust(&schema, &value);
        let fits = kind.fits(&value);
        tally.tried += 1;
        tally.valid += usize::from(valid);
        if valid != fits.is_ok() {
            return Err(TestCaseError::fail(format!(
                "Kind::fits and the reference disagree\n type: {ty}\n schema: {schema}\n value: {value}\n fits: {fits:?}\n reference: {valid}"
            )));
        }
    }
    Ok(())
}

/// A parameter's `default` is accepted exactly when the schema the model is shown accepts
/// it and the generated Rust field can hold it.
#[test]
fn a_default_fits_its_type_as_the_reference_says() {
    let config = Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(SCHEMAS / 3),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let tally = std::cell::RefCell::new(Tally::default());
    let result = runner.run(&(type_language(), any::<u64>()), |(ty, seed)| {
        compare_defaults(&ty, seed, &mut tally.borrow_mut())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let tally = tally.into_inner();
    eprintln!(
        "{} defaults, {} valid by the reference",
        tally.tried, tally.valid
    );
    assert!(
        tally.valid * 5 > tally.tried && tally.valid * 5 < tally.tried * 4,
        "{} of {} valid",
        tally.valid,
        tally.tried
    );
}
