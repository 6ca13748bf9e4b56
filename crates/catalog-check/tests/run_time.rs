//! A catalog read at run time: a value found in as a compiled catalog is, whose specs are
//! kept once per distinct content (reading it again, as a long-running program reloading
//! it does, hands back what the first read made).

use std::fmt::Write as _;

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
    // Where a read's index keeps its slots and postings.
    let index = || {
        let loaded = catalog_check::Loaded::<1>::new(&read(EXAMPLE)).expect("under 64 rows");
        let index = loaded.info().index;
        assert!(!index.slots.is_empty());
        (index.slots.as_ptr(), index.postings.as_ptr())
    };
    assert_eq!(index(), index(), "a read again leaked a copy");
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

/// A catalog read at run time is found in as the generated `Catalog` is: each row by its
/// name and wire name, its spec, and its visibility in the discovery sets.
#[test]
fn a_loaded_catalog_finds_each_row() {
    use catalog_core::{Lookup, ToolId, Visibility};
    let catalog = read(EXAMPLE);
    let loaded = catalog_check::Loaded::<1>::new(&catalog).expect("under 64 rows");
    assert_eq!(loaded.len(), catalog.tools.len());
    let info = loaded.info();
    for (i, tool) in catalog.tools.iter().enumerate() {
        let row = loaded.find(&tool.name).expect("every row by its name");
        assert_eq!(row.index(), i);
        assert_eq!(loaded.name(row), tool.name);
        assert_eq!(loaded.find_wire(loaded.spec(row).wire_name), Some(row));
        let inline = tool.visibility == Visibility::Inline;
        assert_eq!(info.inline.contains(row), inline, "{}", tool.name);
        assert_eq!(info.discoverable.contains(row), !inline, "{}", tool.name);
    }
    assert_eq!(loaded.find("noSuchTool"), None);
    assert_eq!(
        loaded.name(info.search_tool),
        catalog.tools[catalog.settings.search_tool].name
    );
}

/// More rows than the sets hold is an error that says how many, never a panic.
#[test]
fn a_catalog_wider_than_its_sets_is_refused() {
    let mut extra = String::new();
    for i in 0..64 {
        write!(
            extra,
            "\n[[tool]]\nname = \"extra{i}\"\ndescription = \"Reads extra {i}.\"\nvisibility = \"discoverable\"\neffect = \"reads\"\ntier = \"silent\"\n"
        )
        .unwrap();
    }
    let catalog = read(&format!("{EXAMPLE}{extra}"));
    let too_many = catalog_check::Loaded::<1>::new(&catalog).unwrap_err();
    assert_eq!(too_many.rows, catalog.tools.len());
    assert_eq!(too_many.most, 64);
    assert_eq!(
        too_many.to_string(),
        format!(
            "the catalog has {} rows; at most 64 fit",
            catalog.tools.len()
        )
    );
    assert!(catalog_check::Loaded::<2>::new(&catalog).is_ok());
}
