//! The lints' vocabulary: every lint by name (the registry, [`LINTS`]), its levels and
//! settings, and a catalog's choice of them ([`Config`]). It sits below the model, which
//! carries a catalog's `[lints]` and each row's `[tool.lints]`, and below [`crate::lint`],
//! which runs the lints and re-exports all of this.

use std::collections::BTreeMap;
use std::fmt;

/// How a lint's findings are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Not checked.
    Allow,
    /// Reported by `cargo catalog check`; the catalog still builds.
    Warn,
    /// An error: `catalog!` and `cargo catalog check` fail with it.
    Deny,
}

impl Level {
    /// Every level, lowest first.
    pub const ALL: [Level; 3] = [Level::Allow, Level::Warn, Level::Deny];

    /// The level as `catalog.toml` spells it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }
}

/// A lint, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LintId {
    /// More inline tools than `max-tools`.
    InlineToolCount,
    /// The inline set, as rendered for a provider, over `max-tokens`.
    InlineTokenBudget,
    /// A discoverable tool that its own example requests do not find.
    UnnamedNeed,
    /// Two tools alike in name or description that do not tell each other apart.
    ConfusableTools,
    /// Hidden characters, mixed-script words, orders to the model, or redirection of other
    /// tools' calls.
    PoisonedDescription,
    /// A URL in text the model reads.
    DescriptionUrl,
    /// A description longer than `max-chars`.
    DescriptionLength,
    /// What a row's input schema uses that a targeted provider refuses, drops or weakens.
    SchemaPortability,
    /// A credential written in an `[[upstream]]`'s `env`, `headers` or `url`.
    SecretInCatalog,
}

/// What a lint's findings are about: one row, or the catalog as a whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Each finding belongs to a row, whose `[tool.lints]` may set its level.
    Row,
    /// The finding is about the whole catalog; only `[lints]` sets its level.
    Catalog,
}

/// A numeric setting of a lint, written in its `[lints]` entry.
#[derive(Debug)]
pub struct Setting {
    /// The key (`max-tokens`).
    pub name: &'static str,
    /// What it sets.
    pub doc: &'static str,
    /// The value when the catalog does not set it.
    pub default: f64,
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
    /// Whether it must be a whole number.
    pub whole: bool,
}

/// A lint's entry in the registry.
#[derive(Debug)]
pub struct Lint {
    /// Which lint.
    pub id: LintId,
    /// Its name in `[lints]` and in messages.
    pub name: &'static str,
    /// Its level unless the catalog sets one.
    pub default: Level,
    /// The family it belongs to (the module that checks it).
    pub family: &'static str,
    /// Row or catalog.
    pub scope: Scope,
    /// Whether it counts tokens, and so runs only where a tokenizer is given
    /// (`cargo catalog check`), never in `catalog!`.
    pub needs_tokenizer: bool,
    /// What it checks, in one sentence.
    pub checks: &'static str,
    /// The fix its findings print, in short.
    pub fix: &'static str,
    /// Its settings.
    pub settings: &'static [Setting],
}

/// The registry: every lint, in [`LintId`] order.
pub const LINTS: &[Lint] = &[
    Lint {
        id: LintId::InlineToolCount,
        name: "inline-tool-count",
        default: Level::Warn,
        family: "budget",
        scope: Scope::Catalog,
        needs_tokenizer: false,
        checks: "the inline set (in the model's tool list from the first step) has more than `max-tools` tools",
        fix: "make tools that people ask for by name discoverable, starting with the candidates to defer",
        settings: &[Setting {
            name: "max-tools",
            doc: "Most inline tools, the search tool included; past about 30, published measurements show tool selection accuracy dropping.",
            default: 30.0,
            min: 1.0,
            max: 10_000.0,
            whole: true,
        }],
    },
    Lint {
        id: LintId::InlineTokenBudget,
        name: "inline-token-budget",
        default: Level::Warn,
        family: "budget",
        scope: Scope::Catalog,
        needs_tokenizer: true,
        checks: "the inline set, rendered for any provider the catalog targets, takes more than `max-tokens` tokens",
        fix: "make the largest inline tools discoverable, or shorten their descriptions and parameters",
        settings: &[Setting {
            name: "max-tokens",
            doc: "Most tokens (o200k_base) of the inline set as any provider's request carries it; the default is 30 tools of BFCL's mean size (128 tokens as Anthropic's list carries them).",
            default: 4000.0,
            min: 1.0,
            max: 10_000_000.0,
            whole: true,
        }],
    },
    Lint {
        id: LintId::UnnamedNeed,
        name: "unnamed-need",
        default: Level::Warn,
        family: "reach",
        scope: Scope::Row,
        needs_tokenizer: false,
        checks: "a discoverable tool is not in the top `search-results` when the catalog's own search runs one of its examples (with that example left out of the index)",
        fix: "make the tool inline (a request that does not name it cannot reach it), or give it keywords in the words of such requests",
        settings: &[],
    },
    Lint {
        id: LintId::ConfusableTools,
        name: "confusable-tools",
        default: Level::Warn,
        family: "confusable",
        scope: Scope::Row,
        needs_tokenizer: false,
        checks: "two tools with close names or descriptions, where one description does not name the other",
        fix: "say in the description when to use the other tool instead, naming it",
        settings: &[
            Setting {
                name: "name-similarity",
                doc: "Names are close when this share of their words (stemmed) is common to both (Jaccard).",
                default: 0.6,
                min: 0.0,
                max: 1.0,
                whole: false,
            },
            Setting {
                name: "description-similarity",
                doc: "Descriptions are close when the cosine of their TF-IDF word vectors reaches this.",
                default: 0.5,
                min: 0.0,
                max: 1.0,
                whole: false,
            },
        ],
    },
    Lint {
        id: LintId::PoisonedDescription,
        name: "poisoned-description",
        default: Level::Warn,
        family: "poison",
        scope: Scope::Row,
        needs_tokenizer: false,
        checks: "text the model reads (names, descriptions, values, schemas) holds invisible, bidirectional or terminal-control characters, mixes look-alike scripts in one word, addresses the model (\"ignore previous instructions\", \"do not tell the user\", `<IMPORTANT>`, credential files), even in look-alike or full-width letters, or tells the model how to call another tool; `deny` in imported catalogs",
        fix: "remove the text; tool text says what the tool does, and orders hidden in it are how tool poisoning works",
        settings: &[],
    },
    Lint {
        id: LintId::DescriptionUrl,
        name: "description-url",
        default: Level::Warn,
        family: "poison",
        scope: Scope::Row,
        needs_tokenizer: false,
        checks: "text the model reads holds a URL",
        fix: "remove the URL (the model cannot follow it, and a URL is where poisoned text sends data); keep references in a TOML comment",
        settings: &[],
    },
    Lint {
        id: LintId::DescriptionLength,
        name: "description-length",
        default: Level::Warn,
        family: "poison",
        scope: Scope::Row,
        needs_tokenizer: false,
        checks: "a description is longer than `max-chars` characters",
        fix: "shorten it to what the model needs to choose the tool and fill its arguments",
        settings: &[Setting {
            name: "max-chars",
            doc: "Longest description, in characters; BFCL's 1,853 tools have 257 at the 99th percentile and 545 at most.",
            default: 1024.0,
            min: 1.0,
            max: 1_000_000.0,
            whole: true,
        }],
    },
    Lint {
        id: LintId::SchemaPortability,
        name: "schema-portability",
        default: Level::Warn,
        family: "portability",
        scope: Scope::Row,
        needs_tokenizer: false,
        checks: "a row's input schema uses what a provider the catalog targets (`[settings] providers`) refuses, or drops or weakens on the way to the model: type arrays for MCP clients, arrays without `items` for OpenAI and Gemini, root `anyOf` for Anthropic, Bedrock and OpenAI, keywords Gemini's schema lacks",
        fix: "rewrite the schema as the finding shows (a type array as `anyOf`, an array with its `items`), or leave the provider out of `[settings] providers` when the tools never go there",
        settings: &[],
    },
    Lint {
        id: LintId::SecretInCatalog,
        name: "secret-in-catalog",
        default: Level::Warn,
        family: "secrets",
        scope: Scope::Catalog,
        needs_tokenizer: false,
        checks: "an `[[upstream]]`'s `env` or `headers` value written in the catalog looks like a credential (a known token shape: GitHub, GitLab, Slack, OpenAI, Anthropic, AWS, a JWT, a PEM private key; or a long random-looking value under a name that says secret: TOKEN, SECRET, KEY, PASSWORD, AUTH, ...), or its `url` holds one (a password before `@`, a `token=` or `key=` parameter)",
        fix: "read the value when the upstream starts: `{ from-env = \"NAME\" }` (the gateway's environment) or `{ from-file = \"PATH\" }`; then revoke the credential, which the catalog's history keeps",
        settings: &[],
    },
];

impl LintId {
    /// Every lint, in registry order.
    pub const ALL: [LintId; 9] = [
        LintId::InlineToolCount,
        LintId::InlineTokenBudget,
        LintId::UnnamedNeed,
        LintId::ConfusableTools,
        LintId::PoisonedDescription,
        LintId::DescriptionUrl,
        LintId::DescriptionLength,
        LintId::SchemaPortability,
        LintId::SecretInCatalog,
    ];

    /// Its registry entry.
    #[must_use]
    pub fn info(self) -> &'static Lint {
        &LINTS[self as usize]
    }

    /// Its name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The lint with this name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<LintId> {
        LINTS.iter().find(|l| l.name == name).map(|l| l.id)
    }

    /// The default of one of its settings; `None` for a name it does not have.
    #[must_use]
    pub(crate) fn setting_default(self, name: &str) -> Option<f64> {
        self.info()
            .settings
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.default)
    }
}

impl fmt::Display for LintId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A catalog's `[lints]` table: levels and settings that differ from the registry's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    levels: BTreeMap<LintId, Level>,
    settings: BTreeMap<(LintId, &'static str), f64>,
}

impl Config {
    /// The lint's level in this catalog.
    #[must_use]
    pub fn level(&self, lint: LintId) -> Level {
        self.levels
            .get(&lint)
            .copied()
            .unwrap_or(lint.info().default)
    }

    /// Sets a lint's level.
    pub fn set_level(&mut self, lint: LintId, level: Level) {
        self.levels.insert(lint, level);
    }

    /// A setting's value in this catalog (the registry's default unless set).
    ///
    /// # Panics
    /// When the lint has no such setting: a bug in the lint that asks.
    #[must_use]
    pub fn setting(&self, lint: LintId, name: &str) -> f64 {
        let default = lint
            .setting_default(name)
            .unwrap_or_else(|| panic!("lint `{lint}` has no setting `{name}`"));
        self.settings
            .iter()
            .find(|((l, n), _)| *l == lint && *n == name)
            .map_or(default, |(_, v)| *v)
    }

    /// Sets one of a lint's settings; `false` when the lint has no setting of that name.
    pub fn set(&mut self, lint: LintId, name: &str, value: f64) -> bool {
        match lint.info().settings.iter().find(|s| s.name == name) {
            Some(s) => {
                self.settings.insert((lint, s.name), value);
                true
            }
            None => false,
        }
    }
}
