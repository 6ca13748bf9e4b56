//! The guide's example of an xtask calling this library (`book/src/cli.md`, "The command
//! line") is the crate documentation's, which `cargo test` compiles: the guide cannot show
//! code that does not build.

/// The first fenced block of `lang` after `after` in `text`, without its fences.
fn code_block<'a>(text: &'a str, after: &str, lang: &str) -> Option<&'a str> {
    let rest = &text[text.find(after)?..];
    let fence = format!("```{lang}\n");
    let start = rest.find(&fence)? + fence.len();
    let len = rest[start..].find("```\n")?;
    Some(&rest[start..start + len])
}

#[test]
fn the_guide_xtask_example_is_the_one_the_docs_compile() {
    let guide = include_str!("../../../book/src/cli.md");
    let in_guide = code_block(guide, "# The command line\n", "rust")
        .expect("book/src/cli.md has a rust block under `# The command line`");
    // Its first line is a comment naming the file and the alias.
    let in_guide = in_guide.split_once('\n').map_or("", |(_, code)| code);

    let mut docs = String::new();
    for line in include_str!("../src/lib.rs").lines() {
        if let Some(doc) = line.strip_prefix("//!") {
            docs.push_str(doc.strip_prefix(' ').unwrap_or(doc));
            docs.push('\n');
        }
    }
    let in_docs = code_block(&docs, "", "no_run").expect("lib.rs documents an example");
    assert_eq!(in_guide, in_docs);
}
