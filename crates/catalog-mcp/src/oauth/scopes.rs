//! What a token's scopes grant: the `[[scope]]` rules of a server's configuration, each a
//! scope name, the access level it grants and, optionally, a client profile.
//!
//! One rule when a token carries several mapped scopes: the level is the highest any of
//! them grants; the profile is the one they name (a scope without a profile does not widen
//! one that has), and scopes naming two different profiles refuse the token, since one
//! request is served under one profile and a union would grant what neither scope does.

use std::sync::Arc;

use catalog_core::Access;

/// One `[[scope]]` rule.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ScopeRule {
    /// The scope, as the authorization server writes it in tokens.
    pub name: String,
    /// The level a token carrying it is granted.
    pub access: Access,
    /// The client profile it selects, if any.
    pub profile: Option<Arc<str>>,
}

/// The rules, and the scopes every token must carry besides.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Scopes {
    /// The `[[scope]]` rules, in file order.
    pub rules: Vec<ScopeRule>,
    /// Scopes every token must carry, whatever else it carries (`required-scopes`).
    pub required: Vec<String>,
}

/// What a token's scopes grant, or why they grant nothing.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Granted {
    /// The level and profile.
    Level(Access, Option<Arc<str>>),
    /// A scope is missing: the scopes a token needs (for the challenge's `scope`), and why.
    Insufficient {
        /// Space-separated, as RFC 6750's `scope` attribute takes them.
        needed: String,
        /// For the log and the challenge's `error_description`.
        why: String,
    },
}

impl Scopes {
    /// Every scope the server understands, required ones first: the protected-resource
    /// metadata's `scopes_supported`.
    #[must_use]
    pub fn supported(&self) -> Vec<String> {
        let mut all = self.required.clone();
        for rule in &self.rules {
            if !all.contains(&rule.name) {
                all.push(rule.name.clone());
            }
        }
        all
    }

    /// What a token carrying `carried` is granted.
    #[must_use]
    pub fn grant(&self, carried: &[&str]) -> Granted {
        let has = |scope: &str| carried.contains(&scope);
        let missing: Vec<&str> = self
            .required
            .iter()
            .map(String::as_str)
            .filter(|r| !has(r))
            .collect();
        // The least a token needs: the required scopes and one of the lowest level.
        let lowest = self.rules.iter().map(|r| r.access).min();
        let needed = || {
            let mut needed: Vec<&str> = self.required.iter().map(String::as_str).collect();
            needed.extend(
                self.rules
                    .iter()
                    .filter(|r| Some(r.access) == lowest)
                    .map(|r| r.name.as_str()),
            );
            needed.join(" ")
        };
        if !missing.is_empty() {
            return Granted::Insufficient {
                needed: needed(),
                why: format!("the token lacks the required scope `{}`", missing.join(" ")),
            };
        }
        let mut access = None;
        let mut profile: Option<&Arc<str>> = None;
        for rule in self.rules.iter().filter(|r| has(&r.name)) {
            access = access.max(Some(rule.access));
            match (profile, &rule.profile) {
                (Some(first), Some(other)) if first != other => {
                    return Granted::Insufficient {
                        needed: needed(),
                        why: format!(
                            "the token's scopes select two profiles, `{first}` and `{other}`; \
                             ask for scopes of one profile"
                        ),
                    };
                }
                (None, Some(p)) => profile = Some(p),
                _ => {}
            }
        }
        match access {
            Some(access) => Granted::Level(access, profile.cloned()),
            None => Granted::Insufficient {
                needed: needed(),
                why: String::from("the token carries no scope that grants an access level"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scopes() -> Scopes {
        let rule = |name: &str, access, profile: Option<&str>| ScopeRule {
            name: name.into(),
            access,
            profile: profile.map(Arc::from),
        };
        Scopes {
            rules: vec![
                rule("tools:read", Access::ReadOnly, None),
                rule("tools:write", Access::FullAccess, None),
                rule("coding", Access::ReadAndStage, Some("coding")),
                rule("support", Access::ReadOnly, Some("support")),
            ],
            required: vec!["mcp".into()],
        }
    }

    #[test]
    fn the_highest_level_and_the_one_profile_apply() {
        let s = scopes();
        assert_eq!(
            s.grant(&["mcp", "tools:read"]),
            Granted::Level(Access::ReadOnly, None)
        );
        assert_eq!(
            s.grant(&["mcp", "tools:read", "tools:write"]),
            Granted::Level(Access::FullAccess, None)
        );
        assert_eq!(
            s.grant(&["tools:read", "coding", "mcp", "other"]),
            Granted::Level(Access::ReadAndStage, Some(Arc::from("coding")))
        );
        assert_eq!(
            s.supported(),
            ["mcp", "tools:read", "tools:write", "coding", "support"]
        );
    }

    #[test]
    fn missing_and_conflicting_scopes_are_refused_with_what_is_needed() {
        let s = scopes();
        let Granted::Insufficient { needed, why } = s.grant(&["tools:write"]) else {
            panic!("granted without `mcp`");
        };
        assert_eq!(needed, "mcp tools:read support");
        assert!(why.contains("required scope `mcp`"), "{why}");
        let Granted::Insufficient { why, .. } = s.grant(&["mcp"]) else {
            panic!("granted with no level");
        };
        assert!(why.contains("no scope that grants"), "{why}");
        let Granted::Insufficient { why, .. } = s.grant(&["mcp", "coding", "support"]) else {
            panic!("granted two profiles");
        };
        assert!(why.contains("`coding` and `support`"), "{why}");
    }
}
