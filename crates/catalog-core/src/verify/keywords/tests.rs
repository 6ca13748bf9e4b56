use alloc::string::String;
use alloc::vec::Vec;

use serde_json::json;

use crate::shape::{
    Bounds, Condition, Defs, Dependent, Object, Others, Pattern, PatternProperty, Property, Rules,
    Shape,
};
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
        others: None,
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
    others: None,
});

static OBJECT: Rules = Rules {
    object: Some(Object {
        properties: &[Property {
            name: "a",
            required: true,
            shape: Shape::Any,
        }],
        closed: false,
        others: None,
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

static DIGITS: Pattern = Pattern::new("^\\d+$", true);
static CODE: Rules = Rules {
    pattern: Some(&DIGITS),
    ..Rules::NONE
};
static EVEN: Rules = Rules {
    multiple_of: Some(0.1),
    ..Rules::NONE
};
static THREES: Rules = Rules {
    multiple_of: Some(3.0),
    ..Rules::NONE
};
static PAIR: Rules = Rules {
    prefix_items: &[Shape::String { values: &[] }, Shape::Boolean],
    items: Shape::Enum(&[]),
    unique_items: true,
    ..Rules::NONE
};
static X_NUMBERS: Others = Others {
    patterns: &[PatternProperty {
        pattern: &X,
        shape: Shape::Integer(Bounds::NONE),
    }],
    additional: Shape::String { values: &[] },
};
static X: Pattern = Pattern::new("^x-", true);
static LABELS: Rules = Rules {
    object: Some(Object {
        properties: &[],
        closed: false,
        others: Some(&X_NUMBERS),
    }),
    min_properties: 1,
    property_names: Shape::Rules(&SHORT),
    dependent_required: &[Dependent {
        name: "x-a",
        requires: &["b"],
    }],
    ..Rules::NONE
};
static NOT_NULL: Shape = Shape::Not(&Shape::Null);
static CARD: Condition = Condition {
    test: Shape::Rules(&OBJECT),
    then: Shape::Object(Object {
        properties: &[Property {
            name: "b",
            required: true,
            shape: Shape::Any,
        }],
        closed: false,
        others: None,
    }),
    otherwise: Shape::Any,
};

#[test]
fn patterns_are_ecma_262() {
    let code = Shape::Rules(&CODE);
    assert!(check_value(&code, &json!("2024")).is_empty());
    // `\d` is ASCII in ECMA-262: an Arabic-Indic digit is not one.
    assert_eq!(
        messages(&code, &json!("٣")),
        [" | the arguments: the string \"٣\" does not match the pattern `^\\d+$`"]
    );
    let lookahead = Pattern::new("^(?=.*[0-9])\\w{3}$", true);
    assert!(lookahead.is_match("ab1") && !lookahead.is_match("abc"));
    // Matched anywhere unless anchored.
    assert!(Pattern::new("b", true).is_match("abc"));
    // Past the length matched, a pattern holds: a backtracking engine's time grows
    // with the text.
    let long = "1".repeat(Pattern::MAX_CHARS) + "x";
    assert!(DIGITS.is_match(&long));
    assert!(!DIGITS.is_match(&long[1..]));
    // Unreadable (the compiler never writes one): matches, so never refuses.
    assert!(Pattern::new("(", true).is_match("x"));
    assert_eq!(Pattern::reading("[a\\-z]"), Some(true));
    assert_eq!(Pattern::reading("\\-"), Some(false));
    assert_eq!(Pattern::reading("("), None);
}

#[test]
fn multiples_are_decimal() {
    let tenths = Shape::Rules(&EVEN);
    for fine in [json!(0.3), json!(3), json!(-1.7), json!(0), json!(1e20)] {
        assert!(check_value(&tenths, &fine).is_empty(), "{fine}");
    }
    let threes = Shape::Rules(&THREES);
    assert!(check_value(&threes, &json!(-9)).is_empty());
    assert!(check_value(&threes, &json!(3e15)).is_empty());
    assert_eq!(check_value(&threes, &json!(-3e25)).len(), 1);
    assert_eq!(
        messages(&tenths, &json!(0.25)),
        [" | the arguments: 0.25 is not a multiple of 0.1"]
    );
}

#[test]
fn tuples_count_items_and_find_repeats() {
    let pair = Shape::Rules(&PAIR);
    assert!(check_value(&pair, &json!(["a", true])).is_empty());
    assert_eq!(
        messages(&pair, &json!([1, true, null])),
        [
            "/0 | `/0`: expected a string, got the number 1",
            "/2 | `/2`: expected nothing (the schema admits no value here), got null"
        ]
    );
    assert_eq!(
        messages(
            &Shape::Rules(&PAIR),
            &json!([{"a": 1, "b": [1.0]}, {"b": [1], "a": 1}])
        ),
        [
            " | the arguments: items 0 and 1 are equal, and the items must be unique",
            "/0 | `/0`: expected a string, got an object",
            "/1 | `/1`: expected a boolean, got an object"
        ]
    );
}

#[test]
fn objects_hold_their_names_patterns_and_dependencies() {
    let labels = Shape::Rules(&LABELS);
    assert!(check_value(&labels, &json!({"x-a": 1, "b": "c"})).is_empty());
    let mut found = messages(&labels, &json!({"x-a": "1", "long": 2}));
    // The object's own rules come first, then each property's in the map's order:
    // written order where a crate of the build turns on serde_json's `preserve_order`.
    found[2..].sort();
    assert_eq!(
        found,
        [
            "/b | missing `b`, which `x-a` needs beside it",
            "/long | the arguments: the property name \"long\" is not allowed: `/long` has 4 characters; it must have at most 3",
            "/long | `/long`: expected a string, got the number 2",
            "/x-a | `/x-a`: expected an integer, got the string \"1\""
        ]
    );
    assert_eq!(
        messages(&labels, &json!({})),
        [" | the arguments has 0 properties; it must have at least 1"]
    );
}

#[test]
fn not_and_if_choose_by_the_whole_schema() {
    assert!(check_value(&NOT_NULL, &json!(1)).is_empty());
    assert_eq!(
        messages(&NOT_NULL, &json!(null)),
        [" | the arguments: null is what the schema rules out (`not`: null)"]
    );
    let card = Shape::If(&CARD);
    // `a` present: `then` holds, so `b` is needed; without `a`, nothing is.
    assert!(check_value(&card, &json!({"c": 1})).is_empty());
    assert_eq!(
        messages(&card, &json!({"a": 1})),
        ["/b | missing required parameter `b` (any value)"]
    );
}
