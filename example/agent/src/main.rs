//! `app-agent`: the example app's agent. It chats with the SQLite database through a
//! provider's HTTP API; everything between two requests is `catalog_core`'s agent step.
//!
//! ```text
//! app-agent --provider anthropic|openai-chat|openai-responses|gemini|bedrock
//!           [--base-url URL] [--model NAME] [--db PATH] [REQUEST]
//! ```
//!
//! With a request it answers that one and prints the model's final text; without, each
//! line of standard input is a user message. Gated tools ask on the terminal; the ask
//! tool's question is answered there too. Edits go to the database's staging area, which
//! stays in the file whatever happens to the conversation.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use app_backend::Backend;
use app_catalog::{Catalog, Tool};
use catalog_core::{Caller, Decision, Value};
use catalog_providers::{Api, Failure, default_model};
use catalog_result_scan::Scanner;
use catalog_wire::Agent;
use catalog_wire::provider::{Conversation, Provider, Reply};

/// The system prompt: what the app is, and how its edits work.
const SYSTEM: &str = "You are the assistant of a table-database app. Look before you change \
anything: list and describe tables, query rows. Row edits go to a staging area that the \
user reviews; commit them only when the user asks. When no tool you have fits, search for \
one; when the request is unclear, ask the user.";

/// Steps one user message may take before the agent gives up on it.
const MAX_STEPS: usize = 16;

/// `max_tokens` of every request.
const MAX_TOKENS: u32 = 4096;

const USAGE: &str =
    "usage: app-agent --provider anthropic|openai-chat|openai-responses|gemini|bedrock \
[--base-url URL] [--model NAME] [--db PATH] [REQUEST]

  --provider   the API to talk to; its key comes from ANTHROPIC_API_KEY, OPENAI_API_KEY,
               GEMINI_API_KEY, or for Bedrock AWS_BEARER_TOKEN_BEDROCK or
               AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY[/AWS_SESSION_TOKEN] with AWS_REGION
  --base-url   where the API is (default: the provider's public endpoint)
  --model      the model (default: claude-sonnet-4-5, gpt-5-mini, gemini-2.5-flash,
               us.anthropic.claude-sonnet-4-5-20250929-v1:0)
  --db         the SQLite file (created with the example tables when new; default: a
               database in memory)
  REQUEST      one request to answer; without it, each line of standard input is one";

struct Options {
    provider: Provider,
    base_url: Option<String>,
    model: Option<String>,
    db: Option<PathBuf>,
    request: Option<String>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let (mut provider, mut base_url, mut model, mut db, mut request) =
        (None, None, None, None, None);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("`{name}` needs a value"));
        match arg.as_str() {
            "--provider" => {
                let name = value("--provider")?;
                provider = Some(Provider::from_name(&name).ok_or_else(|| {
                    format!("unknown provider `{name}`: use anthropic, openai-chat, openai-responses, gemini or bedrock")
                })?);
            }
            "--base-url" => base_url = Some(value("--base-url")?),
            "--model" => model = Some(value("--model")?),
            "--db" => db = Some(PathBuf::from(value("--db")?)),
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            _ if request.is_some() => return Err(String::from("give one request, quoted")),
            _ => request = Some(arg),
        }
    }
    Ok(Options {
        provider: provider.ok_or("`--provider` is required")?,
        base_url,
        model,
        db,
        request,
    })
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) if message.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("error: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: &Options) -> Result<(), Failure> {
    let provider = options.provider;
    let model = options.model.as_deref().unwrap_or(default_model(provider));
    let api = Api::new(provider, options.base_url.as_deref(), model, |name| {
        std::env::var(name).ok().filter(|v| !v.is_empty())
    })?;
    let backend = match &options.db {
        Some(path) => Backend::open(path).map_err(|e| Failure::new(e.to_string()))?,
        None => Backend::new(),
    };
    let mut chat = Chat {
        // Results (a table's cells, an attachment) are data: the scanner reads them first,
        // as the catalog's `scan-results` says.
        agent: Agent::new(Catalog, provider)
            .screened_by(Scanner::from_settings(&Catalog::SETTINGS)),
        conversation: Conversation::new(Some(SYSTEM)),
        api,
        backend,
    };
    if let Some(request) = &options.request {
        let answer = chat.turn(request).map_err(|f| chat.with_staging(f))?;
        println!("{answer}");
        return Ok(());
    }
    let stdin = io::stdin();
    let mut line = String::new();
    loop {
        eprint!("> ");
        line.clear();
        if stdin
            .lock()
            .read_line(&mut line)
            .map_err(|e| Failure::new(e.to_string()))?
            == 0
        {
            return Ok(());
        }
        let request = line.trim();
        if request.is_empty() {
            continue;
        }
        let answer = chat.turn(request).map_err(|f| chat.with_staging(f))?;
        println!("{answer}");
    }
}

/// One conversation: the agent's discovery state, the messages, the provider's API and
/// the database the tools run on.
struct Chat {
    agent: Agent<'static, Catalog, { Catalog::WORDS }>,
    conversation: Conversation,
    api: Api,
    backend: Backend,
}

impl Chat {
    /// Answers one user message: steps until the model answers in text.
    fn turn(&mut self, request: &str) -> Result<String, Failure> {
        let provider = self.agent.provider();
        self.agent.new_turn();
        self.conversation.user(provider, request);
        for _ in 0..MAX_STEPS {
            let tools = self
                .agent
                .tools()
                .map_err(|e| Failure::new(e.to_string()))?;
            let body = self
                .conversation
                .body(provider, self.api.model(), Some(&tools), MAX_TOKENS);
            let reply = self.api.send(&body)?;
            let reply = self
                .agent
                .read(&reply)
                .map_err(|e| Failure::new(e.to_string()))?;
            if reply.calls.is_empty() {
                self.conversation.reply(provider, &reply);
                return Ok(reply.text);
            }
            if !reply.text.is_empty() {
                eprintln!("{}", reply.text);
            }
            self.answer_questions(&reply);
            // Every gated call is put to the user: the step hands each back as a question.
            let mut policy = |_: Caller, _: Tool, _: &Value| Decision::Ask;
            let mut step = self.agent.step(&reply, &mut policy);
            for question in step.questions() {
                if confirm(&format!(
                    "Allow `{}` with {}? [y/N] ",
                    question.tool(),
                    question.call().arguments.as_ref().unwrap_or(&Value::Null)
                )) {
                    question.approve();
                } else {
                    question.deny();
                }
            }
            let results = pollster::block_on(step.run(&self.backend));
            for result in &results {
                let verdict = if result.outcome.is_error() {
                    "refused"
                } else {
                    "done"
                };
                eprintln!("[{}] {verdict}", result.call.name);
            }
            self.conversation.reply(provider, &reply);
            self.conversation
                .results(provider, self.agent.write(&results));
        }
        Err(Failure::new(format!(
            "the model did not finish in {MAX_STEPS} steps; ask again more precisely"
        )))
    }

    /// The ask tool's questions, answered on the terminal before the step runs them.
    fn answer_questions(&self, reply: &Reply) {
        for call in &reply.calls {
            if Tool::from_wire_name(&call.name) != Some(Catalog::ASK_TOOL) {
                continue;
            }
            if let Some(question) = call
                .arguments
                .as_ref()
                .ok()
                .and_then(|a| a["question"].as_str())
            {
                self.backend
                    .queue_answer(&prompt(&format!("{question}\n? ")));
            }
        }
    }

    /// A failure, with where the staged changes are: they stay in the database.
    fn with_staging(&self, failure: Failure) -> Failure {
        match self.backend.staged_count() {
            Ok(0) | Err(_) => failure,
            Ok(n) => Failure {
                message: format!(
                    "{failure} ({n} staged change(s) are kept in the database's staging area)"
                ),
                ..failure
            },
        }
    }
}

/// Puts a question on the terminal; the line answered.
fn prompt(question: &str) -> String {
    eprint!("{question}");
    let _ = io::stderr().flush();
    let mut line = String::new();
    let _ = io::stdin().lock().read_line(&mut line);
    line.trim().to_string()
}

/// A yes-or-no question on the terminal; no unless the answer starts with `y`.
fn confirm(question: &str) -> bool {
    prompt(question).to_ascii_lowercase().starts_with('y')
}
