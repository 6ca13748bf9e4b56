//! `cargo xtask gen-catalog`: a synthetic catalog of any size, the same for the same seed,
//! with requests to search it by.
//!
//! A row is a (domain, verb, object, qualifier) tuple, never used twice, written in one of
//! the naming styles real MCP fleets use (`githubGetIssue`, `getIssue`, `github.issue.get`,
//! `github_get_issue`). Its description, keywords and examples come from templates over
//! the same words; its 0–6 parameters from a pool of shapes (strings, enums, bounded
//! integers, numbers, booleans, arrays, nested objects; required, optional, defaults).
//! Effect and tier follow the verb (reads read, edits stage, deletions act and are
//! gated), so every row is one a real catalog could hold.
//! Over 600 lines: most of it is the generator's word tables and parameter shapes, read
//! beside the templates that use them.
//!
//! The requests paraphrase sampled discoverable rows (a synonym of the verb, the object,
//! the domain's name, sometimes the qualifier), in the `dev.jsonl` format `eval-search`
//! reads.
//!
//! Generated type names cannot collide: a type is named after its tool's variant and a
//! parameter word, and the words that can start a parameter's type (see `TYPED_WORDS`)
//! never occur in a tool's name, so no variant extended by one is another variant.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::process::ExitCode;

use cargo_catalog::Usage;
use catalog_core::Visibility;

/// Write a synthetic catalog of N rows, the same for the same seed, and requests to search it
#[derive(Debug, clap::Args)]
pub struct Args {
    /// How many rows
    #[arg(long, value_name = "N", value_parser = tools)]
    tools: usize,
    /// Where to write the catalog
    #[arg(long, value_name = "FILE")]
    out: String,
    /// The generator's seed
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Where to write requests for the catalog, for `eval-search`
    #[arg(long, value_name = "FILE.jsonl")]
    queries: Option<String>,
    /// The rows' arguments: typed, or verified JSON for every row, as an imported catalog
    #[arg(long, value_enum, default_value_t = Arguments::Typed)]
    arguments: Arguments,
}

/// How the generated rows take their arguments (`gen-catalog` and `bench-scale`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Arguments {
    /// Typed parameters, as a hand-written catalog
    Typed,
    /// Verified JSON, as an imported catalog
    Json,
}

/// `--tools N`: a size the generator can make.
fn tools(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (3..=MAX_TOOLS).contains(&n) => Ok(n),
        _ => Err(format!("give a whole number from 3 to {MAX_TOOLS}")),
    }
}

/// `gen-catalog --tools N --out FILE [--seed S] [--queries FILE] [--arguments typed|json]`.
pub fn run(args: &Args) -> Result<ExitCode, Usage> {
    let (tools, seed, out) = (args.tools, args.seed, args.out.as_str());
    let mut g = catalog(tools, seed);
    if args.arguments == Arguments::Json {
        g.toml = json_arguments(&g.toml);
    }
    let queries = args.queries.as_deref();
    for (path, text) in std::iter::once((out, &g.toml)).chain(queries.map(|q| (q, &g.queries))) {
        std::fs::write(path, text).map_err(|e| Usage(format!("cannot write `{path}`: {e}")))?;
    }
    println!(
        "{out}: {tools} tools, seed {seed}{}",
        queries.map_or(String::new(), |q| format!(
            "; {q}: {} requests",
            g.query_count
        ))
    );
    Ok(ExitCode::SUCCESS)
}

/// The same catalog with every row's arguments as verified JSON (`[settings] arguments =
/// "json"`), as an imported catalog has them.
pub fn json_arguments(toml: &str) -> String {
    toml.replacen(
        "ask-tool = \"ask\"\n",
        "ask-tool = \"ask\"\narguments = \"json\"\n",
        1,
    )
}

/// A deterministic stream of numbers (splitmix64): the generator must not depend on a
/// crate's algorithm changing between versions.
pub struct Rng(u64);

impl Rng {
    /// A stream for one seed.
    #[must_use]
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        #[allow(clippy::cast_possible_truncation)] // the result is below n
        let r = ((u128::from(self.next_u64()) * n as u128) >> 64) as usize;
        r
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// What a verb does to data: it decides the row's effect and tier.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Effect {
    Read,
    Stage,
    Destroy,
}

/// A verb: the name word, the description's form, what people say instead.
struct Verb {
    word: &'static str,
    does: &'static str,
    said: &'static [&'static str],
    effect: Effect,
}

#[rustfmt::skip] // one row a line: the vocabulary reads as a table
const VERBS: &[Verb] = &[
    Verb { word: "get", does: "Returns", said: &["show me", "look up", "fetch"], effect: Effect::Read },
    Verb { word: "list", does: "Lists", said: &["list all", "show every", "what are the"], effect: Effect::Read },
    Verb { word: "search", does: "Searches", said: &["find", "look for", "search for"], effect: Effect::Read },
    Verb { word: "count", does: "Counts", said: &["how many", "count the", "number of"], effect: Effect::Read },
    Verb { word: "summarize", does: "Summarizes", said: &["give me a summary of", "sum up", "overview of"], effect: Effect::Read },
    Verb { word: "compare", does: "Compares", said: &["compare", "what changed between", "diff"], effect: Effect::Read },
    Verb { word: "export", does: "Exports", said: &["download", "export", "save a copy of"], effect: Effect::Read },
    Verb { word: "validate", does: "Validates", said: &["check", "verify", "is it valid"], effect: Effect::Read },
    Verb { word: "analyze", does: "Analyzes", said: &["analyse", "look into", "insights on"], effect: Effect::Read },
    Verb { word: "calculate", does: "Calculates", said: &["work out", "compute", "calculate"], effect: Effect::Read },
    Verb { word: "watch", does: "Watches", said: &["keep an eye on", "monitor", "follow"], effect: Effect::Read },
    Verb { word: "create", does: "Creates", said: &["make a new", "add a", "create a"], effect: Effect::Stage },
    Verb { word: "update", does: "Updates", said: &["change", "edit", "modify"], effect: Effect::Stage },
    Verb { word: "tag", does: "Tags", said: &["label", "mark", "tag"], effect: Effect::Stage },
    Verb { word: "assign", does: "Assigns", said: &["hand over", "give", "assign"], effect: Effect::Stage },
    Verb { word: "plan", does: "Plans", said: &["book", "set up a time for", "plan"], effect: Effect::Stage },
    Verb { word: "import", does: "Imports", said: &["load", "bring in", "upload"], effect: Effect::Stage },
    Verb { word: "move", does: "Moves", said: &["relocate", "move", "put elsewhere"], effect: Effect::Stage },
    Verb { word: "copy", does: "Copies", said: &["duplicate", "clone", "copy"], effect: Effect::Stage },
    Verb { word: "merge", does: "Merges", said: &["combine", "join together", "merge"], effect: Effect::Stage },
    Verb { word: "archive", does: "Archives", said: &["put away", "archive", "shelve"], effect: Effect::Stage },
    Verb { word: "restore", does: "Restores", said: &["bring back", "undelete", "recover"], effect: Effect::Stage },
    Verb { word: "share", does: "Shares", said: &["send a link to", "share", "give access to"], effect: Effect::Stage },
    Verb { word: "sync", does: "Synchronizes", said: &["bring up to date", "refresh", "sync"], effect: Effect::Stage },
    Verb { word: "delete", does: "Deletes", said: &["remove", "get rid of", "erase"], effect: Effect::Destroy },
    Verb { word: "cancel", does: "Cancels", said: &["call off", "abort", "stop"], effect: Effect::Destroy },
    Verb { word: "approve", does: "Approves", said: &["sign off", "accept", "okay"], effect: Effect::Destroy },
    Verb { word: "publish", does: "Publishes", said: &["make public", "release", "go live with"], effect: Effect::Destroy },
    Verb { word: "purge", does: "Purges", said: &["wipe", "clear out", "permanently remove"], effect: Effect::Destroy },
    Verb { word: "revoke", does: "Revokes", said: &["take away", "withdraw", "pull back"], effect: Effect::Destroy },
];

/// A domain: its name word, how people write it, and the things it holds.
struct Domain {
    word: &'static str,
    label: &'static str,
    objects: &'static [&'static str],
}

#[rustfmt::skip] // one row a line: the vocabulary reads as a table
const DOMAINS: &[Domain] = &[
    Domain { word: "github", label: "GitHub", objects: &["issue", "repository", "commit", "release", "workflow", "gist"] },
    Domain { word: "gitlab", label: "GitLab", objects: &["pipeline", "runner", "milestone", "snippet", "branch", "epic"] },
    Domain { word: "jira", label: "Jira", objects: &["ticket", "sprint", "board", "worklog", "component", "version"] },
    Domain { word: "slack", label: "Slack", objects: &["channel", "message", "thread", "reaction", "reminder", "emoji"] },
    Domain { word: "gmail", label: "Gmail", objects: &["email", "draft", "label", "attachment", "contact", "signature"] },
    Domain { word: "calendar", label: "the calendar", objects: &["event", "meeting", "invitation", "room", "availability", "holiday"] },
    Domain { word: "drive", label: "the shared drive", objects: &["file", "folder", "document", "spreadsheet", "presentation", "permission"] },
    Domain { word: "crm", label: "the CRM", objects: &["lead", "deal", "account", "opportunity", "campaign", "note"] },
    Domain { word: "billing", label: "billing", objects: &["invoice", "subscription", "refund", "coupon", "payment", "plan"] },
    Domain { word: "weather", label: "the weather service", objects: &["forecast", "alert", "station", "observation", "radar", "pollen"] },
    Domain { word: "maps", label: "maps", objects: &["route", "place", "geocode", "distance", "traffic", "elevation"] },
    Domain { word: "stocks", label: "the stock market", objects: &["quote", "dividend", "earnings", "portfolio", "ticker", "split"] },
    Domain { word: "crypto", label: "the crypto exchange", objects: &["wallet", "transfer", "price", "token", "trade", "fee"] },
    Domain { word: "recipes", label: "the recipe book", objects: &["recipe", "ingredient", "nutrition", "menu", "cuisine", "shopping"] },
    Domain { word: "flights", label: "flight booking", objects: &["flight", "booking", "seat", "airport", "fare", "baggage"] },
    Domain { word: "hotels", label: "hotel booking", objects: &["hotel", "reservation", "amenity", "review", "rate", "guest"] },
    Domain { word: "music", label: "the music library", objects: &["playlist", "track", "album", "artist", "podcast", "lyric"] },
    Domain { word: "geometry", label: "geometry", objects: &["triangle", "circle", "polygon", "area", "perimeter", "angle"] },
    Domain { word: "physics", label: "physics", objects: &["velocity", "force", "energy", "momentum", "pressure", "wavelength"] },
    Domain { word: "chemistry", label: "chemistry", objects: &["molecule", "reaction", "element", "compound", "molarity", "isotope"] },
    Domain { word: "finance", label: "personal finance", objects: &["loan", "mortgage", "interest", "budget", "expense", "savings"] },
    Domain { word: "tax", label: "tax filing", objects: &["return", "deduction", "bracket", "receipt", "credit", "withholding"] },
    Domain { word: "sports", label: "sports results", objects: &["match", "team", "player", "standing", "score", "league"] },
    Domain { word: "movies", label: "the movie database", objects: &["movie", "showtime", "actor", "trailer", "rating", "cinema"] },
    Domain { word: "news", label: "the news feed", objects: &["article", "headline", "source", "topic", "digest", "author"] },
    Domain { word: "kubernetes", label: "Kubernetes", objects: &["pod", "deployment", "service", "namespace", "secret", "node"] },
    Domain { word: "docker", label: "Docker", objects: &["container", "image", "volume", "network", "registry", "layer"] },
    Domain { word: "storage", label: "object storage", objects: &["bucket", "object", "lifecycle", "upload", "quota", "policy"] },
    Domain { word: "database", label: "the database", objects: &["table", "column", "row", "view", "backup", "migration"] },
    Domain { word: "analytics", label: "web analytics", objects: &["pageview", "funnel", "cohort", "dashboard", "metric", "segment"] },
    Domain { word: "hr", label: "the HR system", objects: &["employee", "leave", "payslip", "position", "candidate", "review"] },
    Domain { word: "inventory", label: "the inventory", objects: &["product", "stock", "warehouse", "supplier", "shipment", "barcode"] },
    Domain { word: "support", label: "the help desk", objects: &["case", "macro", "queue", "agent", "survey", "article"] },
    Domain { word: "wiki", label: "the wiki", objects: &["page", "space", "comment", "revision", "template", "link"] },
    Domain { word: "security", label: "security monitoring", objects: &["incident", "vulnerability", "certificate", "key", "scan", "audit"] },
    Domain { word: "iot", label: "the smart home", objects: &["device", "sensor", "thermostat", "light", "lock", "scene"] },
    Domain { word: "health", label: "health records", objects: &["appointment", "prescription", "allergy", "vaccination", "symptom", "lab"] },
    Domain { word: "education", label: "the learning platform", objects: &["course", "lesson", "quiz", "grade", "assignment", "student"] },
    Domain { word: "translate", label: "translation", objects: &["text", "glossary", "language", "subtitle", "phrase", "dictionary"] },
    Domain { word: "shop", label: "the web shop", objects: &["cart", "purchase", "discount", "wishlist", "checkout", "catalogue"] },
];

/// A qualifier narrows a row: name word (may be empty), description phrase, request phrase.
#[rustfmt::skip] // one row a line: the vocabulary reads as a table
const QUALIFIERS: &[(&str, &str, &str)] = &[
    ("", "", ""),
    ("", "", ""),
    ("byId", " by its id", "with id"),
    ("recent", " changed in the last days", "recent"),
    ("batch", ", several at once", "several"),
    ("history", " with their change history", "history of"),
    ("details", " with every detail", "details of"),
    ("stats", " as statistics", "statistics for"),
    ("settings", " and their settings", "settings of"),
    ("access", " and who can access them", "who can access"),
    ("owned", " that you own", "my own"),
    ("shared", " shared with you", "shared"),
];

/// Words that start the parameter names of enum, object and array-of-those parameters:
/// the only parameters with generated types. None may occur in a tool name.
#[cfg(test)]
const TYPED_WORDS: &[&str] = &[
    "format", "order", "sort", "priority", "units", "period", "level", "mode", "scope", "region",
    "filter", "options", "range", "location", "fields", "entries", "kind",
];

/// Fills `{o}` (the object) and `{o}s` (its plural) in a text.
fn fill(text: &str, object: &str) -> String {
    text.replace("{o}s", &plural(object)).replace("{o}", object)
}

/// A parameter's TOML, written into `[tool.params]` (`inline`) or as its own table.
enum Param {
    Inline(String, String),
    Table(String, String),
}

/// One parameter of a row, from the pool of shapes.
#[allow(clippy::too_many_lines)] // the pool of shapes reads best as one table
fn param(rng: &mut Rng, object: &str) -> Param {
    let objects = plural(object);
    let optional = rng.chance(40);
    let req = if optional { ", required = false" } else { "" };
    match rng.below(12) {
        0 => {
            let (name, desc) = *rng.pick(&[
                ("query", "Text to match against {o} titles and contents."),
                ("name", "Display name of the {o}."),
                ("owner", "User name or email of whoever owns the {o}."),
                (
                    "note",
                    "A short note kept with the change, for the audit log.",
                ),
                ("url", "Web address of the {o}, as shown in the browser."),
                ("path", "Folder path, slash separated, e.g. team/reports."),
            ]);
            Param::Inline(
                name.into(),
                format!(
                    "{{ type = \"string\"{req}, description = \"{}\" }}",
                    fill(desc, object)
                ),
            )
        }
        1 => Param::Inline(
            format!("{object}Id"),
            format!(
                "{{ type = \"string\", description = \"Id of the {object}, as returned by the list call.\" }}"
            ),
        ),
        2 => {
            let (name, desc) = *rng.pick(&[
                (
                    "startDate",
                    "First day of the period, ISO 8601 (2025-03-01).",
                ),
                ("endDate", "Last day of the period, inclusive, ISO 8601."),
                (
                    "timezone",
                    "IANA time zone, e.g. Europe/Berlin; the user's by default.",
                ),
                ("language", "Language code such as en, de or ja."),
                ("currency", "ISO 4217 currency code, e.g. EUR or USD."),
            ]);
            Param::Inline(
                name.into(),
                format!("{{ type = \"string\", required = false, description = \"{desc}\" }}"),
            )
        }
        3 => {
            let (name, lo, hi, def, desc) = *rng.pick(&[
                ("limit", 1, 100, 20, "Most results to return."),
                ("offset", 0, 100_000, 0, "Results to skip, for paging."),
                ("days", 1, 365, 7, "How many days back to look."),
                (
                    "timeoutSeconds",
                    1,
                    3600,
                    30,
                    "Give up after this many seconds.",
                ),
                ("year", 1900, 2100, 2025, "Calendar year."),
            ]);
            let default = if optional {
                format!(", default = {def}")
            } else {
                String::new()
            };
            Param::Inline(
                name.into(),
                format!(
                    "{{ type = \"integer\", minimum = {lo}, maximum = {hi}{default}, description = \"{desc}\" }}"
                ),
            )
        }
        4 => {
            let (name, bounds, desc) = *rng.pick(&[
                (
                    "amount",
                    "minimum = 0.0",
                    "Amount in the account's currency.",
                ),
                (
                    "threshold",
                    "minimum = 0.0, maximum = 1.0",
                    "Score a match needs, from 0 to 1.",
                ),
                (
                    "latitude",
                    "minimum = -90.0, maximum = 90.0",
                    "Latitude in degrees.",
                ),
                (
                    "longitude",
                    "minimum = -180.0, maximum = 180.0",
                    "Longitude in degrees.",
                ),
                ("radiusKm", "minimum = 0.0", "Search radius in kilometres."),
            ]);
            Param::Inline(
                name.into(),
                format!("{{ type = \"number\", {bounds}{req}, description = \"{desc}\" }}"),
            )
        }
        5 => {
            let (name, desc) = *rng.pick(&[
                ("includeArchived", "Also return archived {o}s."),
                (
                    "dryRun",
                    "Report what would change without changing anything.",
                ),
                ("notify", "Tell the people involved by email."),
                ("recursive", "Include everything nested below."),
                ("caseSensitive", "Match upper and lower case exactly."),
            ]);
            let default = if rng.chance(50) {
                ", default = false"
            } else {
                req
            };
            Param::Inline(
                name.into(),
                format!(
                    "{{ type = \"boolean\"{default}, description = \"{}\" }}",
                    fill(desc, object)
                ),
            )
        }
        6 => {
            let (name, desc) = *rng.pick(&[
                ("tags", "Tags to match; a {o} needs all of them."),
                ("ids", "Ids of the {o}s to act on."),
                ("recipients", "Email addresses to send it to."),
            ]);
            Param::Inline(
                name.into(),
                format!(
                    "{{ type = \"array\", items = {{ type = \"string\" }}{req}, description = \"{}\" }}",
                    fill(desc, object)
                ),
            )
        }
        7 | 8 => {
            let (name, values, desc) = *rng.pick(&[
                (
                    "format",
                    &["json", "csv", "xml", "pdf", "markdown"][..],
                    "File format of the result.",
                ),
                ("order", &["asc", "desc"][..], "Sort direction."),
                (
                    "sort",
                    &["newest", "oldest", "relevance", "name"][..],
                    "How to rank the {o}s.",
                ),
                (
                    "priority",
                    &["low", "normal", "high", "urgent"][..],
                    "How urgent the {o} is.",
                ),
                (
                    "units",
                    &["metric", "imperial"][..],
                    "Units of measurement for the result.",
                ),
                (
                    "period",
                    &["day", "week", "month", "quarter", "year"][..],
                    "Length of each time bucket.",
                ),
                (
                    "level",
                    &["debug", "info", "warning", "error"][..],
                    "Lowest severity to include.",
                ),
                (
                    "mode",
                    &["append", "replace", "upsert"][..],
                    "What to do with existing {o}s.",
                ),
                (
                    "scope",
                    &["mine", "team", "everyone"][..],
                    "Whose {o}s to include.",
                ),
                ("region", &["us", "eu", "apac"][..], "Data region to use."),
            ]);
            let list = values
                .iter()
                .map(|v| format!("\"{v}\""))
                .collect::<Vec<_>>()
                .join(", ");
            let default = if optional {
                format!(", default = \"{}\"", values[rng.below(values.len())])
            } else {
                String::new()
            };
            Param::Inline(
                name.into(),
                format!(
                    "{{ type = \"string\", enum = [{list}]{default}, description = \"{}\" }}",
                    fill(desc, object)
                ),
            )
        }
        9 => Param::Inline(
            "fields".into(),
            format!(
                "{{ type = \"array\", items = {{ type = \"string\", enum = [\"id\", \"name\", \"created\", \"updated\", \"owner\"] }}, required = false, description = \"Which fields of each {object} to return; all when left out.\" }}"
            ),
        ),
        10 => {
            let (name, body) = match rng.below(3) {
                0 => ("filter", format!(
                    "type = \"object\"\nrequired = false\ndescription = \"Narrows the {objects} returned.\"\nproperties.state = {{ type = \"string\", enum = [\"open\", \"closed\", \"all\"], default = \"open\" }}\nproperties.author = {{ type = \"string\", required = false, description = \"Who created the {object}.\" }}\nproperties.createdAfter = {{ type = \"string\", required = false, description = \"ISO 8601 date.\" }}\n"
                )),
                1 => ("options", "type = \"object\"\nrequired = false\ndescription = \"How the call behaves.\"\nproperties.retries = { type = \"integer\", minimum = 0, maximum = 5, default = 1 }\nproperties.verbose = { type = \"boolean\", default = false, description = \"Return every step taken.\" }\n".into()),
                _ => ("location", "type = \"object\"\ndescription = \"A point on the map.\"\nproperties.latitude = { type = \"number\", minimum = -90.0, maximum = 90.0 }\nproperties.longitude = { type = \"number\", minimum = -180.0, maximum = 180.0 }\nproperties.label = { type = \"string\", required = false }\n".into()),
            };
            Param::Table(name.into(), body)
        }
        _ => Param::Table(
            "entries".into(),
            format!(
                "type = \"array\"\ndescription = \"The {objects} to write, one entry each.\"\nitems.type = \"object\"\nitems.properties.name = {{ type = \"string\" }}\nitems.properties.quantity = {{ type = \"integer\", minimum = 1, default = 1 }}\nitems.properties.kind = {{ type = \"string\", enum = [\"standard\", \"express\"], required = false }}\n"
            ),
        ),
    }
}

/// `get` `issue` → `getIssue`: each further word capitalised.
fn camel(words: &[&str]) -> String {
    let mut out = String::new();
    for (i, w) in words.iter().filter(|w| !w.is_empty()).enumerate() {
        if i == 0 {
            out.push_str(w);
        } else {
            let mut c = w.chars();
            if let Some(first) = c.next() {
                out.extend(first.to_uppercase());
                out.push_str(c.as_str());
            }
        }
    }
    out
}

/// `byId` → `by_id`.
fn snake(word: &str) -> String {
    let mut out = String::new();
    for c in word.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The identity two names share when they would become the same Rust identifier.
fn ident_key(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A TOML basic string.
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A generated catalog and requests to search it by.
pub struct Generated {
    /// The catalog's TOML text.
    pub toml: String,
    /// One request a line, `{"id","query","expected"}`, as `eval-search` reads.
    pub queries: String,
    /// How many requests `queries` holds.
    pub query_count: usize,
}

/// Rows the vocabulary makes: every (domain, verb, object, qualifier), plus the search
/// and ask tools.
pub const MAX_TOOLS: usize = 30 * 40 * 6 * 11 + 2;

/// Requests at most, whatever the size: enough for a stable median and p99.
pub const MAX_QUERIES: usize = 1000;

/// A valid catalog of `tools` rows (the search and ask tools included; at least 3),
/// the same for the same `seed`.
///
/// # Panics
/// When `tools` is below 3, or above the number of distinct rows the vocabulary makes.
#[must_use]
pub fn catalog(tools: usize, seed: u64) -> Generated {
    assert!(
        tools >= 3,
        "a catalog needs the search tool, the ask tool and one more"
    );
    let mut rng = Rng::new(seed);
    let mut toml = String::with_capacity(tools * 900);
    let _ = write!(
        toml,
        "# A synthetic catalog: `cargo xtask gen-catalog --tools {tools} --seed {seed}`.\n\n\
         [settings]\nsearch-tool = \"searchTools\"\nask-tool = \"ask\"\n\n\
         [[tool]]\nname = \"searchTools\"\n\
         description = \"Finds tools by what they do and adds the best matches to your tool list.\"\n\
         visibility = \"inline\"\nmcp = false\n[tool.params]\n\
         query = {{ type = \"string\", description = \"The action you need, in a few words.\" }}\n\n\
         [[tool]]\nname = \"ask\"\n\
         description = \"Asks the user a clarifying question and waits for the answer.\"\n\
         visibility = \"inline\"\neffect = \"reads\"\ntier = \"silent\"\nmcp = false\n\
         [tool.params]\nquestion = {{ type = \"string\", description = \"One short question.\" }}\n"
    );
    let mut used_rows = HashSet::new();
    let mut used_names: HashSet<String> = ["searchtools".to_string(), "ask".to_string()].into();
    let mut rows = Vec::with_capacity(tools);
    assert!(
        tools <= MAX_TOOLS,
        "at most {MAX_TOOLS} rows can be generated"
    );
    let mut written = 0;
    while written < tools - 2 {
        let di = rng.below(DOMAINS.len());
        let vi = rng.below(VERBS.len());
        let oi = rng.below(DOMAINS[di].objects.len());
        // The two empty qualifiers are one: a plain row is twice as likely as any other.
        let qi = rng.below(QUALIFIERS.len()).max(1) - 1;
        if !used_rows.insert((di, vi, oi, qi)) {
            continue;
        }
        let (domain, verb, object) = (&DOMAINS[di], &VERBS[vi], DOMAINS[di].objects[oi]);
        let qual = QUALIFIERS[qi + 1];
        let mut name = match rng.below(10) {
            0..=3 => camel(&[domain.word, verb.word, object, qual.0]),
            4 | 5 => camel(&[verb.word, object, qual.0]),
            6 | 7 => [domain.word, object, verb.word, &snake(qual.0)]
                .iter()
                .filter(|w| !w.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join("."),
            _ => [domain.word, verb.word, object, &snake(qual.0)]
                .iter()
                .filter(|w| !w.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join("_"),
        };
        if used_names.contains(&ident_key(&name)) {
            name = camel(&[domain.word, verb.word, object, qual.0]);
        }
        let mut n = 2;
        let base = name.clone();
        while !used_names.insert(ident_key(&name)) {
            name = format!("{base}{n}");
            n += 1;
        }
        written += 1;
        // Requests are for what a search returns: discoverable rows.
        if write_row(&mut toml, &mut rng, &name, domain, verb, object, qual)
            == Visibility::Discoverable
        {
            rows.push((name, di, vi, oi, qi));
        }
    }

    let (queries, query_count) = requests(&rows, seed);
    Generated {
        toml,
        queries,
        query_count,
    }
}

/// Requests paraphrasing rows spread evenly over the catalog, one JSON line each.
fn requests(rows: &[(String, usize, usize, usize, usize)], seed: u64) -> (String, usize) {
    let query_count = MAX_QUERIES.min(rows.len());
    let mut queries = String::new();
    // Its own stream, so the requests do not shift when a row's shape changes.
    let mut qrng = Rng::new(!seed);
    for i in 0..query_count {
        // Evenly spread over the rows, so every part of the catalog is asked for.
        let (name, d, v, o, q) = &rows[i * rows.len() / query_count];
        let (domain, verb) = (&DOMAINS[*d], &VERBS[*v]);
        let object = domain.objects[*o];
        let qual = QUALIFIERS[q + 1].2;
        let lead = *qrng.pick(&["", "", "please ", "can you ", "I need to ", "could you "]);
        let said = qrng.pick(verb.said);
        let object = if qrng.chance(50) {
            plural(object)
        } else {
            object.to_string()
        };
        let place = *qrng.pick(&["in", "on", "from", "using"]);
        let mut query = format!("{lead}{said} {qual} {object} {place} {}", domain.label);
        if qrng.chance(30) {
            let tail = *qrng.pick(&[
                " for last week",
                " as csv",
                " for the team",
                " right now",
                " again",
            ]);
            query.push_str(tail);
        }
        let query = query.split_whitespace().collect::<Vec<_>>().join(" ");
        let line =
            serde_json::json!({"id": format!("gen-{i}"), "query": query, "expected": [name]});
        let _ = writeln!(queries, "{line}");
    }
    (queries, query_count)
}

#[allow(clippy::too_many_lines)] // one row's keys, in the order the file shows them
fn write_row(
    toml: &mut String,
    rng: &mut Rng,
    name: &str,
    domain: &Domain,
    verb: &Verb,
    object: &str,
    qual: (&str, &str, &str),
) -> Visibility {
    let qual_desc = qual.1;
    let article = if object.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    let many = matches!(
        verb.word,
        "list" | "search" | "count" | "export" | "summarize"
    );
    let (obj_phrase, verb_lower) = (
        if many {
            plural(object)
        } else {
            format!("{article} {object}")
        },
        verb.does.to_lowercase(),
    );
    let mut description = match rng.below(4) {
        0 => format!("{} {obj_phrase}{qual_desc} in {}.", verb.does, domain.label),
        1 => format!(
            "{}: {verb_lower} {obj_phrase}{qual_desc}.",
            capitalise(domain.label)
        ),
        2 => format!(
            "Use this to {} {obj_phrase}{qual_desc} in {}.",
            verb.word, domain.label
        ),
        _ => format!(
            "{} {obj_phrase}{qual_desc}; works on {}.",
            verb.does, domain.label
        ),
    };
    description.push_str(match (verb.effect, rng.below(3)) {
        (Effect::Read, 0) => " Read-only: safe to call at any time.",
        (Effect::Read, 1) => " Results come back newest first.",
        (Effect::Stage, 0) => " The change is staged for the user to review.",
        (Effect::Stage, 1) => " Fails when the target does not exist.",
        (Effect::Destroy, 0) => " This cannot be undone; the user approves it first.",
        (Effect::Destroy, 1) => " Everyone involved is told.",
        _ => "",
    });
    let _ = writeln!(
        toml,
        "\n[[tool]]\nname = {}\ndescription = {}",
        quoted(name),
        quoted(&description)
    );
    if rng.chance(60) {
        let mut keywords = vec![plural(object)];
        if rng.chance(50) {
            keywords.push((*rng.pick(verb.said)).to_string());
        }
        if rng.chance(30) {
            keywords.push(format!("{} {object}", domain.word));
        }
        let list = keywords
            .iter()
            .map(|k| quoted(k))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(toml, "keywords = [{list}]");
    }
    if rng.chance(25) {
        let said = *rng.pick(verb.said);
        let example = format!("{} the {object} in {}", capitalise(said), domain.label);
        let _ = writeln!(toml, "examples = [{}]", quoted(&example));
    }
    let visibility = if rng.chance(3) {
        Visibility::Inline
    } else {
        Visibility::Discoverable
    };
    let (tier, effect) = match verb.effect {
        Effect::Read if rng.chance(90) => ("silent", "reads"),
        Effect::Read => ("gated", "reads"),
        Effect::Stage if rng.chance(70) => ("silent", "stages"),
        Effect::Stage => ("gated", "stages"),
        Effect::Destroy => ("gated", "acts"),
    };
    let _ = writeln!(
        toml,
        "visibility = \"{}\"\neffect = \"{effect}\"\ntier = \"{tier}\"",
        match visibility {
            Visibility::Inline => "inline",
            Visibility::Discoverable => "discoverable",
        }
    );
    if rng.chance(5) {
        toml.push_str("mcp = false\n");
    }
    let count = [0, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6][rng.below(11)];
    let mut seen = HashSet::new();
    let (mut inline, mut tables) = (Vec::new(), Vec::new());
    for _ in 0..count {
        match param(rng, object) {
            Param::Inline(n, body) if seen.insert(ident_key(&n)) => inline.push((n, body)),
            Param::Table(n, body) if seen.insert(ident_key(&n)) => tables.push((n, body)),
            _ => {}
        }
    }
    if !inline.is_empty() {
        toml.push_str("[tool.params]\n");
        for (n, body) in inline {
            let _ = writeln!(toml, "{n} = {body}");
        }
    }
    for (n, body) in tables {
        let _ = write!(toml, "[tool.params.{n}]\n{body}");
    }
    visibility
}

/// `issue` → `issues`, `registry` → `registries`, `match` → `matches`.
fn plural(word: &str) -> String {
    if let Some(stem) = word.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        format!("{stem}ies")
    } else if word.ends_with(['s', 'x']) || word.ends_with("ch") || word.ends_with("sh") {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
