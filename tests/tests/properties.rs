//! Property tests over generated catalogs: rows of every visibility, effect, tier, access
//! level and MCP exposure, compiled from TOML text, then held to the README's tables.
//!
//! - the derived sets partition and nest as documented (inline | discoverable = all;
//!   silent | gated = all but the search tool; the MCP levels nest; writes are the rows that
//!   stage or act; a row that acts is gated), each equal to the rule applied to the generated rows;
//! - for every tool and every MCP access level, the tool is listed (`render::mcp`) and
//!   callable (`verify`) exactly when `mcp` is on and its access is at most the level;
//! - in chat, a tool is callable at the first step exactly when it is inline, and a
//!   discoverable tool becomes callable only once a search returned it;
//! - a gated tool always reaches the permission hook, once per call, and a silent one never;
//! - an excluded tool (outside `restricted_to`, or `mcp = false` for MCP) is never reachable,
//!   whatever was searched.
//!
//! `PROPTEST_CASES=N` sets how many catalogs are generated (256 by default).

use std::cell::Cell;
use std::fmt::Write as _;

use catalog_check::model::{CatalogModel, DERIVED_SETS};
use catalog_core::search::Weights;
use catalog_core::{
    Access, Call, Caller, Decision, Discovery, Effect, Info, Retention, Settings, Tier, ToolId,
    ToolRow, ToolSet, Value, Via, Visibility, verify,
};
use catalog_wire::render;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// One generated row, before it is TOML.
#[allow(clippy::struct_excessive_bools)] // one flag per column of the row
#[derive(Clone, Debug)]
struct Row {
    inline: bool,
    gated: bool,
    effect: Effect,
    /// The level MCP clients need: what the effect needs, or more when the row says so.
    access: Access,
    /// Whether the row writes `access` (else it defaults to what the effect needs).
    explicit: bool,
    mcp: bool,
    /// A word only this row has, so a search for it finds this row.
    word: String,
    /// Whether it takes an optional parameter (an empty call is valid either way).
    param: bool,
}

fn row() -> impl Strategy<Value = Row> {
    (
        any::<bool>(),
        any::<bool>(),
        0..3usize,
        proptest::option::of(0..3usize),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(inline, gated, effect, raised, mcp, param)| {
            let effect = Effect::ALL[effect];
            // An explicit level may raise what the effect needs, never lower it.
            let access = raised.map_or(effect.least_access(), |a| {
                Access::ALL[a].max(effect.least_access())
            });
            Row {
                inline,
                // The compiler's rule: a row that acts never runs silently.
                gated: gated || effect == Effect::Acts,
                effect,
                access,
                explicit: raised.is_some(),
                mcp,
                word: String::new(),
                param,
            }
        })
}

/// A catalog of 1 to 60 rows after the search and ask tools, and the rows' words.
fn rows() -> impl Strategy<Value = Vec<Row>> {
    proptest::collection::vec(row(), 1..=60).prop_map(|mut rows| {
        for (i, r) in rows.iter_mut().enumerate() {
            // Distinct per row and left alone by the stemmer: `zq` and the index written
            // in consonants other than `s` and `y` (which stemming may drop or change).
            const DIGITS: &[u8] = b"bcdfghjklmnpqrtvwxz";
            let mut word = String::from("zq");
            let mut n = i;
            loop {
                word.push(char::from(DIGITS[n % DIGITS.len()]));
                n /= DIGITS.len();
                if n == 0 {
                    break;
                }
            }
            r.word = word;
        }
        rows
    })
}

fn toml(rows: &[Row], keep: Retention) -> String {
    let mut out = format!(
        "[settings]\nsearch-tool = \"searchTools\"\nask-tool = \"ask\"\nsearch-results = 5\nsearches-per-turn = 1000\nkeep-discovered = \"{}\"\n\n[[tool]]\nname = \"searchTools\"\ndescription = \"Finds tools.\"\n[tool.params]\nquery = {{ type = \"string\" }}\n\n[[tool]]\nname = \"ask\"\ndescription = \"Asks the user.\"\nvisibility = \"inline\"\neffect = \"reads\"\ntier = \"silent\"\nmcp = false\n",
        keep.as_str()
    );
    for (i, r) in rows.iter().enumerate() {
        let _ = write!(
            out,
            "\n[[tool]]\nname = \"tool{i}\"\ndescription = \"Does {} things.\"\nvisibility = \"{}\"\neffect = \"{}\"\ntier = \"{}\"\nmcp = {}\n",
            r.word,
            if r.inline { "inline" } else { "discoverable" },
            r.effect.as_str(),
            if r.gated { "gated" } else { "silent" },
            r.mcp
        );
        if r.explicit {
            let _ = writeln!(out, "access = \"{}\"", r.access.as_str());
        }
        if r.param {
            out.push_str("[tool.params]\nnote = { type = \"string\", required = false }\n");
        }
    }
    out
}

// The catalog of the running case is read at run time: its tools are `ToolRow`s.
type Id = ToolRow;

/// The tool of row `i`.
fn id(i: usize) -> Id {
    ToolRow::from_index(i).expect("a row number")
}

/// The typed call: only which tool was called matters here.
#[derive(Debug)]
struct Called(Id);

impl Call for Called {
    type Tool = Id;
    fn from_checked(tool: Id, _: Value) -> Result<Self, String> {
        Ok(Called(tool))
    }
    fn tool(&self) -> Id {
        self.0
    }
}

type Set = ToolSet<Id, 1>;

fn set(catalog: &CatalogModel, f: impl Fn(usize) -> bool) -> Set {
    (0..catalog.tools.len()).filter(|&i| f(i)).map(id).collect()
}

/// Every property, for one generated catalog. `allowed` picks the chat's restriction.
#[allow(clippy::too_many_lines)] // one property after another, each short
fn check(rows: &[Row], keep: Retention, allowed_bits: u64) -> Result<(), TestCaseError> {
    let source = toml(rows, keep);
    let catalog = catalog_check::compile(&source)
        .map_err(|d| TestCaseError::fail(format!("{d:#?}\n{source}")))?;
    // Rows 0 and 1 are the search and ask tools; row `i + 2` is `rows[i]`.
    let row = |i: usize| (i >= 2).then(|| &rows[i - 2]);
    let n = catalog.tools.len();
    let all: Vec<usize> = (0..n).collect();
    let members = |name: &str| -> Vec<usize> {
        let d = DERIVED_SETS.iter().find(|d| d.name == name).unwrap();
        all.iter()
            .copied()
            .filter(|&i| (d.contains)(&catalog.tools[i]))
            .collect()
    };
    let expect = |f: &dyn Fn(usize) -> bool| -> Vec<usize> {
        all.iter().copied().filter(|&i| f(i)).collect()
    };

    // The derived sets are the tables' rules applied to the rows.
    prop_assert_eq!(members("ALL"), all.clone());
    prop_assert_eq!(
        members("INLINE"),
        expect(&|i| row(i).is_none_or(|r| r.inline))
    );
    prop_assert_eq!(
        members("DISCOVERABLE"),
        expect(&|i| row(i).is_some_and(|r| !r.inline))
    );
    prop_assert_eq!(
        members("GATED"),
        expect(&|i| row(i).is_some_and(|r| r.gated))
    );
    prop_assert_eq!(
        members("SILENT"),
        expect(&|i| i == 1 || row(i).is_some_and(|r| !r.gated))
    );
    prop_assert_eq!(
        members("WRITES"),
        expect(&|i| row(i).is_some_and(|r| r.effect != Effect::Reads))
    );
    // The access rule as the README states it, on its own on purpose: the compiler's sets
    // come from `catalog_core::reach`, and this is what they are checked against.
    let mcp_at =
        |level: Access| expect(&|i: usize| row(i).is_some_and(|r| r.mcp && r.access <= level));
    for (name, level) in [
        ("MCP_READ_ONLY", Access::ReadOnly),
        ("MCP_READ_AND_STAGE", Access::ReadAndStage),
        ("MCP_FULL_ACCESS", Access::FullAccess),
    ] {
        prop_assert_eq!(members(name), mcp_at(level));
    }
    // ... and so they partition and nest.
    let sub = |a: &[usize], b: &[usize]| a.iter().all(|x| b.contains(x));
    let (inline, discoverable) = (members("INLINE"), members("DISCOVERABLE"));
    prop_assert_eq!(inline.len() + discoverable.len(), n);
    prop_assert!(sub(&inline, &all) && sub(&discoverable, &all));
    prop_assert!(inline.iter().all(|i| !discoverable.contains(i)));
    let (silent, gated) = (members("SILENT"), members("GATED"));
    prop_assert_eq!(silent.len() + gated.len(), n - 1);
    prop_assert!(!silent.contains(&0) && !gated.contains(&0));
    prop_assert!(sub(
        &members("MCP_READ_ONLY"),
        &members("MCP_READ_AND_STAGE")
    ));
    prop_assert!(sub(
        &members("MCP_READ_AND_STAGE"),
        &members("MCP_FULL_ACCESS")
    ));
    prop_assert!(
        members("MCP_READ_ONLY")
            .iter()
            .all(|i| !members("WRITES").contains(i))
    );
    prop_assert!(sub(
        &expect(&|i| row(i).is_some_and(|r| r.effect == Effect::Acts)),
        &gated
    ));

    let loaded = catalog_check::Loaded::<1>::new(&catalog).expect("under 64 rows");
    let specs = loaded.specs();
    let name = |i: usize| catalog.tools[i].name.as_str();
    // The search tool takes a required `query`; every other row accepts an empty call.
    let args = |i: usize| {
        if i == 0 {
            serde_json::json!({ "query": "anything" })
        } else {
            Value::Null
        }
    };

    // MCP: listed exactly when callable exactly when the table says; a gated tool reaches
    // the hook once, a silent one never; the search and ask tools are never reachable.
    for level in Access::ALL {
        let listed: Value = serde_json::from_str(&render::mcp(specs.iter(), level)).unwrap();
        let listed: Vec<&str> = listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        let want: Vec<&str> = mcp_at(level).into_iter().map(name).collect();
        prop_assert_eq!(&listed, &want, "listed at {:?}", level);
        for i in 0..n {
            let asked = Cell::new(0);
            let mut hook = |caller: Caller, tool: Id, _: &Value| {
                assert_eq!(caller, Caller::Mcp(level));
                assert_eq!(tool, id(i));
                asked.set(asked.get() + 1);
                Decision::Allow
            };
            let via: Via<'_, '_, Id, 1> = Via::Mcp(level, &loaded);
            let result = verify::<Called, 1>(via, name(i), args(i), &mut hook);
            let reachable = want.contains(&name(i));
            prop_assert_eq!(result.is_ok(), reachable, "{} at {:?}", name(i), level);
            let gated = catalog.tools[i].role.tier() == Some(Tier::Gated);
            prop_assert_eq!(asked.get(), usize::from(reachable && gated));
        }
    }

    // Chat: at the first step exactly the inline tools (within `allowed`) are callable;
    // a search for a row's own word makes it callable if it is discoverable and allowed;
    // a tool outside `allowed` is never reachable; a gated call always asks the hook.
    let index = catalog_check::search::index(&catalog, Weights::DEFAULT);
    let info = Info {
        tools: &loaded,
        inline: set(&catalog, |i| {
            catalog.tools[i].visibility == Visibility::Inline
        }),
        discoverable: set(&catalog, |i| {
            catalog.tools[i].visibility == Visibility::Discoverable
        }),
        search_tool: id(0),
        ask_tool: id(1),
        settings: Settings {
            search_results: catalog.settings.search_results,
            searches_per_turn: catalog.settings.searches_per_turn,
            search_tool: specs[0].name,
            ask_tool: specs[1].name,
            keep_discovered: keep,
            language: catalog.settings.language,
            scan_results: catalog.settings.scan_results,
            scan_threshold: catalog.settings.scan_threshold,
        },
        index: index.view(),
    };
    let allowed = set(&catalog, |i| allowed_bits & (1 << i) != 0);
    let mut chat = Discovery::new(info).restricted_to(allowed);
    let allowed_or_search = |i: usize| i == 0 || allowed.contains(id(i));
    let callable = |chat: &Discovery<'_, Id, 1>, i: usize| {
        let mut hook = |_: Caller, _: Id, _: &Value| Decision::Allow;
        verify::<Called, 1>(Via::Chat(chat), name(i), args(i), &mut hook).is_ok()
    };
    for i in 0..n {
        let first_step = catalog.tools[i].visibility == Visibility::Inline && allowed_or_search(i);
        prop_assert_eq!(chat.callable(name(i)).is_ok(), first_step, "{}", name(i));
        prop_assert_eq!(callable(&chat, i), first_step, "{}", name(i));
    }
    for (r, data) in rows.iter().enumerate() {
        let i = r + 2;
        chat.search(&data.word);
        let found = chat.discovered().contains(id(i));
        prop_assert_eq!(found, !data.inline && allowed_or_search(i), "{}", name(i));
        // Discovered tools stay for the conversation, or until the next turn.
        prop_assert!(
            chat.discovered()
                .iter()
                .all(|t| allowed_or_search(t.index()))
        );
        if keep == Retention::Turn {
            chat.new_turn();
            prop_assert_eq!(chat.discovered(), Set::EMPTY);
        }
    }
    for i in 0..n {
        let reachable = allowed_or_search(i)
            && (catalog.tools[i].visibility == Visibility::Inline
                || (keep == Retention::Conversation && chat.discovered().contains(id(i))));
        prop_assert_eq!(callable(&chat, i), reachable, "{}", name(i));
        if !allowed_or_search(i) {
            prop_assert!(chat.callable(name(i)).is_err());
        }
        let asked = Cell::new(0);
        let mut hook = |caller: Caller, _: Id, _: &Value| {
            assert_eq!(caller, Caller::Chat);
            asked.set(asked.get() + 1);
            Decision::Deny
        };
        let denied = verify::<Called, 1>(Via::Chat(&chat), name(i), args(i), &mut hook);
        let gated = catalog.tools[i].role.tier() == Some(Tier::Gated);
        prop_assert_eq!(asked.get(), usize::from(reachable && gated), "{}", name(i));
        // A refused gated call never runs; a silent one never asks.
        prop_assert_eq!(denied.is_ok(), reachable && !gated, "{}", name(i));
    }
    Ok(())
}

#[test]
fn generated_catalogs_hold_to_the_tables() {
    let mut runner = TestRunner::new(Config {
        failure_persistence: None,
        ..Config::default()
    });
    let cases = Cell::new(0usize);
    let strategy = (
        rows(),
        prop_oneof![Just(Retention::Conversation), Just(Retention::Turn)],
        any::<u64>(),
    );
    let result = runner.run(&strategy, |(rows, keep, allowed)| {
        cases.set(cases.get() + 1);
        check(&rows, keep, allowed)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    eprintln!("{} generated catalogs hold to the tables", cases.get());
    assert!(cases.get() >= runner.config().cases as usize);
}
