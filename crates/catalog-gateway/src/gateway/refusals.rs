//! The gateway's own refusals of a call, before the verifier's: each names the tool and
//! the way out, as the verifier's rejections do.

use catalog_core::{ErrorClass, Rejection};
use catalog_upstream::drift::Standing;

/// The refusal of a withheld row: which tool, what changed, and the way out.
#[must_use]
pub fn withheld(name: &str, standing: &Standing) -> Rejection {
    let until = standing.served_again();
    Rejection {
        class: ErrorClass::PermissionDenied,
        tool: Some(name.into()),
        message: format!(
            "`{name}` is withheld: {standing}. It is served again {until}; use another tool meanwhile."
        ),
        issues: Vec::new(),
    }
}

/// The refusal of a call over a rate limit: which limit, and when to try again.
pub(super) fn limited(name: &str, over: &crate::limits::Over) -> Rejection {
    let whose = if over.shared {
        "every client's calls together"
    } else {
        "your calls"
    };
    Rejection {
        class: ErrorClass::RuntimeError,
        tool: Some(name.into()),
        message: format!(
            "`{name}` is over its rate limit ({} for {whose}): retry after {} s, or use another tool meanwhile.",
            over.rate, over.retry_after
        ),
        issues: Vec::new(),
    }
}

/// The refusal of a discoverable row a search has not returned yet.
pub(super) fn undiscovered(name: &str, search: &str) -> Rejection {
    Rejection {
        class: ErrorClass::SchemaResolution,
        tool: Some(name.into()),
        message: format!(
            "`{name}` is not in your tool list yet: call `{search}` with what you need first; matching tools join the list."
        ),
        issues: Vec::new(),
    }
}
