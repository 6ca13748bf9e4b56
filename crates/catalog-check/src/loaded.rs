//! A catalog read at run time, as the runtime reads a compiled one: a value that the
//! discovery loop, the verifier and the servers ask for its tools, of which a process
//! holds as many as it reads.

use std::collections::HashMap;
use std::fmt;

use catalog_core::search::{OwnedIndex, Weights};
use catalog_core::{Info, Lookup, Settings, ToolId, ToolRow, ToolSet, ToolSpec, Visibility};

use crate::model::CatalogModel;
use crate::owned::Specs;
use crate::spec::specs;

/// A checked catalog as the runtime reads it, its tools [`ToolRow`]s held in sets of `W`
/// 64-bit words: what `catalog!` generates for a compiled catalog (its `Lookup` and
/// `Catalog::INFO`), made at run time.
///
/// It owns everything it hands out: dropped, it frees its rows' specs and its search index.
pub struct Loaded<const W: usize> {
    specs: Specs,
    names: HashMap<Box<str>, ToolRow>,
    wire_names: HashMap<Box<str>, ToolRow>,
    inline: ToolSet<ToolRow, W>,
    discoverable: ToolSet<ToolRow, W>,
    search_tool: ToolRow,
    ask_tool: ToolRow,
    /// The settings but the search and ask tools' names, which [`Loaded::settings`] reads
    /// from the rows.
    settings: Settings<'static>,
    index: OwnedIndex,
}

/// A catalog with more rows than the sets of a [`Loaded`] hold.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TooManyRows {
    /// The catalog's rows.
    pub rows: usize,
    /// The most that fit.
    pub most: usize,
}

impl fmt::Display for TooManyRows {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the catalog has {} rows; at most {} fit",
            self.rows, self.most
        )
    }
}

impl std::error::Error for TooManyRows {}

impl<const W: usize> Loaded<W> {
    /// The most rows a catalog may have: the width of the sets (and what a [`ToolRow`]
    /// numbers).
    pub const MAX_ROWS: usize = if 64 * W < u32::MAX as usize {
        64 * W
    } else {
        u32::MAX as usize
    };

    /// `catalog`, ready for the runtime.
    ///
    /// # Errors
    /// The catalog has more than [`Loaded::MAX_ROWS`] rows.
    ///
    /// # Panics
    /// Never: each of at most [`Loaded::MAX_ROWS`] rows has its [`ToolRow`].
    pub fn new(catalog: &CatalogModel) -> Result<Self, TooManyRows> {
        let rows = catalog.tools.len();
        if rows > Self::MAX_ROWS {
            return Err(TooManyRows {
                rows,
                most: Self::MAX_ROWS,
            });
        }
        let row = |i: usize| ToolRow::from_index(i).expect("a row number fits a `ToolRow`");
        let specs = specs(catalog);
        let table = |name: for<'a> fn(&'a ToolSpec<'a>) -> &'a str| {
            specs
                .get()
                .iter()
                .enumerate()
                .map(|(i, spec)| (name(spec).into(), row(i)))
                .collect()
        };
        let with = |visibility: Visibility| {
            (0..rows)
                .filter(|&i| catalog.tools[i].visibility == visibility)
                .map(row)
                .collect()
        };
        let settings = &catalog.settings;
        Ok(Loaded {
            names: table(|spec| spec.name),
            wire_names: table(|spec| spec.wire_name),
            inline: with(Visibility::Inline),
            discoverable: with(Visibility::Discoverable),
            search_tool: row(settings.search_tool),
            ask_tool: row(settings.ask_tool),
            settings: Settings {
                search_results: settings.search_results,
                searches_per_turn: settings.searches_per_turn,
                search_tool: "",
                ask_tool: "",
                keep_discovered: settings.keep_discovered,
                language: settings.language,
                scan_results: settings.scan_results,
                scan_threshold: settings.scan_threshold,
            },
            index: crate::search::index(catalog, Weights::DEFAULT),
            specs,
        })
    }

    /// What the discovery loop needs: the sets, the search and ask tools, the settings,
    /// the search index, and this catalog to find tools in. What `catalog!` writes as
    /// `Catalog::INFO` for a compiled catalog.
    #[must_use]
    pub fn info(&self) -> Info<'_, ToolRow, W> {
        Info {
            tools: self,
            inline: self.inline,
            discoverable: self.discoverable,
            search_tool: self.search_tool,
            ask_tool: self.ask_tool,
            settings: self.settings(),
            index: self.index.view(),
        }
    }

    /// The search tool.
    #[must_use]
    pub fn search_tool(&self) -> ToolRow {
        self.search_tool
    }

    /// The inline tools.
    #[must_use]
    pub fn inline(&self) -> &ToolSet<ToolRow, W> {
        &self.inline
    }

    /// The catalog's settings.
    #[must_use]
    pub fn settings(&self) -> Settings<'_> {
        Settings {
            search_tool: self.name(self.search_tool),
            ask_tool: self.name(self.ask_tool),
            ..self.settings
        }
    }

    /// Every row's spec, in catalog order.
    #[must_use]
    pub fn specs(&self) -> &[ToolSpec<'_>] {
        self.specs.get()
    }
}

impl<const W: usize> Lookup<ToolRow> for Loaded<W> {
    fn len(&self) -> usize {
        self.specs().len()
    }

    fn spec(&self, tool: ToolRow) -> &ToolSpec<'_> {
        &self.specs()[tool.index()]
    }

    fn find(&self, name: &str) -> Option<ToolRow> {
        self.names.get(name).copied()
    }

    fn find_wire(&self, name: &str) -> Option<ToolRow> {
        self.wire_names.get(name).copied()
    }
}

impl<const W: usize> fmt::Debug for Loaded<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Loaded")
            .field("rows", &self.specs().len())
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}
