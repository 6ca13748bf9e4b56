//! Each row's input schema, read once for the two lints that need it: the token budget
//! renders every row's spec, and `schema-portability` checks the same schema and its
//! Gemini form. Whichever asks first works both out, in one pass over the rows.

use std::sync::OnceLock;

use serde_json::Value;

use super::portability::{Issue, issues_with};
use crate::gemini::{self, Converted};
use crate::model::CatalogModel;
use crate::owned::Specs;
use crate::schema;

/// What the lints read of the rows' input schemas.
pub(crate) struct Schemas {
    /// What the renderers read of every row's spec, when the token budget lint runs.
    pub specs: Option<Specs>,
    /// Every row's portability issues, in catalog order (none when that lint does not run).
    pub issues: Vec<Vec<Issue>>,
}

/// [`Schemas`], worked out on first use.
pub(crate) struct Lazy {
    /// Whether the token budget lint runs.
    pub specs: bool,
    /// Whether `schema-portability` runs.
    pub issues: bool,
    done: OnceLock<Schemas>,
}

impl Lazy {
    pub(crate) fn new(specs: bool, issues: bool) -> Lazy {
        Lazy {
            specs,
            issues,
            done: OnceLock::new(),
        }
    }

    /// The schemas' figures; a second thread asking meanwhile waits for the first's.
    pub(crate) fn get(&self, catalog: &CatalogModel) -> &Schemas {
        self.done.get_or_init(|| {
            let read = |_, input: &Value, gemini: &Converted| {
                if self.issues {
                    issues_with(input, &gemini.losses)
                } else {
                    Vec::new()
                }
            };
            if self.specs {
                let (specs, issues) = crate::spec::rendered_with(catalog, read);
                Schemas {
                    specs: Some(specs),
                    issues,
                }
            } else {
                let issues = catalog
                    .tools
                    .iter()
                    .enumerate()
                    .map(|(i, tool)| {
                        let input = schema::input(tool);
                        read(i, &input, &gemini::convert(&input))
                    })
                    .collect();
                Schemas {
                    specs: None,
                    issues,
                }
            }
        })
    }
}
