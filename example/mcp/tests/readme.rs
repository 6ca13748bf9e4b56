//! The README's `main` for serving one's own catalog is this crate's, with the example's
//! names in place of the user's: the README cannot show a server that does not build.

/// The first fenced `rust` block after `after` in `text`, without its fences.
fn rust_block<'a>(text: &'a str, after: &str) -> Option<&'a str> {
    let rest = &text[text.find(after)?..];
    let start = rest.find("```rust\n")? + "```rust\n".len();
    let len = rest[start..].find("```\n")?;
    Some(&rest[start..start + len])
}

#[test]
fn the_readme_main_is_app_mcps() {
    let readme = include_str!("../../../README.md");
    let shown = rust_block(readme, "\n### Serving your own catalog over MCP\n")
        .expect("README has a rust block under `### Serving your own catalog over MCP`");
    let ours = include_str!("../src/main.rs");
    let main = &ours[ours.find("fn main()").expect("main.rs has a main")..];
    let as_user_writes = main
        .replace("app_catalog", "my_catalog")
        .replace("\"app-mcp\"", "\"my-mcp\"")
        .replace("app_backend", "my_backend");
    assert_eq!(shown, as_user_writes);
}
