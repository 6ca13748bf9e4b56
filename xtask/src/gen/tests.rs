use super::*;

#[test]
fn catalogs_compile_for_several_sizes_and_seeds() {
    for (tools, seed) in [(3, 1), (100, 1), (100, 2), (1853, 7), (5000, 3)] {
        let g = catalog(tools, seed);
        let compiled = catalog_check::compile(&g.toml)
            .unwrap_or_else(|d| panic!("{}", catalog_check::render_all("gen.toml", &g.toml, &d)));
        assert_eq!(compiled.tools.len(), tools);
        assert_eq!(g.queries.lines().count(), g.query_count);
        let discoverable = compiled
            .tools
            .iter()
            .filter(|t| t.visibility == Visibility::Discoverable)
            .count();
        assert_eq!(g.query_count, MAX_QUERIES.min(discoverable));
        // Each request expects a discoverable tool, or this would say which does not.
        catalog_check::search::requests(&compiled, &g.queries).unwrap();
    }
}

#[test]
fn the_same_seed_gives_the_same_catalog() {
    assert_eq!(catalog(300, 9).toml, catalog(300, 9).toml);
    assert_eq!(catalog(300, 9).queries, catalog(300, 9).queries);
    assert_ne!(catalog(300, 9).toml, catalog(300, 10).toml);
}

#[test]
fn shapes_vary() {
    let g = catalog(2000, 1);
    for shape in [
        "type = \"integer\", minimum",
        "type = \"number\"",
        "type = \"boolean\"",
        "enum = [",
        "type = \"array\"",
        "type = \"object\"",
        "required = false",
        "default = ",
        "visibility = \"inline\"",
        "tier = \"gated\"",
        "effect = \"acts\"",
        "effect = \"stages\"",
        "keywords = [",
        "examples = [",
        "mcp = false",
    ] {
        assert!(g.toml.contains(shape), "no `{shape}` in the catalog");
    }
    let names: Vec<&str> = g
        .toml
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .collect();
    assert!(names.iter().any(|n| n.contains('.')));
    assert!(names.iter().any(|n| n.contains('_')));
    assert!(
        names
            .iter()
            .any(|n| n.chars().any(|c| c.is_ascii_uppercase()))
    );
}

/// A word that starts a typed parameter in a tool's name could make two generated
/// type names equal; the compile test would catch it, this names the word.
#[test]
fn typed_parameter_words_never_name_a_tool() {
    let mut tool_words: Vec<&str> = VERBS.iter().map(|v| v.word).collect();
    for d in DOMAINS {
        tool_words.push(d.word);
        tool_words.extend(d.objects);
    }
    tool_words.extend(QUALIFIERS.iter().map(|q| q.0));
    for w in TYPED_WORDS {
        assert!(
            !tool_words.iter().any(|t| t.eq_ignore_ascii_case(w)),
            "`{w}`"
        );
    }
}
