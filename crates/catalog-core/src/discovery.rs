//! The discovery loop's state: which tools the model may call at each step, the search
//! tool with its per-turn budget, and the messages that tell a model how to recover.
//!
//! A conversation is a series of turns (a user message and the agent steps that answer
//! it). The active set starts as the inline set; a search adds the discoverable tools it
//! returns *during the search call*, so the very next step may call them. Discovered
//! tools stay for the rest of the turn or of the conversation, as the catalog's
//! `keep-discovered` setting says.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use crate::search::{Index, Ranker, Scratch};
use crate::{Caller, Lookup, Reach, Settings, ToolId, ToolSet, ToolSpec};

/// How long a tool found by search stays in the active set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Retention {
    /// Until the next user message.
    Turn,
    /// Until the conversation ends.
    Conversation,
}

impl Retention {
    /// The spelling in `catalog.toml`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Retention::Turn => "turn",
            Retention::Conversation => "conversation",
        }
    }
}

/// What the loop needs to know about a catalog; generated as `Catalog::INFO`.
#[derive(Clone, Copy)]
pub struct Info<'a, T, const W: usize> {
    /// The catalog's tools, by name and by index.
    pub tools: &'a dyn Lookup<T>,
    /// Tools callable from the first step (the search tool among them).
    pub inline: ToolSet<T, W>,
    /// Tools a search can add.
    pub discoverable: ToolSet<T, W>,
    /// The search tool.
    pub search_tool: T,
    /// The tool that asks the user.
    pub ask_tool: T,
    /// The catalog's settings.
    pub settings: Settings<'a>,
    /// The search index; document `i` is the tool with index `i`.
    pub index: Index<'a>,
}

/// One conversation's discovery state.
pub struct Discovery<'a, T, const W: usize> {
    info: Info<'a, T, W>,
    allowed: ToolSet<T, W>,
    discovered: ToolSet<T, W>,
    searches: usize,
    scratch: Scratch,
    ranker: Option<Arc<dyn Ranker>>,
}

impl<T: ToolId + fmt::Debug, const W: usize> fmt::Debug for Discovery<'_, T, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Discovery")
            .field("active", &self.active())
            .field("discovered", &self.discovered)
            .field("searches", &self.searches)
            .finish_non_exhaustive()
    }
}

/// A call the active set does not allow. Its `Display` is the message for the model, in the
/// words the Vercel AI SDK uses, so a model sees one convention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unavailable {
    /// The name the model called.
    pub name: String,
    /// The active set's names, in catalog order.
    pub available: Vec<String>,
}

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Model tried to call unavailable tool '{}'. ", self.name)?;
        if self.available.is_empty() {
            f.write_str("No tools are available.")
        } else {
            write!(f, "Available tools: {}.", self.available.join(", "))
        }
    }
}

impl core::error::Error for Unavailable {}

/// A conversation's discovery state as [`Discovery::save`] keeps it, for
/// [`Discovery::restore`]: plain names and a count, so it survives a rebuilt catalog.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Saved {
    /// The discovered tools' names, in catalog order.
    pub discovered: Vec<String>,
    /// Searches left in the turn.
    pub searches_left: usize,
}

/// One search hit as the model reads it.
#[derive(Clone, Copy)]
pub struct Found<'c, T> {
    /// The tool.
    pub tool: T,
    /// Its row: the name and description the model reads.
    pub spec: &'c ToolSpec<'c>,
    /// Its score (higher is better).
    pub score: f32,
    /// Whether the model may call it from the next step on.
    pub callable: bool,
}

/// Equal when the tools, scores and callability are: the row is the tool's.
impl<T: PartialEq> PartialEq for Found<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.tool == other.tool && self.score == other.score && self.callable == other.callable
    }
}

impl<T: fmt::Debug> fmt::Debug for Found<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Found")
            .field("tool", &self.tool)
            .field("score", &self.score)
            .field("callable", &self.callable)
            .finish_non_exhaustive()
    }
}

/// The result of a search call.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchOutcome<'c, T> {
    /// The hits, best first, ties in name order.
    Found(Vec<Found<'c, T>>),
    /// The turn's budget is spent; nothing was searched.
    BudgetExhausted {
        /// The per-turn cap.
        cap: usize,
        /// The ask tool's name, which the message points to.
        ask_tool: &'c str,
    },
}

#[derive(serde::Serialize)]
struct HitJson<'a> {
    name: &'a str,
    description: &'a str,
    callable: bool,
}

impl<T: ToolId> SearchOutcome<'_, T> {
    /// The tool result the model reads, as JSON.
    #[must_use]
    pub fn to_json(&self) -> String {
        match self {
            SearchOutcome::Found(hits) => {
                let results: Vec<HitJson<'_>> = hits
                    .iter()
                    .map(|h| HitJson {
                        name: h.spec.name,
                        description: h.spec.description,
                        callable: h.callable,
                    })
                    .collect();
                let mut out = String::from("{\"results\":");
                out.push_str(
                    &serde_json::to_string(&results).unwrap_or_else(|_| String::from("[]")),
                );
                out.push('}');
                out
            }
            // Names are limited to `A-Z a-z 0-9 _ - .`, so nothing here needs escaping.
            SearchOutcome::BudgetExhausted { cap, ask_tool } => format!(
                "{{\"error\":\"search-budget-exhausted\",\"message\":\"search budget exhausted, call {ask_tool}() to clarify with the user or use a previously-discovered tool\",\"budgetCap\":{cap}}}"
            ),
        }
    }
}

impl<'a, T: ToolId, const W: usize> Discovery<'a, T, W> {
    /// A new conversation: only the inline tools are active.
    #[must_use]
    pub fn new(info: Info<'a, T, W>) -> Self {
        let all = (0..info.tools.len()).filter_map(T::from_index).collect();
        Discovery {
            info,
            allowed: all,
            discovered: ToolSet::EMPTY,
            searches: 0,
            scratch: Scratch::default(),
            ranker: None,
        }
    }

    /// Ranks every search with `ranker` (an embedding model fused with the index, say) in
    /// place of the index alone. What a search returns and adds is decided as before.
    #[must_use]
    pub fn ranked_by(mut self, ranker: Arc<dyn Ranker>) -> Self {
        self.ranker = Some(ranker);
        self
    }

    /// Limits the conversation to `allowed` (a read-only chat mode, say): tools outside it
    /// never become active, and searches report them as not callable. The search tool
    /// always stays.
    #[must_use]
    pub fn restricted_to(mut self, allowed: ToolSet<T, W>) -> Self {
        self.allowed = allowed.with_index(self.info.search_tool.index());
        self
    }

    /// The catalog this state was made from.
    #[must_use]
    pub fn info(&self) -> &Info<'a, T, W> {
        &self.info
    }

    /// The tools the model may call at this step.
    #[must_use]
    pub fn active(&self) -> ToolSet<T, W> {
        (self.info.inline | self.discovered) & self.allowed
    }

    /// Tools found by search and still held.
    #[must_use]
    pub fn discovered(&self) -> ToolSet<T, W> {
        self.discovered
    }

    /// The tools this conversation may ever make active: every tool, or the set of
    /// [`Discovery::restricted_to`].
    #[must_use]
    pub fn allowed(&self) -> ToolSet<T, W> {
        self.allowed
    }

    /// Adds a tool that a search outside this state found (Anthropic's server-side tool
    /// search) to the active set, as [`Discovery::search`] adds its hits: only a
    /// discoverable tool the conversation allows. Whether it was added.
    pub fn load(&mut self, tool: T) -> bool {
        let joins = self.allowed.contains(tool) && self.info.discoverable.contains(tool);
        if joins {
            self.discovered.insert(tool);
        }
        joins
    }

    /// What to keep of this state between two requests of a web backend: the discovered
    /// tools by name and the turn's searches left.
    #[must_use]
    pub fn save(&self) -> Saved {
        Saved {
            discovered: self
                .discovered
                .iter()
                .map(|tool| String::from(self.info.tools.name(tool)))
                .collect(),
            searches_left: self.searches_left(),
        }
    }

    /// This state with what [`Discovery::save`] kept put back: the names that are still
    /// discoverable tools of the catalog join the active set (within
    /// [`Discovery::restricted_to`], when set first); the others (a tool renamed, removed
    /// or made inline since) are left out and returned, never a panic.
    #[must_use]
    pub fn restore(mut self, saved: &Saved) -> (Self, Vec<String>) {
        let mut dropped = Vec::new();
        for name in &saved.discovered {
            match self.info.tools.find(name) {
                Some(tool) if self.load(tool) => {}
                _ => dropped.push(name.clone()),
            }
        }
        let cap = self.info.settings.searches_per_turn;
        self.searches = cap.saturating_sub(saved.searches_left.min(cap));
        (self, dropped)
    }

    /// Searches left in this turn.
    #[must_use]
    pub fn searches_left(&self) -> usize {
        self.info
            .settings
            .searches_per_turn
            .saturating_sub(self.searches)
    }

    /// A new user message: a fresh search budget, and with [`Retention::Turn`] the
    /// discovered tools are dropped.
    pub fn new_turn(&mut self) {
        self.searches = 0;
        if self.info.settings.keep_discovered == Retention::Turn {
            self.discovered = ToolSet::EMPTY;
        }
    }

    /// The tool a call names, when it is in the active set. Unknown names and known but
    /// undiscovered names get the same message, which lists what may be called.
    ///
    /// # Errors
    /// [`Unavailable`] when the tool is not in the active set.
    pub fn callable(&self, name: &str) -> Result<T, Unavailable> {
        let active = self.active();
        let tools = self.info.tools;
        match tools.find(name) {
            Some(tool)
                if tools.spec(tool).reach(Caller::Chat, active.contains(tool))
                    == Reach::Allowed =>
            {
                Ok(tool)
            }
            _ => Err(Unavailable {
                name: String::from(name),
                available: active.iter().map(|tool| tools.name(tool).into()).collect(),
            }),
        }
    }

    /// Answers a search call: scores the whole catalog, returns the top K discoverable
    /// tools (the index withholds the inline ones, which the model already has), and adds
    /// every hit the caller may call to the active set before returning. Over the turn's
    /// budget it does not search.
    pub fn search(&mut self, query: &str) -> SearchOutcome<'a, T> {
        if self.searches >= self.info.settings.searches_per_turn {
            return SearchOutcome::BudgetExhausted {
                cap: self.info.settings.searches_per_turn,
                ask_tool: self.info.tools.name(self.info.ask_tool),
            };
        }
        self.searches += 1;
        let (index, k) = (&self.info.index, self.info.settings.search_results);
        let hits = match &self.ranker {
            Some(ranker) => ranker.search(index, query, k, &mut self.scratch),
            None => index.search(query, k, &mut self.scratch),
        };
        let mut found = Vec::with_capacity(hits.len());
        // A ranker of the user's is held to what the index promises: no withheld tool.
        let shown = hits
            .into_iter()
            .filter(|h| index.withheld.binary_search(&h.doc).is_err())
            .take(k);
        for hit in shown {
            let Some(tool) = T::from_index(hit.doc as usize) else {
                continue;
            };
            let callable = self.allowed.contains(tool);
            if callable && self.info.discoverable.contains(tool) {
                self.discovered.insert(tool);
            }
            found.push(Found {
                tool,
                spec: self.info.tools.spec(tool),
                score: hit.score,
                callable,
            });
        }
        SearchOutcome::Found(found)
    }
}
