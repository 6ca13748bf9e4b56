//! Which MCP revision a session with an upstream opens with.
//!
//! 2025-11-25 opens with the `initialize` handshake and keeps a session; 2026-07-28 has no
//! handshake (the client may ask `server/discover`) and every request carries the
//! revision, the client's name and its capabilities in `_meta`, with the SDK writing
//! them. The default stays the handshake: over it an upstream can ask the client behind
//! the gateway something in the middle of a call, which 2026-07-28 replaces with
//! results that ask for input and are retried (see `crate::rounds`).

use rmcp::model::ProtocolVersion;
use rmcp::service::ClientLifecycleMode;

/// The revision a session opens with.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Revision {
    /// 2025-11-25: the `initialize` handshake and a session.
    #[default]
    V2025_11_25,
    /// 2026-07-28: stateless, `server/discover` first and the revision in every request.
    V2026_07_28,
    /// The newest the upstream speaks: 2026-07-28 when it answers `server/discover`,
    /// else the 2025-11-25 handshake.
    Newest,
}

impl Revision {
    /// Every revision, as [`Revision::parse`] reads them.
    pub const ALL: [Revision; 3] = [
        Revision::V2025_11_25,
        Revision::V2026_07_28,
        Revision::Newest,
    ];

    /// The revision named `name`: a dated revision (`2025-11-25`, `2026-07-28`) or `newest`.
    #[must_use]
    pub fn parse(name: &str) -> Option<Revision> {
        Revision::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Its name, as [`Revision::parse`] reads it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
            Revision::Newest => "newest",
        }
    }

    /// How the SDK opens a session at this revision.
    pub(crate) fn lifecycle(self) -> ClientLifecycleMode {
        match self {
            Revision::V2025_11_25 => ClientLifecycleMode::Initialize,
            Revision::V2026_07_28 => ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
            Revision::Newest => ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: Some(ProtocolVersion::V_2025_11_25),
            },
        }
    }
}

impl std::fmt::Display for Revision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_the_default_is_the_handshake() {
        for revision in Revision::ALL {
            assert_eq!(Revision::parse(revision.name()), Some(revision));
        }
        assert_eq!(Revision::parse("2025-06-18"), None);
        assert_eq!(Revision::default(), Revision::V2025_11_25);
        assert!(matches!(
            Revision::default().lifecycle(),
            ClientLifecycleMode::Initialize
        ));
    }
}
