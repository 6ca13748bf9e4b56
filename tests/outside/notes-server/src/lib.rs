//! The notes app's tools, implemented over notes kept in memory.

use std::fmt;
use std::sync::{Mutex, MutexGuard, PoisonError};

use catalog_core::{Context, Output, Value};
use notes_catalog::{
    AddNoteArgs, AskUserArgs, DeleteNoteArgs, ExportNotesArgs, ExportNotesFormat, Handler,
    ListNotesArgs, ReadNoteArgs,
};
use serde_json::json;

/// One note.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// Its id, from 1.
    pub id: i64,
    /// A short title.
    pub title: String,
    /// The note itself.
    pub text: String,
    /// Tags it is filed under.
    pub tags: Vec<String>,
    /// Added by an agent and not yet published by the user.
    pub draft: bool,
}

/// Why a tool failed, in words the model can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// No note has this id.
    NoSuchNote(i64),
    /// The app's own assistant asked the user, and nobody is there to answer.
    NoAnswer,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoSuchNote(id) => write!(f, "no note has id {id}; call `listNotes` for the ids"),
            Error::NoAnswer => f.write_str("nobody is there to answer; go on without asking"),
        }
    }
}

impl std::error::Error for Error {}

/// The notes, shared by every caller.
#[derive(Default)]
pub struct Notes {
    notes: Mutex<Vec<Note>>,
}

impl Notes {
    /// Two published notes to start from.
    #[must_use]
    pub fn seeded() -> Notes {
        let note = |id, title: &str, text: &str, tag: &str| Note {
            id,
            title: title.into(),
            text: text.into(),
            tags: vec![tag.into()],
            draft: false,
        };
        Notes {
            notes: Mutex::new(vec![
                note(1, "Groceries", "Milk, bread, apples.", "home"),
                note(2, "Standup", "Ship the importer on Friday.", "work"),
            ]),
        }
    }

    /// Every note, oldest first.
    #[must_use]
    pub fn all(&self) -> Vec<Note> {
        self.lock().clone()
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Note>> {
        // A poisoned lock means a panic mid-call; the notes themselves are still whole.
        self.notes.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

// ANCHOR: handler
impl Handler for Notes {
    type Error = Error;

    async fn ask_user(&self, _context: Context, _args: AskUserArgs) -> Result<Output, Error> {
        Err(Error::NoAnswer)
    }

    async fn list_notes(&self, _context: Context, args: ListNotesArgs) -> Result<Output, Error> {
        let notes = self.lock();
        let listed: Vec<Value> = notes
            .iter()
            .rev()
            .filter(|n| args.tag.as_ref().is_none_or(|t| n.tags.contains(t)))
            .take(usize::try_from(args.limit).unwrap_or(usize::MAX))
            .map(|n| json!({"id": n.id, "title": n.title, "draft": n.draft}))
            .collect();
        Ok(Value::Array(listed).into())
    }
    // ANCHOR_END: handler

    async fn read_note(&self, _context: Context, args: ReadNoteArgs) -> Result<Output, Error> {
        let notes = self.lock();
        let note = notes
            .iter()
            .find(|n| n.id == args.id)
            .ok_or(Error::NoSuchNote(args.id))?;
        Ok(
            json!({"id": note.id, "title": note.title, "text": note.text, "tags": note.tags})
                .into(),
        )
    }

    async fn add_note(&self, _context: Context, args: AddNoteArgs) -> Result<Output, Error> {
        let mut notes = self.lock();
        let id = notes.iter().map(|n| n.id).max().unwrap_or(0) + 1;
        notes.push(Note {
            id,
            title: args.title,
            text: args.text,
            tags: args.tags,
            draft: true,
        });
        Ok(json!({"id": id, "draft": true}).into())
    }

    async fn delete_note(&self, _context: Context, args: DeleteNoteArgs) -> Result<Output, Error> {
        let mut notes = self.lock();
        let before = notes.len();
        notes.retain(|n| n.id != args.id);
        if notes.len() == before {
            return Err(Error::NoSuchNote(args.id));
        }
        Ok(json!({"deleted": args.id}).into())
    }

    async fn export_notes(
        &self,
        _context: Context,
        args: ExportNotesArgs,
    ) -> Result<Output, Error> {
        let notes = self.lock();
        let text: String = notes
            .iter()
            .map(|n| match args.format {
                ExportNotesFormat::Markdown => format!("# {}\n\n{}\n\n", n.title, n.text),
                ExportNotesFormat::Text => format!("{}\n{}\n\n", n.title, n.text),
            })
            .collect();
        Ok(json!({"file": text}).into())
    }
}
