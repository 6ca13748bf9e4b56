//! A catalog read at run time: a value found in as a compiled catalog is.

use std::fmt::Write as _;

const EXAMPLE: &str = include_str!("../../../tests/data/tables.toml");

fn read(source: &str) -> catalog_check::CatalogModel {
    catalog_check::validate(source).expect("the tables catalog (`tests/data/tables.toml`) is valid")
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
