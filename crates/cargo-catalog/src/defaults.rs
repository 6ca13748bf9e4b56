//! Where the commands look for the catalog the user did not name with `--catalog`.

use std::path::{Path, PathBuf};

use crate::args::Usage;

/// The catalog's file name, in messages and on disk.
const CATALOG: &str = "catalog.toml";

/// What the commands read when an option is left out. `cargo catalog` reads
/// `catalog.toml` in the current directory ([`Defaults::current_dir`]); a repository's
/// own `xtask` usually names its root ([`Defaults::in_dir`]), so the command works from
/// any folder of the repository.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defaults {
    /// The directory that holds the default `catalog.toml`; empty for the current one.
    dir: PathBuf,
}

impl Defaults {
    /// `catalog.toml` in the current directory, or else in the nearest directory above it
    /// that has one, as cargo finds `Cargo.toml`.
    #[must_use]
    pub fn current_dir() -> Defaults {
        Defaults {
            dir: PathBuf::new(),
        }
    }

    /// `catalog.toml` in `dir`. Messages still call it `catalog.toml`: paths in output
    /// stay relative, the same on every machine.
    #[must_use]
    pub fn in_dir(dir: impl Into<PathBuf>) -> Defaults {
        Defaults { dir: dir.into() }
    }

    /// The catalog's path as the user named it (for messages) and its text: `catalog`
    /// (`--catalog`, relative to the current directory), or else the default catalog.
    ///
    /// # Errors
    /// When the file cannot be read; for the default catalog the message says how to name
    /// another.
    pub fn read_catalog(&self, catalog: Option<&str>) -> Result<(String, String), Usage> {
        if let Some(path) = catalog {
            return match std::fs::read_to_string(path) {
                Ok(source) => Ok((path.to_string(), source)),
                Err(e) => Err(Usage(format!("cannot read `{path}`: {e}"))),
            };
        }
        if self.dir == Path::new("") {
            return upward();
        }
        let full = self.dir.join(CATALOG);
        match std::fs::read_to_string(&full) {
            Ok(source) => Ok((CATALOG.to_string(), source)),
            Err(e) => Err(Usage(format!(
                "cannot read `{CATALOG}` in `{}`: {e}; name the catalog with `--catalog PATH`",
                self.dir.display()
            ))),
        }
    }
}

/// `catalog.toml` in the current directory or the nearest one above it, named relative to
/// the current directory (`../catalog.toml`), and its text.
fn upward() -> Result<(String, String), Usage> {
    let cwd = std::env::current_dir()
        .map_err(|e| Usage(format!("cannot read the current directory: {e}")))?;
    for up in 0..cwd.ancestors().count() {
        let path: PathBuf = std::iter::repeat_n("..", up)
            .collect::<PathBuf>()
            .join(CATALOG);
        match std::fs::read_to_string(&path) {
            Ok(source) => return Ok((path.display().to_string(), source)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            // Found but unreadable: say so rather than look further up.
            Err(e) => return Err(Usage(format!("cannot read `{}`: {e}", path.display()))),
        }
    }
    Err(Usage(format!(
        "no `{CATALOG}` in the current directory or any directory above it; run the command where the catalog is, or name it with `--catalog PATH`"
    )))
}
