//! Which URIs an RFC 6570 resource template stands for, as servers of this crate and the
//! gateway route `resources/read`: its literal text in order, each `{expression}`
//! standing for a non-empty run of characters — without `/`, `?`, `#` for a simple
//! `{var}`, anything for the reserved forms (`{+var}`, `{#var}`) and the others (`{/var}`,
//! `{?var}`, ...), which may also expand to nothing at the end of the URI.
//!
//! One definition, so that the compiler's check that two upstreams' templates claim no
//! URI in common ([`overlap`]) and the routing it protects ([`matches()`]) cannot disagree.

use alloc::collections::{BTreeSet, VecDeque};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// One piece of a template.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part<'t> {
    Literal(&'t str),
    /// A simple expression: a run without `/`, `?` or `#`.
    Segment,
    /// Any other expression: any run.
    Any,
}

impl Part<'_> {
    fn allows(self, c: char) -> bool {
        match self {
            Part::Segment => !matches!(c, '/' | '?' | '#'),
            Part::Any => true,
            Part::Literal(_) => false,
        }
    }
}

/// The pieces of `template`; `None` when an expression is not closed (such a template
/// matches nothing).
fn parts(template: &str) -> Option<Vec<Part<'_>>> {
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        parts.push(Part::Literal(&rest[..open]));
        let close = rest[open..].find('}')?;
        let expression = &rest[open + 1..open + close];
        parts.push(
            if expression.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                Part::Segment
            } else {
                Part::Any
            },
        );
        rest = &rest[open + close + 1..];
    }
    parts.push(Part::Literal(rest));
    Some(parts)
}

/// Whether `uri` is an expansion of `template` (see the module's rule).
#[must_use]
pub fn matches(template: &str, uri: &str) -> bool {
    parts(template).is_some_and(|parts| matches_from(&parts, uri))
}

fn matches_from(parts: &[Part<'_>], uri: &str) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return uri.is_empty();
    };
    match first {
        Part::Literal(text) => uri
            .strip_prefix(text)
            .is_some_and(|after| matches_from(rest, after)),
        Part::Segment | Part::Any => {
            let mut end = 0;
            for (at, c) in uri.char_indices() {
                if !first.allows(c) {
                    break;
                }
                end = at + c.len_utf8();
                if matches_from(rest, &uri[end..]) {
                    return true;
                }
            }
            // An optional form (`{?query}`, `{/path}`, `{#fragment}`) may expand to nothing.
            end == 0 && matches!(first, Part::Any) && matches_from(rest, uri)
        }
    }
}

/// A URI that both templates match, the shortest there is, or `None` when no URI matches
/// both: two upstreams whose templates overlap would each be sent the other's reads.
///
/// ```
/// use catalog_core::uri_template::overlap;
///
/// assert_eq!(overlap("docs://pages/{page}", "docs://{+path}").as_deref(), Some("docs://pages/x"));
/// assert_eq!(overlap("docs://pages/{page}", "docs://pages/{name}").as_deref(), Some("docs://pages/x"));
/// assert_eq!(overlap("docs://pages/{page}", "docs://notes/{page}"), None);
/// ```
#[must_use]
pub fn overlap(a: &str, b: &str) -> Option<String> {
    let (a, b) = (parts(a)?, parts(b)?);
    // The characters that can make a difference: each literal's, the separators, and one
    // that stands for every other character (which only an expression takes).
    let mut alphabet: BTreeSet<char> = ['/', '?', '#'].into_iter().collect();
    for part in a.iter().chain(&b) {
        if let Part::Literal(text) = part {
            alphabet.extend(text.chars());
        }
    }
    let other = "xyzabcdefghijklmnopqrstuvw0123456789"
        .chars()
        .chain((0x00C0..=0x0010_FFFF).filter_map(char::from_u32))
        .find(|c| !alphabet.contains(c))?;
    // Tried first, so the URI found reads like an example (`docs://pages/x`).
    let alphabet: Vec<char> = [other].into_iter().chain(alphabet).collect();
    // A breadth-first walk of both patterns at once, one character at a time, so the
    // first URI found is a shortest one.
    let start = (At::default(), At::default());
    let mut nodes = vec![Node {
        at: start,
        from: None,
    }];
    let mut seen: BTreeSet<(At, At)> = [start].into_iter().collect();
    let mut queue: VecDeque<usize> = [0].into_iter().collect();
    while let Some(node) = queue.pop_front() {
        let (x, y) = nodes[node].at;
        if x.ends(&a) && y.ends(&b) {
            let mut uri = Vec::new();
            let mut at = node;
            while let Some((before, c)) = nodes[at].from {
                uri.push(c);
                at = before;
            }
            return Some(uri.into_iter().rev().collect());
        }
        for &c in &alphabet {
            for x in x.step(&a, c) {
                for y in y.step(&b, c) {
                    if seen.insert((x, y)) {
                        nodes.push(Node {
                            at: (x, y),
                            from: Some((node, c)),
                        });
                        queue.push_back(nodes.len() - 1);
                    }
                }
            }
        }
    }
    None
}

/// A pair of places [`overlap`]'s walk reached, and the node and character it came from.
struct Node {
    at: (At, At),
    from: Option<(usize, char)>,
}

/// A place in a template's pieces: the piece, and how far into it (bytes of a literal;
/// for an expression, 1 once it has taken a character).
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
struct At {
    part: usize,
    into: usize,
}

impl At {
    /// The places reachable without taking a character: past a finished literal, or past
    /// an expression that has taken one.
    fn closure(self, parts: &[Part<'_>]) -> Vec<At> {
        let mut out = vec![self];
        let mut at = self;
        while let Some(&part) = parts.get(at.part) {
            let done = match part {
                Part::Literal(text) => at.into == text.len(),
                Part::Segment | Part::Any => at.into == 1,
            };
            if !done {
                break;
            }
            at = At {
                part: at.part + 1,
                into: 0,
            };
            out.push(at);
        }
        out
    }

    /// Where taking `c` leads, from each place of the closure.
    fn step(self, parts: &[Part<'_>], c: char) -> Vec<At> {
        let mut out = Vec::new();
        for at in self.closure(parts) {
            let Some(&part) = parts.get(at.part) else {
                continue;
            };
            match part {
                Part::Literal(text) => {
                    if text[at.into..].starts_with(c) {
                        out.push(At {
                            part: at.part,
                            into: at.into + c.len_utf8(),
                        });
                    }
                }
                Part::Segment | Part::Any => {
                    if part.allows(c) {
                        out.push(At {
                            part: at.part,
                            into: 1,
                        });
                    }
                }
            }
        }
        out
    }

    /// Whether the URI may end here: what is left of the template can expand to nothing
    /// (a finished literal or expression, an empty literal, an optional form).
    fn ends(self, parts: &[Part<'_>]) -> bool {
        let mut at = self;
        loop {
            let Some(&part) = parts.get(at.part) else {
                return true;
            };
            let empty = match part {
                Part::Literal(text) => at.into == text.len(),
                Part::Segment => at.into == 1,
                Part::Any => true,
            };
            if !empty {
                return false;
            }
            at = At {
                part: at.part + 1,
                into: 0,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;

    use super::{matches, overlap};

    #[test]
    fn a_uri_matches_the_templates_it_expands() {
        assert!(matches("docs://pages/{page}", "docs://pages/intro"));
        assert!(!matches("docs://pages/{page}", "docs://pages/"));
        assert!(!matches("docs://pages/{page}", "docs://pages/a/b"));
        assert!(!matches("docs://pages/{page}", "docs://other/intro"));
        assert!(matches("file:///{+path}", "file:///etc/hosts"));
        assert!(matches("repo://{owner}/{repo}/issues", "repo://a/b/issues"));
        assert!(!matches("repo://{owner}/{repo}/issues", "repo://a/issues"));
        assert!(matches("search://q{?term}", "search://q"));
        assert!(matches("search://q{?term}", "search://q?term=x"));
        assert!(!matches("broken://{x", "broken://{x"));
        assert!(matches(
            "test://template/{id}/data",
            "test://template/123/data"
        ));
        assert!(!matches(
            "test://template/{id}/data",
            "test://template/1/2/data"
        ));
    }

    #[test]
    fn overlapping_templates_are_found_with_a_uri_both_match() {
        for (a, b, uri) in [
            (
                "docs://pages/{page}",
                "docs://pages/{name}",
                "docs://pages/x",
            ),
            ("docs://pages/{page}", "docs://{+path}", "docs://pages/x"),
            (
                "file:///{+path}",
                "file:///home/{user}/notes",
                "file:///home/x/notes",
            ),
            (
                "repo://{owner}/{repo}",
                "repo://acme/{name}",
                "repo://acme/x",
            ),
            ("search://q{?term}", "search://q", "search://q"),
            ("a://{x}b", "a://{y}", "a://xb"),
            ("a://{x}b", "a://b{y}", "a://bb"),
        ] {
            let found = overlap(a, b);
            assert_eq!(found.as_deref(), Some(uri), "{a} and {b}");
            assert_eq!(overlap(b, a).as_deref(), Some(uri), "{b} and {a}");
            assert!(matches(a, uri) && matches(b, uri), "{a}, {b}: {uri}");
        }
    }

    #[test]
    fn templates_that_share_no_uri_do_not_overlap() {
        for (a, b) in [
            ("docs://pages/{page}", "docs://notes/{page}"),
            // A simple expression takes no `/`, so the two never meet.
            ("docs://{page}", "docs://pages/{page}"),
            ("repo://{owner}/{repo}", "repo://{owner}/{repo}/issues"),
            // An optional form expands to nothing only at the end of the URI.
            ("a://{/x}b", "a://b"),
            ("broken://{x", "broken://{x"),
            ("docs://pages/{page}", "docs://pages/"),
        ] {
            assert_eq!(overlap(a, b), None, "{a} and {b}");
            assert_eq!(overlap(b, a), None, "{b} and {a}");
        }
    }

    #[test]
    fn what_overlap_finds_is_what_matches_routes() {
        // Every URI of a small alphabet, up to a length, checked both ways: `overlap`
        // finds a URI exactly when one exists.
        let templates = [
            "s://{a}",
            "s://{+a}",
            "s://x{a}",
            "s://{a}/x",
            "s://{a}{?q}",
            "s://x",
            "s://x/",
            "s://{a}/{b}",
            "s://{/a}x",
            "s://{#a}",
        ];
        let mut uris = vec![String::from("s://")];
        let mut frontier = uris.clone();
        for _ in 0..4 {
            let mut next = Vec::new();
            for uri in &frontier {
                for c in ['x', 'y', '/', '?'] {
                    let mut longer = uri.clone();
                    longer.push(c);
                    next.push(longer);
                }
            }
            uris.extend(next.iter().cloned());
            frontier = next;
        }
        for a in templates {
            for b in templates {
                let common = uris.iter().find(|u| matches(a, u) && matches(b, u));
                let found = overlap(a, b);
                assert_eq!(found.is_some(), common.is_some(), "{a} and {b}: {common:?}");
                if let Some(found) = found {
                    assert!(
                        matches(a, &found) && matches(b, &found),
                        "{a}, {b}: {found}"
                    );
                }
            }
        }
    }
}
