//! A catalog read at run time is leaked once per distinct content: reading it again, as a
//! long-running program reloading it does, hands back what the first read made.

use catalog_core::Shape;
use serde_json::json;

const EXAMPLE: &str = include_str!("../../../tests/data/tables.toml");

fn read(source: &str) -> catalog_check::CatalogModel {
    catalog_check::validate(source).expect("the tables catalog (`tests/data/tables.toml`) is valid")
}

#[test]
fn the_specs_of_a_catalog_read_again_are_the_first_reads() {
    let first = catalog_check::specs(&read(EXAMPLE));
    for _ in 0..3 {
        let again = catalog_check::specs(&read(EXAMPLE));
        assert!(std::ptr::eq(first, again), "a read again leaked a copy");
    }
    // An edited catalog is another: its own specs, and the first stay as they were.
    let edited = EXAMPLE.replacen("\ndescription = \"", "\ndescription = \"Edited. ", 1);
    let other = catalog_check::specs(&read(&edited));
    assert!(!std::ptr::eq(first, other));
    assert!(other.iter().any(|s| s.description.starts_with("Edited. ")));
    assert!(!first.iter().any(|s| s.description.starts_with("Edited. ")));
    assert!(std::ptr::eq(first, catalog_check::specs(&read(EXAMPLE))));
}

#[test]
fn the_search_index_of_a_catalog_read_again_is_the_first_reads() {
    let index = || {
        let catalog = read(EXAMPLE);
        let specs = catalog_check::specs(&catalog);
        let info: catalog_core::Info<'static, Row, 1> = catalog_check::info(&catalog, specs, Row);
        info.index
    };
    let (first, again) = (index(), index());
    assert!(!first.slots.is_empty());
    assert!(
        std::ptr::eq(first.slots, again.slots),
        "a read again leaked a copy"
    );
    assert!(std::ptr::eq(first.postings, again.postings));
}

#[test]
fn the_shape_of_a_schema_read_again_is_the_first_reads() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    // The properties a read decoded, which a leaking read would allocate again.
    let object = |shape: Shape| match shape {
        Shape::Object(o) => o.properties,
        other => panic!("an object schema read as {other:?}"),
    };
    let first = object(catalog_check::schema_shape(&schema));
    let again = object(catalog_check::schema_shape(&schema));
    assert!(std::ptr::eq(first, again), "a read again leaked a copy");
    let other = json!({"type": "object", "properties": {"b": {"type": "string"}}});
    assert!(!std::ptr::eq(
        first,
        object(catalog_check::schema_shape(&other))
    ));
}

/// A row of the tables catalog (`tests/data/tables.toml`), for `info`'s sets (one word: under 64 tools).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
struct Row(usize);

impl catalog_core::ToolId for Row {
    const COUNT: usize = 64;

    fn index(self) -> usize {
        self.0
    }

    fn from_index(index: usize) -> Option<Self> {
        (index < 64).then_some(Row(index))
    }

    fn name(self) -> &'static str {
        self.spec().name
    }

    fn from_name(name: &str) -> Option<Self> {
        catalog_check::specs(&read(EXAMPLE))
            .iter()
            .position(|s| s.name == name)
            .map(Row)
    }

    fn spec(self) -> &'static catalog_core::ToolSpec {
        &catalog_check::specs(&read(EXAMPLE))[self.0]
    }
}
