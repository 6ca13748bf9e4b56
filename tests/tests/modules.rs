//! One crate, two catalogs: this package's library holds one per module, and here, in
//! another crate, each module's `tools!` and `tool!` name its own catalog's tools.

use catalog_tests::more::mixed;
use catalog_tests::more::mixed::tools as mixed_tools;
use catalog_tests::small;

#[test]
fn each_module_has_its_own_macros() {
    let small_set = small::tools![ask, "triangle_properties.get"];
    assert_eq!(small_set.len(), 2);
    assert!(small_set.contains(small::Tool::Ask));
    assert!(small_set.contains(small::Tool::TrianglePropertiesGet));
    assert_eq!(small::tool!(dropTable), small::Tool::DropTable);

    let mixed_set = mixed_tools![exportCsv, "github.create_issue"];
    assert_eq!(mixed_set.len(), 2);
    assert!(mixed_set.contains(mixed::Tool::ExportCsv));
    assert_eq!(
        mixed::tool!("github.create_issue").name(),
        "github.create_issue"
    );
    assert_eq!(mixed::tool!(ask), mixed::Tool::Ask);
}

#[test]
fn the_macros_mean_the_same_inside_the_crate_and_out() {
    let (small_set, mixed_set) = catalog_tests::FROM_THE_ROOT;
    assert_eq!(small_set, small::tools![ask, "triangle_properties.get"]);
    assert_eq!(small_set, small::INSIDE);
    assert_eq!(mixed_set, mixed::tools![exportCsv, "github.create_issue"]);
}
