//! How the server introduces itself: its name and version in `initialize`, the
//! instructions clients read, the realm of its HTTP challenge.

/// The version of this crate, which [`Identity::default`] reports.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// How the server introduces itself to clients in `initialize`, and names itself in the
/// HTTP `WWW-Authenticate` realm.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Identity {
    /// The server's name, e.g. the program's.
    pub name: String,
    /// The server's version.
    pub version: String,
    /// What clients read about the tools before the generic sentence on access levels:
    /// the application's own words, if it has any.
    pub instructions: Option<String>,
}

impl Identity {
    /// A server called `name` at `version`, with no instructions of its own.
    #[must_use]
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Identity {
        Identity {
            name: name.into(),
            version: version.into(),
            instructions: None,
        }
    }

    /// The same, with `instructions` for clients.
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Identity {
        self.instructions = Some(instructions.into());
        self
    }
}

impl Default for Identity {
    /// `catalog-mcp` at this crate's version.
    fn default() -> Identity {
        Identity::new(env!("CARGO_PKG_NAME"), VERSION)
    }
}
