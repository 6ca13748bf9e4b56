//! The discovery loop on the tables catalog (`tests/data/tables.toml`): the scenarios the design answers.

use catalog_core::{Discovery, Info, Retention, SearchOutcome, Settings};
use catalog_tests::tables::tools;
use catalog_tests::tables::{Catalog, Tool};

fn found(outcome: &SearchOutcome<Tool>) -> Vec<Tool> {
    match outcome {
        SearchOutcome::Found(hits) => hits.iter().map(|h| h.tool).collect(),
        SearchOutcome::BudgetExhausted { .. } => panic!("unexpected budget error"),
    }
}

#[test]
fn a_bulk_edit_is_callable_at_step_one_without_search() {
    let d = Catalog::discovery();
    assert_eq!(d.callable("bulkEdit"), Ok(Tool::BulkEdit));
    assert_eq!(d.active(), Catalog::INLINE);
}

#[test]
fn export_to_csv_is_found_then_callable() {
    let mut d = Catalog::discovery();
    let before = d.callable("exportCsv").unwrap_err().to_string();
    let active: Vec<&str> = Catalog::INLINE.iter().map(Tool::name).collect();
    assert_eq!(
        before,
        format!(
            "Model tried to call unavailable tool 'exportCsv'. Available tools: {}.",
            active.join(", ")
        )
    );
    assert!(
        before.contains("searchTools"),
        "the message always names the search tool"
    );

    let outcome = d.search("export this to CSV");
    assert!(found(&outcome).contains(&Tool::ExportCsv), "{outcome:?}");
    assert_eq!(d.callable("exportCsv"), Ok(Tool::ExportCsv));
    let json: serde_json::Value = serde_json::from_str(&outcome.to_json()).unwrap();
    let first = &json["results"][0];
    assert!(first["name"].is_string() && first["description"].is_string());
    assert_eq!(first["callable"], true);
}

#[test]
fn unknown_and_undiscovered_names_get_the_same_message() {
    let d = Catalog::discovery();
    let unknown = d.callable("frobnicate").unwrap_err().to_string();
    let hidden = d.callable("dropTable").unwrap_err().to_string();
    assert_eq!(
        unknown.replace("frobnicate", "X"),
        hidden.replace("dropTable", "X")
    );
}

#[test]
fn the_fourth_search_in_a_turn_hits_the_budget_and_the_next_turn_searches_again() {
    let mut d = Catalog::discovery();
    assert_eq!(Catalog::SETTINGS.searches_per_turn, 3);
    for q in ["export csv", "index statistics", "vector search"] {
        assert!(matches!(d.search(q), SearchOutcome::Found(_)));
    }
    let over = d.search("commit");
    assert_eq!(
        over.to_json(),
        r#"{"error":"search-budget-exhausted","message":"search budget exhausted, call ask() to clarify with the user or use a previously-discovered tool","budgetCap":3}"#
    );
    assert_eq!(d.searches_left(), 0);
    d.new_turn();
    assert!(matches!(
        d.search("commit staged changes"),
        SearchOutcome::Found(_)
    ));
}

#[test]
fn a_search_returns_no_inline_tool() {
    // One hit per search, so the query decides exactly what is found.
    let info = Info {
        settings: Settings {
            search_results: 1,
            ..Catalog::SETTINGS
        },
        ..Catalog::INFO
    };
    let mut d = Discovery::new(info);
    // The ask tool's own words: the model already has it, so it takes no place.
    let hits = found(&d.search("ask the user a clarifying question"));
    assert!(!hits.contains(&Tool::Ask), "{hits:?}");
    assert!(
        hits.iter().all(|&t| Catalog::DISCOVERABLE.contains(t)),
        "{hits:?}"
    );
    assert!(
        hits.iter().all(|&t| d.active().contains(t)),
        "a hit joins the active set"
    );
    let before = d.active();
    let hits = found(&d.search("export rows to a csv file"));
    assert_eq!(hits, [Tool::ExportCsv]);
    assert_eq!(d.active(), before.union(tools![exportCsv]));
}

#[test]
fn discovered_tools_stay_for_the_conversation_by_default() {
    assert_eq!(Catalog::SETTINGS.keep_discovered, Retention::Conversation);
    let mut d = Catalog::discovery();
    d.search("export rows to a csv file");
    assert!(d.active().contains(Tool::ExportCsv));
    d.new_turn();
    assert!(d.active().contains(Tool::ExportCsv));
}

#[test]
fn the_search_tool_is_never_a_hit() {
    let mut d = Catalog::discovery();
    let hits = found(&d.search("search tools find discover"));
    assert!(!hits.contains(&Tool::SearchTools));
}

#[test]
fn a_restricted_conversation_reports_hits_outside_it_as_not_callable() {
    let mut d = Catalog::discovery().restricted_to(Catalog::MCP_READ_ONLY);
    let SearchOutcome::Found(hits) = d.search("drop table delete") else {
        panic!()
    };
    let drop = hits
        .iter()
        .find(|h| h.tool == Tool::DropTable)
        .expect("dropTable is found");
    assert!(!drop.callable);
    assert!(d.callable("dropTable").is_err());
}

/// A ranker that returns every tool, the last first: the inline ones too, and more than
/// the catalog's `search-results`.
struct Everything;

impl catalog_core::search::Ranker for Everything {
    fn search(
        &self,
        index: &catalog_core::search::Index<'_>,
        _: &str,
        _: usize,
        _: &mut catalog_core::search::Scratch,
    ) -> Vec<catalog_core::search::Hit> {
        let docs = u32::try_from(index.len()).unwrap();
        (0..docs)
            .rev()
            .map(|doc| catalog_core::search::Hit { doc, score: 1.0 })
            .collect()
    }
}

#[test]
fn a_ranker_orders_the_hits_but_cannot_show_an_inline_tool_or_more_than_search_results() {
    let mut d = Catalog::discovery().ranked_by(std::sync::Arc::new(Everything));
    let hits = found(&d.search("anything"));
    let k = Catalog::INFO.settings.search_results;
    // In the ranker's order: the catalog's last `k` discoverable tools, last first.
    let mut last: Vec<Tool> = Catalog::DISCOVERABLE.iter().collect();
    last.reverse();
    last.truncate(k);
    assert_eq!(hits, last);
    assert!(hits.iter().all(|t| d.active().contains(*t)));
}
