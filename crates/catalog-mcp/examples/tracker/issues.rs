//! The tracker's handler: issues in memory, fresh at every start, shared by every client
//! of the process.

use std::fmt;
use std::sync::{Mutex, MutexGuard, PoisonError};

use catalog_core::{Context, Output, Value};
use serde_json::json;

use crate::{
    AskArgs, CloseIssueArgs, CloseIssueReason, CommentOnIssueArgs, DeleteIssueArgs, GetIssueArgs,
    Handler, ListIssuesArgs, ListIssuesState, SearchIssuesArgs, ShowIssueArgs,
};

/// Why a call failed, in words that say what to do instead.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

struct Issue {
    number: i64,
    title: String,
    body: String,
    closed: Option<CloseIssueReason>,
    comments: Vec<String>,
}

impl Issue {
    fn state(&self) -> &'static str {
        if self.closed.is_some() {
            "closed"
        } else {
            "open"
        }
    }

    fn summary(&self) -> Value {
        json!({"number": self.number, "title": self.title, "state": self.state()})
    }
}

#[derive(Default)]
struct State {
    issues: Vec<Issue>,
    next: i64,
}

impl State {
    fn open(&mut self, title: &str, body: &str) {
        self.next += 1;
        self.issues.push(Issue {
            number: self.next,
            title: title.to_owned(),
            body: body.to_owned(),
            closed: None,
            comments: Vec::new(),
        });
    }

    fn find(&mut self, number: i64) -> Result<&mut Issue, Error> {
        self.issues
            .iter_mut()
            .find(|issue| issue.number == number)
            .ok_or_else(|| {
                Error(format!(
                    "there is no issue {number}; listIssues shows the numbers"
                ))
            })
    }

    /// Newest first.
    fn newest(&self) -> impl Iterator<Item = &Issue> {
        self.issues.iter().rev()
    }
}

/// The issue tracker: a handful of issues to start with.
pub struct Issues {
    state: Mutex<State>,
}

impl Issues {
    /// A tracker with four issues, numbered 1 to 4, all open.
    pub fn new() -> Issues {
        let mut state = State::default();
        state.open(
            "Login page crashes on an empty password",
            "Submitting the login form with no password shows a blank page.",
        );
        state.open(
            "Export issues as CSV",
            "A way to export the issue list for the weekly report.",
        );
        state.open(
            "Dark mode",
            "The tracker is hard to read at night; a dark theme would help.",
        );
        state.open("Buy cheap watches", "Spam.");
        Issues {
            state: Mutex::new(state),
        }
    }

    /// A panic elsewhere while the lock was held leaves the issues as they were: every
    /// change below is one step, so they are still whole.
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Handler for Issues {
    type Error = Error;

    async fn ask(&self, _: Context, args: AskArgs) -> Result<Output, Error> {
        // This example has no chat window to put the question in.
        Err(Error(format!(
            "no one can be asked `{}` here; decide with what the issues say",
            args.question
        )))
    }

    async fn list_issues(&self, _: Context, args: ListIssuesArgs) -> Result<Output, Error> {
        let state = self.state();
        let listed = state
            .newest()
            .filter(|issue| match args.state {
                ListIssuesState::Open => issue.closed.is_none(),
                ListIssuesState::Closed => issue.closed.is_some(),
                ListIssuesState::All => true,
            })
            .map(Issue::summary)
            .collect();
        Ok(Value::Array(listed).into())
    }

    async fn search_issues(&self, _: Context, args: SearchIssuesArgs) -> Result<Output, Error> {
        let words: Vec<String> = args
            .query
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        if words.is_empty() {
            return Err(Error(String::from(
                "the query has no words; give one or more, or use listIssues",
            )));
        }
        let state = self.state();
        let limit = usize::try_from(args.limit).unwrap_or(usize::MAX);
        let found = state
            .newest()
            .filter(|issue| {
                let text = format!("{} {}", issue.title, issue.body).to_lowercase();
                words.iter().all(|word| text.contains(word.as_str()))
            })
            .take(limit)
            .map(Issue::summary)
            .collect();
        Ok(Value::Array(found).into())
    }

    async fn get_issue(&self, _: Context, args: GetIssueArgs) -> Result<Output, Error> {
        let mut state = self.state();
        let issue = state.find(args.number)?;
        Ok(json!({
            "number": issue.number,
            "title": issue.title,
            "body": issue.body,
            "state": issue.state(),
            "comments": issue.comments,
        })
        .into())
    }

    async fn show_issue(&self, _: Context, args: ShowIssueArgs) -> Result<Output, Error> {
        // The window is the app's; here, showing is only checking the issue is there.
        let mut state = self.state();
        let issue = state.find(args.number)?;
        Ok(json!({"shown": issue.number}).into())
    }

    async fn comment_on_issue(
        &self,
        _: Context,
        args: CommentOnIssueArgs,
    ) -> Result<Output, Error> {
        if args.text.trim().is_empty() {
            return Err(Error(String::from(
                "the comment is empty; write what it should say",
            )));
        }
        let mut state = self.state();
        let issue = state.find(args.number)?;
        issue.comments.push(args.text);
        Ok(json!({"number": issue.number, "comments": issue.comments.len()}).into())
    }

    async fn close_issue(&self, _: Context, args: CloseIssueArgs) -> Result<Output, Error> {
        let mut state = self.state();
        let issue = state.find(args.number)?;
        if let Some(reason) = issue.closed {
            return Err(Error(format!(
                "issue {} is already closed ({}); nothing to do",
                issue.number,
                reason.as_str()
            )));
        }
        issue.closed = Some(args.reason);
        Ok(
            json!({"number": issue.number, "state": "closed", "reason": args.reason.as_str()})
                .into(),
        )
    }

    async fn delete_issue(&self, _: Context, args: DeleteIssueArgs) -> Result<Output, Error> {
        let mut state = self.state();
        state.find(args.number)?;
        state.issues.retain(|issue| issue.number != args.number);
        Ok(json!({"deleted": args.number}).into())
    }
}
