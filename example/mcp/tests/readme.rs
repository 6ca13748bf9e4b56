//! The guide's `main` for serving one's own catalog (`book/src/mcp.md`) is this crate's,
//! with the example's names in place of the user's: the guide cannot show a server that
//! does not build.

/// The first fenced `rust` block after `after` in `text`, without its fences.
fn rust_block<'a>(text: &'a str, after: &str) -> Option<&'a str> {
    let rest = &text[text.find(after)?..];
    let start = rest.find("```rust\n")? + "```rust\n".len();
    let len = rest[start..].find("```\n")?;
    Some(&rest[start..start + len])
}

#[test]
fn the_guides_main_is_app_mcps() {
    let chapter = include_str!("../../../book/src/mcp.md");
    let shown = rust_block(chapter, "\n## Serving your own catalog over MCP\n")
        .expect("book/src/mcp.md has a rust block under `## Serving your own catalog over MCP`");
    let ours = include_str!("../src/main.rs");
    let main = &ours[ours.find("fn main()").expect("main.rs has a main")..];
    let as_user_writes = main
        .replace("app_catalog", "my_catalog")
        .replace("\"app-mcp\"", "\"my-mcp\"")
        .replace("app_backend", "my_backend");
    assert_eq!(shown, as_user_writes);
}
