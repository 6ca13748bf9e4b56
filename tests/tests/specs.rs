//! `catalog_check::specs`, which builds a catalog's specs at run time, agrees field by
//! field with what the macro compiled into `catalog_tests::tables` from the same file.

use catalog_tests::tables::Tool;

#[test]
fn run_time_specs_match_the_generated_ones() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/tables.toml");
    let source = std::fs::read_to_string(path).unwrap();
    let catalog = catalog_check::compile(&source).unwrap_or_else(|d| {
        panic!("{}", catalog_check::render_all("catalog.toml", &source, &d));
    });
    let specs = catalog_check::specs(&catalog);
    assert_eq!(specs.get().len(), Tool::COUNT);
    for (built, tool) in specs.get().iter().zip(Tool::ALL) {
        let compiled = tool.spec();
        let name = compiled.name;
        assert_eq!(built.name, compiled.name);
        assert_eq!(built.description, compiled.description, "{name}");
        assert_eq!(built.keywords, compiled.keywords, "{name}");
        assert_eq!(built.examples, compiled.examples, "{name}");
        assert_eq!(built.visibility, compiled.visibility, "{name}");
        assert_eq!(built.tier, compiled.tier, "{name}");
        assert_eq!(built.access, compiled.access, "{name}");
        assert_eq!(built.mcp, compiled.mcp, "{name}");
        assert_eq!(built.task, compiled.task, "{name}");
        assert_eq!(built.wire_name, compiled.wire_name, "{name}");
        assert_eq!(built.input_schema, compiled.input_schema, "{name}");
        assert_eq!(built.input, compiled.input, "{name}");
        assert_eq!(built.strict, compiled.strict, "{name}");
        assert_eq!(built.output_schema, compiled.output_schema, "{name}");
        assert_eq!(built.output, compiled.output, "{name}");
        assert_eq!(Tool::from_wire_name(built.wire_name), Some(tool), "{name}");
    }
}

/// The tables catalog exercises both values of `strict` and a shape of every kind the
/// typed parameters produce, so the comparison above is not vacuous.
#[test]
fn the_example_catalog_covers_the_new_fields() {
    use catalog_core::Shape;
    let specs: Vec<_> = Tool::ALL.iter().map(|t| t.spec()).collect();
    assert!(specs.iter().any(|s| s.strict));
    assert!(specs.iter().any(|s| !s.strict));
    assert!(specs.iter().any(|s| s.output.is_some()));
    assert!(
        specs
            .iter()
            .all(|s| matches!(s.input, Shape::Object(o) if o.closed))
    );
    let search = Tool::from_name(catalog_tests::tables::Catalog::SETTINGS.search_tool)
        .unwrap()
        .spec();
    let Shape::Object(o) = search.input else {
        unreachable!("checked above")
    };
    assert!(o.properties.iter().any(|p| p.name == "query" && p.required));
}
