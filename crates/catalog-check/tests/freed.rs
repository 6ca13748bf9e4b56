//! A catalog read at run time owns what it hands out: dropped, it frees it. Its own test
//! binary, as it counts the heap of the whole process.

use catalog_check::{Loaded, schema_shape};
use catalog_core::Shape;
use serde_json::json;

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

const TABLES: &str = include_str!("../../../tests/data/tables.toml");

/// Reads a catalog and a schema that differ in each round (a cache of what was read
/// before would not hide a leak), uses them, and drops them.
fn round(i: usize) {
    let source = TABLES.replacen(
        "\ndescription = \"",
        &format!("\ndescription = \"Round {i}. "),
        1,
    );
    let catalog = catalog_check::validate(&source).expect("the tables catalog is valid");
    let loaded = Loaded::<1>::new(&catalog).expect("under 64 rows");
    let edited = loaded
        .specs()
        .iter()
        .filter(|spec| spec.description.starts_with("Round "))
        .count();
    assert_eq!(edited, 1);
    let property = json!({"type": "string", "pattern": "^a+$"});
    let schema = json!({"type": "object", "properties": {format!("p{i}"): property}});
    let shape = schema_shape(&schema);
    let Shape::Object(object) = shape.get() else {
        panic!("an object schema read as {:?}", shape.get());
    };
    assert_eq!(object.properties[0].name, format!("p{i}"));
}

#[test]
fn a_dropped_catalog_frees_what_it_read() {
    let _profiler = dhat::Profiler::builder().testing().build();
    // The first round starts what lives for the process (the checker's threads).
    round(0);
    let before = dhat::HeapStats::get().curr_bytes;
    for i in 1..=10 {
        round(i);
    }
    let after = dhat::HeapStats::get().curr_bytes;
    assert_eq!(
        after,
        before,
        "ten catalogs read and dropped left {} bytes",
        after - before
    );
}
