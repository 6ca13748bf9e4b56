//! The commands: their names, their help, and which module runs each.

use std::fmt::Write as _;
use std::process::ExitCode;

use crate::args::{Flags, Usage};
use crate::defaults::Defaults;
use crate::{check, eval, expand, import, render, search};

/// One command of `cargo catalog`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `check`: the rules and the lints; what the catalog declares.
    Check,
    /// `expand`: the Rust that `catalog!` generates, formatted.
    Expand,
    /// `import`: an MCP `tools/list` result as a catalog.
    Import,
    /// `search`: the catalog's own search, hits with their scores.
    Search,
    /// `render`: the tools in one provider's request format.
    Render,
    /// `eval-search`: recall, hit rate and MRR of the search on a set of requests.
    EvalSearch,
}

impl Command {
    /// Every command, in the order the usage text lists them.
    pub const ALL: [Command; 6] = [
        Command::Check,
        Command::Expand,
        Command::Import,
        Command::Search,
        Command::Render,
        Command::EvalSearch,
    ];

    /// The command by its name on the command line.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Command> {
        Command::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The name on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Command::Check => "check",
            Command::Expand => "expand",
            Command::Import => "import",
            Command::Search => "search",
            Command::Render => "render",
            Command::EvalSearch => "eval-search",
        }
    }

    /// The options, one line each as the usage text breaks them.
    fn synopsis(self) -> &'static [&'static str] {
        match self {
            Command::Check => &["[--catalog PATH] [--format human|json] [--upstreams]"],
            Command::Expand => &["[--catalog PATH]"],
            Command::Import => &[
                "--from mcp FILE --out PATH",
                "--from-server [--name NAME] [--prefix P] (--out PATH | --into PATH) -- COMMAND [ARGS...]",
                "--from-url URL [--name NAME] [--prefix P] (--out PATH | --into PATH)",
            ],
            Command::Search => &["[--catalog PATH] [--k N] [--weights W] REQUEST"],
            Command::Render => &[
                "--provider anthropic|anthropic-tool-search|openai-chat|openai-responses|bedrock|gemini|mcp",
                "[--catalog PATH] [--tools inline|all] [--access read-only|read-and-stage|full-access]",
                "[--search bm25|regex|catalog]",
            ],
            Command::EvalSearch => &[
                "[--catalog PATH] --queries FILE.jsonl [--k 5] [--format human|json]",
                "[--weights W] [--show-misses N]",
            ],
        }
    }

    /// What the command does, indented under its synopsis.
    fn about(self) -> &'static str {
        match self {
            Command::Check => {
                "      validate a catalog and run its lints; print every error and warning, what it
      declares, the tokens of its tool lists, what search reaches, and a table of the lints;
      --upstreams also compares each row pinned to an [[upstream]] with what that server
      lists now, naming each changed field (exit 1 on drift, as a gateway withholds it)"
            }
            Command::Expand => "      print the Rust code that `catalog!` generates for a catalog",
            Command::Import => {
                "      turn an MCP tools/list result (JSON), or the tools of a live MCP server (started
      over stdio, or at a streamable HTTP URL), into catalog rows; report what was mapped.
      --out writes a new catalog; --into appends the server's [[upstream]] table and rows
      to an existing one, leaving its text as it is (names that collide get prefix P).
      Rows from a server record it and pin each tool's definition with a digest; the
      definitions go to PATH's .upstreams.json, to name what changes later"
            }
            Command::Search => "      the catalog's own search: ranked hits with scores",
            Command::Render => {
                "      the tools as the provider's request takes them, as pretty JSON (bedrock: the whole
      toolConfig; gemini: the tools array, schemas in Gemini's dialect; mcp: the tools/list
      result at --access, default full-access;
      anthropic-tool-search: discoverable tools deferred, --search default bm25);
      --tools inline is the first step's active set, all (the default) every tool"
            }
            Command::EvalSearch => {
                "      recall@k, hit@k, MRR@k and median time per query (use a release build for timings);
      FILE.jsonl holds one {\"id\", \"query\", \"expected\": [tool names]} per line;
      W overrides search weights, e.g. name=2.5,keyword=2,description=1,param_name=1,
      param_description=0.8,example=1,k1=2.5,b=0.75,prefix=0.3,pair=0.4"
            }
        }
    }

    /// The command's entry in a usage text, under the name the caller gives it (an `xtask`
    /// may call `check` `check-catalog`): the synopsis, then what it does.
    #[must_use]
    pub fn help(self, name: &str) -> String {
        let mut out = String::new();
        let indent = " ".repeat(name.len() + 3);
        for (i, line) in self.synopsis().iter().enumerate() {
            if i == 0 {
                let _ = writeln!(out, "  {name} {line}");
            } else {
                let _ = writeln!(out, "{indent}{line}");
            }
        }
        let _ = writeln!(out, "{}", self.about());
        out
    }

    /// Runs the command on its arguments (those after its name): the exit code, 0 when it
    /// succeeded, 1 when the catalog or an input has errors (printed, located).
    ///
    /// # Errors
    /// [`Usage`] for unusable arguments: the caller prints it with its usage text and
    /// exits 2.
    pub fn run(self, args: &[String], defaults: &Defaults) -> Result<ExitCode, Usage> {
        if self == Command::Import {
            // `import` reads a positional FILE and checks its own options.
            return import::command(args);
        }
        // `--upstreams` is the one option without a value.
        let upstreams = self == Command::Check && args.iter().any(|a| a == "--upstreams");
        let args: Vec<String> = args
            .iter()
            .filter(|a| !upstreams || *a != "--upstreams")
            .cloned()
            .collect();
        let opts = Flags::parse(&args)?;
        match self {
            Command::Check => check::command(&opts, defaults, upstreams),
            Command::Expand => expand::command(&opts, defaults),
            Command::Search => search::command(&opts, defaults),
            Command::Render => render::command(&opts, defaults),
            Command::EvalSearch => eval::command(&opts, defaults),
            Command::Import => import::command(&args),
        }
    }
}
