//! What can go wrong loading a model or a vectors file, each with what to do about it.

use std::fmt;
use std::path::{Path, PathBuf};

/// An error of this crate. Its `Display` names the file and the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// A file is not what it should be.
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong and what to do.
        message: String,
    },
    /// A vectors file was computed for another catalog or model.
    Stale {
        /// The vectors file.
        path: PathBuf,
        /// `"catalog"` or `"model"`: what changed since.
        changed: &'static str,
    },
    /// The tokenizer or the encoder failed on a text.
    Model(String),
}

impl Error {
    pub(crate) fn read(path: &Path, e: &std::io::Error) -> Error {
        Error::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }

    pub(crate) fn format(path: &Path, message: impl Into<String>) -> Error {
        Error::Format {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, message } => write!(
                f,
                "cannot read or write `{}`: {message} (a model is a folder holding config.json, \
                 model.safetensors and tokenizer.json, as sentence-transformers saves one)",
                path.display()
            ),
            Error::Format { path, message } => write!(f, "`{}`: {message}", path.display()),
            Error::Stale { path, changed } => write!(
                f,
                "`{}` holds the tool vectors of another {changed}: the {changed} changed since \
                 it was written; write it again with `cargo catalog embed --model DIR --out {}`",
                path.display(),
                path.display()
            ),
            Error::Model(message) => write!(f, "the embedding model failed: {message}"),
        }
    }
}

impl std::error::Error for Error {}
