// A tool name with a dot: the variant is `TrianglePropertiesGet`, and `tool!`/`tools!` take
// the name as a string literal.
catalog_macros::catalog!("ui/pass/dotted_names.toml");

const TRIANGLE: Tool = tool!("triangle_properties.get");
const FOUND: ToolSet = tools!["triangle_properties.get", ask];

fn main() {
    assert_eq!(TRIANGLE, Tool::TrianglePropertiesGet);
    assert_eq!(TRIANGLE.name(), "triangle_properties.get");
    assert_eq!(
        Tool::from_name("triangle_properties.get"),
        Some(Tool::TrianglePropertiesGet)
    );
    assert_eq!(Tool::from_name("triangle_properties"), None);
    assert!(FOUND.contains(Tool::TrianglePropertiesGet));
    assert!(Catalog::DISCOVERABLE.contains(TRIANGLE));
    let args = TrianglePropertiesGetArgs {
        sides: vec![3.0, 4.0, 5.0],
    };
    assert_eq!(args.sides.len(), 3);
    assert_eq!(TRIANGLE.to_string(), "triangle_properties.get");
}
