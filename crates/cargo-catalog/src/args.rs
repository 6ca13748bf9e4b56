//! The command line, as clap parses it: the commands, their options and the values each
//! takes, with the help that `--help` prints; and the error that means "unusable
//! arguments" (exit code 2) when a command finds it only while it runs.

use std::fmt;

use catalog_core::Access;
use catalog_core::search::Weights;
use catalog_wire::render::ToolSearch;
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Unusable arguments that a command finds while it runs: a file that cannot be read, an
/// option that does not go with another. Reported as clap reports its own (with the
/// command's usage) by [`crate::main`], with exit code 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Usage(pub String);

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// The help of an option that talks to live MCP servers; marked when the build lacks the
/// `upstreams` feature, which the option then asks for.
#[cfg(feature = "upstreams")]
macro_rules! upstreams {
    ($help:literal) => {
        $help
    };
}
#[cfg(not(feature = "upstreams"))]
macro_rules! upstreams {
    ($help:literal) => {
        concat!($help, " [needs the `upstreams` feature]")
    };
}

/// How a build without the `upstreams` feature answers an option that needs it.
#[cfg(not(feature = "upstreams"))]
pub(crate) fn needs_upstreams(option: &str) -> Usage {
    Usage(format!(
        "`{option}` talks to MCP servers, which this build of cargo-catalog leaves out: install it with {}",
        install_with!("upstreams")
    ))
}

/// `cargo catalog`, as cargo runs it: the catalog commands, and the completions of its own
/// command line.
#[derive(Debug, Parser)]
#[command(
    name = "cargo-catalog",
    bin_name = "cargo catalog",
    version,
    about = "Check, expand, import, render and search a catalog.toml, with the compiler the `catalog!` macro uses",
    after_help = "--catalog defaults to catalog.toml in the current directory or, as cargo finds Cargo.toml, the nearest directory above it that has one.
Exit codes: 0 success, 1 the catalog or an input has errors, 2 unusable arguments.",
    // No command is an error that lists the commands, not the whole help.
    arg_required_else_help = false
)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) program: Program,
}

/// What `cargo catalog` runs.
#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once a run
pub(crate) enum Program {
    #[command(flatten)]
    Catalog(Command),
    /// Print the completion script of `cargo-catalog` for a shell
    ///
    /// Bash: `cargo catalog completions bash > ~/.local/share/bash-completion/completions/cargo-catalog`;
    /// zsh: into a folder of `$fpath` as `_cargo-catalog`; fish: into
    /// `~/.config/fish/completions/cargo-catalog.fish`. The script completes the commands
    /// and options of `cargo-catalog`, as run directly.
    Completions {
        /// The shell to complete in
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// The catalog commands, for a program to run under its own name with its own
/// [`Defaults`](crate::Defaults) (a repository's `cargo xtask`): flatten this enum into its
/// clap subcommands, or give each command's arguments ([`Check`], ...) a variant of its own.
/// Each variant is the command of the same name, documented by its arguments' struct.
// A variant's doc comment would replace the command's help, which clap takes from the
// arguments' struct when the variant says nothing.
#[allow(missing_docs)]
#[derive(Debug, Subcommand)]
pub enum Command {
    Check(Check),
    Expand(Expand),
    Import(Import),
    Search(Search),
    Render(Render),
    EvalSearch(EvalSearch),
    EvalAgent(EvalAgent),
    Embed(Embed),
}

impl Command {
    /// The command's name on the command line of `cargo catalog`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Command::Check(_) => "check",
            Command::Expand(_) => "expand",
            Command::Import(_) => "import",
            Command::Search(_) => "search",
            Command::Render(_) => "render",
            Command::EvalSearch(_) => "eval-search",
            Command::EvalAgent(_) => "eval-agent",
            Command::Embed(_) => "embed",
        }
    }
}

// `--catalog PATH`, which every command but `import` reads. (A doc comment here would be
// the help of the commands that flatten it.)
#[derive(Clone, Debug, Args)]
pub(crate) struct CatalogPath {
    /// The catalog to read, instead of catalog.toml here or in the nearest directory above
    #[arg(id = "catalog", long = "catalog", value_name = "PATH")]
    pub(crate) path: Option<String>,
}

/// Validate a catalog and run its lints
///
/// Prints every error and warning, what the catalog declares, the tokens of its tool lists,
/// what search reaches, and a table of the lints. Exit 1 when the catalog breaks a rule or
/// a denied lint finds something.
#[derive(Debug, Args)]
pub struct Check {
    #[command(flatten)]
    pub(crate) catalog: CatalogPath,
    /// How to print the verdict
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    #[arg(
        long,
        help = upstreams!("Also compare each row pinned to an [[upstream]] with what that server lists now, naming each changed field (exit 1 on drift, as a gateway withholds it)")
    )]
    pub(crate) upstreams: bool,
}

/// Print the Rust code that `catalog!` generates for a catalog, formatted
#[derive(Debug, Args)]
pub struct Expand {
    #[command(flatten)]
    pub(crate) catalog: CatalogPath,
}

/// Turn an MCP tools/list result, or a live MCP server's tools, into catalog rows
///
/// `--from mcp FILE --out PATH` reads a tools/list result (JSON). `--from-server -- COMMAND
/// [ARGS...]` starts a server over stdio; `--from-url URL` reaches one at a streamable HTTP
/// URL. Reports what was mapped how. `--out` writes a new catalog; `--into` appends the
/// server's `[[upstream]]` table and rows to an existing one, leaving its text as it is
/// (names that collide get `--prefix`). Rows from a server record it and pin each tool's
/// definition with a digest; the definitions go to PATH's .upstreams.json, to name what
/// changes later. Import into the same catalog again to accept a server's changes.
#[derive(Debug, Args)]
#[command(group(
    clap::ArgGroup::new("source")
        .required(true)
        .args(["from", "from_server", "from_url"])
))]
#[command(group(clap::ArgGroup::new("server").args(["from_server", "from_url"])))]
#[command(group(clap::ArgGroup::new("target").required(true).args(["out", "into"])))]
pub struct Import {
    /// Read FILE, a tools/list result in this format
    #[arg(
        long,
        value_enum,
        value_name = "FORMAT",
        requires = "file",
        conflicts_with = "into"
    )]
    pub(crate) from: Option<Source>,
    /// The file to read, with `--from`
    #[arg(value_name = "FILE", conflicts_with = "server")]
    pub(crate) file: Option<String>,
    #[arg(
        long,
        requires = "command",
        help = upstreams!("Import a server that the command after `--` starts, over stdio")
    )]
    pub(crate) from_server: bool,
    #[arg(
        long,
        value_name = "URL",
        value_parser = http_url,
        help = upstreams!("Import the server at this streamable HTTP URL")
    )]
    pub(crate) from_url: Option<String>,
    /// The server's name in the catalog [default: the program's file name, or the URL's host]
    #[arg(long, value_name = "NAME", requires = "server")]
    pub(crate) name: Option<String>,
    /// A prefix for the server's tools and prompts whose names the catalog has already
    #[arg(long, value_name = "P", requires = "server")]
    pub(crate) prefix: Option<String>,
    /// Write a new catalog here
    #[arg(long, value_name = "PATH")]
    pub(crate) out: Option<String>,
    /// Add the server to this catalog, or import it again
    #[arg(long, value_name = "PATH", requires = "server")]
    pub(crate) into: Option<String>,
    /// The server's command line, after `--`: the program and its arguments
    // `requires = "from_server"` would be met by the flag's default, `false`: the group is
    // met only by a flag given.
    #[arg(
        last = true,
        value_name = "COMMAND",
        requires = "server",
        conflicts_with = "from_url"
    )]
    pub(crate) command: Vec<String>,
}

/// What `import --from` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Source {
    /// An MCP `tools/list` result
    Mcp,
}

/// The catalog's own search: ranked hits with their scores
#[derive(Debug, Args)]
pub struct Search {
    #[command(flatten)]
    pub(crate) catalog: CatalogPath,
    /// How many hits to show
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = positive)]
    pub(crate) k: usize,
    #[command(flatten)]
    pub(crate) weights: WeightsArg,
    /// Rank by the fusion of BM25F with this embedding model (a sentence-transformers folder; needs the `embed` feature)
    #[arg(long, value_name = "DIR")]
    pub(crate) model: Option<String>,
    /// The tools' vectors from `cargo catalog embed` (default: computed at start-up)
    #[arg(long, value_name = "FILE", requires = "model")]
    pub(crate) vectors: Option<String>,
    /// The request to search for, in quotes
    #[arg(value_name = "REQUEST")]
    pub(crate) request: String,
}

// `--weights W`, which `search` and `eval-search` take.
#[derive(Clone, Debug, Args)]
pub(crate) struct WeightsArg {
    /// Search weights instead of the defaults, e.g.
    /// `name=2.5,keyword=2,description=1,param_name=1,param_description=0.8,example=1,k1=2.5,b=0.75,prefix=0.3,pair=0.4`
    #[arg(long = "weights", value_name = "W", value_parser = weights)]
    pub(crate) weights: Option<Weights>,
}

/// The tools as one provider's request takes them, as pretty JSON
///
/// bedrock: the whole toolConfig; gemini: the tools array, schemas in Gemini's dialect;
/// mcp: the tools/list result at `--access`; anthropic-tool-search: discoverable tools
/// deferred, searched as `--search` says. Exit 1 when the list breaks the provider's limits.
#[derive(Debug, Args)]
pub struct Render {
    /// The provider whose request format to print
    #[arg(long, value_enum, value_name = "PROVIDER")]
    pub(crate) provider: Target,
    #[command(flatten)]
    pub(crate) catalog: CatalogPath,
    /// Which tools: the first step's active set (inline), or every tool
    #[arg(long, value_enum, default_value_t = Tools::All)]
    pub(crate) tools: Tools,
    /// With `--provider mcp`: the access level whose tools/list result to print [default: full-access]
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub(crate) access: Option<Level>,
    /// With `--provider anthropic-tool-search`: who searches the deferred tools [default: bm25]
    #[arg(long, value_enum, value_name = "SEARCH")]
    pub(crate) search: Option<Searcher>,
}

/// `render --tools`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Tools {
    /// The first step's active set: the inline tools, the search tool among them
    Inline,
    /// Every tool
    All,
}

/// `render --access`: an MCP access level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Level {
    /// Tools that only read
    ReadOnly,
    /// Tools that read or stage a change for review
    ReadAndStage,
    /// Every tool
    FullAccess,
}

impl From<Level> for Access {
    fn from(level: Level) -> Access {
        match level {
            Level::ReadOnly => Access::ReadOnly,
            Level::ReadAndStage => Access::ReadAndStage,
            Level::FullAccess => Access::FullAccess,
        }
    }
}

/// `render --search`: who searches the deferred tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Searcher {
    /// Anthropic's BM25 search tool
    Bm25,
    /// Anthropic's regex search tool
    Regex,
    /// The catalog's own search tool
    Catalog,
}

impl From<Searcher> for ToolSearch {
    fn from(searcher: Searcher) -> ToolSearch {
        match searcher {
            Searcher::Bm25 => ToolSearch::Bm25,
            Searcher::Regex => ToolSearch::Regex,
            Searcher::Catalog => ToolSearch::Catalog,
        }
    }
}

/// Recall@k, hit@k, MRR@k and median time per query of the search on a set of requests
///
/// FILE.jsonl holds one {"id", "query", "expected": [tool names]} per line. Use a release
/// build for timings.
#[derive(Debug, Args)]
pub struct EvalSearch {
    #[command(flatten)]
    pub(crate) catalog: CatalogPath,
    /// The requests, one JSON object a line
    #[arg(long, value_name = "FILE.jsonl")]
    pub(crate) queries: String,
    /// How many hits count
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = positive)]
    pub(crate) k: usize,
    /// How to print the figures
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    #[command(flatten)]
    pub(crate) weights: WeightsArg,
    /// Print the first N requests whose expected tools were not all found
    #[arg(long, value_name = "N", value_parser = positive)]
    pub(crate) show_misses: Option<usize>,
    #[command(flatten)]
    pub(crate) embedding: EmbeddingArgs,
}

// The embedding ranker's options, which `eval-search` takes.
#[derive(Clone, Debug, Args)]
pub(crate) struct EmbeddingArgs {
    /// Rank with this embedding model too (a sentence-transformers folder: config.json, model.safetensors, tokenizer.json), printing BM25F, the model alone and their fusion side by side, on the whole file and on its odd and even lines (needs the `embed` feature)
    #[arg(long, value_name = "DIR")]
    pub(crate) model: Option<String>,
    /// The tools' vectors from `cargo catalog embed` (default: computed at start-up)
    #[arg(long, value_name = "FILE", requires = "model")]
    pub(crate) vectors: Option<String>,
    /// BM25F's share of the fusion's weight, from 0 to 1, instead of the default 0.7; repeat to compare
    #[arg(long, value_name = "LEXICAL", requires = "model", value_parser = share)]
    pub(crate) fusion: Vec<f32>,
}

/// Compute the vectors of a catalog's tools with an embedding model
///
/// The vectors of the texts search reads, one per discoverable tool, for search by the
/// fusion of the model's ranking with BM25F's (`catalog_embed::Hybrid`). The file is pinned
/// to the catalog's search index and to the model: loading it after either changed is an
/// error that says to run this again. Needs the `embed` feature:
/// `cargo install --git https://github.com/tool-catalog/tool-catalog cargo-catalog --features embed`.
#[derive(Debug, Args)]
pub struct Embed {
    #[command(flatten)]
    pub(crate) catalog: CatalogPath,
    /// The model: a sentence-transformers folder (config.json, model.safetensors, tokenizer.json)
    #[arg(long, value_name = "DIR")]
    pub(crate) model: String,
    /// Where to write the vectors
    #[arg(
        long,
        value_name = "FILE",
        default_value = "catalog.vectors.safetensors"
    )]
    pub(crate) out: String,
    #[command(flatten)]
    pub(crate) weights: WeightsArg,
}

/// Run a catalog's requests through a chat provider and score each split of its tools
///
/// Each request runs through the agent step an application runs (the active set, the
/// search tool, the verifier), once per split of the rows into inline and discoverable,
/// until the model answers in text, every expected tool ran, or --steps requests are
/// spent. Handlers run nothing: a call gets the smallest value of the row's declared
/// output, or {"ok": true}; gated calls are allowed. FILE.jsonl holds one {"id", "query",
/// "expected": [tool names]} per line, as for eval-search, inline tools allowed.
///
/// The key comes from the provider's usual variable (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`,
/// `GEMINI_API_KEY`, `AWS_BEARER_TOKEN_BEDROCK` or the `AWS_*` variables); a local endpoint
/// takes any value. Replies are cached by request in --cache, so a rerun sends nothing.
///
/// Needs the `eval-agent` feature: `cargo install --git https://github.com/tool-catalog/tool-catalog cargo-catalog --features eval-agent`.
#[derive(Debug, Args)]
pub struct EvalAgent {
    #[command(flatten)]
    pub(crate) catalog: CatalogPath,
    /// The provider's API
    #[arg(long, value_enum)]
    pub(crate) provider: Api,
    /// Where the API is (default: the provider's public endpoint)
    #[arg(long, value_name = "URL")]
    pub(crate) base_url: Option<String>,
    /// The model (default: claude-sonnet-4-5, gpt-5-mini, gemini-2.5-flash, or Claude Sonnet 4.5 on Bedrock)
    #[arg(long, value_name = "NAME")]
    pub(crate) model: Option<String>,
    /// The requests, one JSON object a line
    #[arg(long, value_name = "FILE.jsonl")]
    pub(crate) requests: String,
    /// A split to score: current (as the catalog declares), all-inline, all-discoverable, or a file naming the inline tools one a line; repeat to compare
    #[arg(
        long = "split",
        value_name = "SPLIT",
        default_values = ["current", "all-inline", "all-discoverable"]
    )]
    pub(crate) splits: Vec<String>,
    /// How many times each request runs, for the spread
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = positive)]
    pub(crate) runs: usize,
    /// Requests to the model one request may take
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = positive)]
    pub(crate) steps: usize,
    /// Requests in flight at once
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = positive)]
    pub(crate) jobs: usize,
    /// The file of cached replies (delete it to ask again)
    #[arg(long, value_name = "FILE", default_value = "eval-agent.cache.jsonl")]
    pub(crate) cache: String,
    /// Send every request, and keep no reply
    #[arg(long)]
    pub(crate) no_cache: bool,
    /// Where to write the plot of accuracy against tokens, as SVG
    #[arg(long, value_name = "FILE.svg", default_value = "eval-agent.svg")]
    pub(crate) plot: String,
    /// How to print the report
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// Print every request's path, not only the failed ones'
    #[arg(long)]
    pub(crate) paths: bool,
}

/// Output format of `check`, `eval-search` and `eval-agent`.

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Text for people
    Human,
    /// One JSON document, for CI and scripts
    Json,
}

/// A whole number above zero, for options that count.
///
/// # Errors
/// Saying what the value must be.
pub fn positive(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("must be a positive whole number".into()),
    }
}

/// A share of a weight, from 0 to 1.
///
/// # Errors
/// When it is not such a number.
pub fn share(value: &str) -> Result<f32, String> {
    match value.trim().parse::<f32>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err("give a share from 0 to 1, e.g. `0.7`".into()),
    }
}

/// An `http://` URL, which `--from-url` takes.
fn http_url(value: &str) -> Result<String, String> {
    if value.starts_with("http://") {
        Ok(value.to_owned())
    } else {
        Err("give an http:// URL of a streamable HTTP endpoint".into())
    }
}

/// Field weights from `name=3,keyword=2,...` (unnamed ones keep their defaults), for
/// trying other weights on a catalog's own queries.
fn weights(spec: &str) -> Result<Weights, String> {
    let mut w = Weights::DEFAULT;
    for pair in spec.split(',').filter(|p| !p.is_empty()) {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("weight `{pair}` is not key=value"))?;
        let value: f32 = value
            .parse()
            .map_err(|_| format!("weight `{pair}` is not a number"))?;
        let slot = match key {
            "name" => &mut w.name,
            "keyword" => &mut w.keyword,
            "description" => &mut w.description,
            "param_name" => &mut w.param_name,
            "param_description" => &mut w.param_description,
            "example" => &mut w.example,
            "k1" => &mut w.k1,
            "b" => &mut w.b,
            "prefix" => &mut w.prefix,
            "pair" => &mut w.pair,
            "unigram" => &mut w.unigram,
            "hangul_unigram" => &mut w.hangul_unigram,
            "kana_unigram" => &mut w.kana_unigram,
            other => return Err(format!("unknown weight `{other}`")),
        };
        *slot = value;
    }
    Ok(w)
}

mod providers;
#[cfg(test)]
mod tests;

pub(crate) use providers::{Api, Target};
