//! `[[prompt]]` and `[[resource]]` tables across the catalog: each names a declared
//! upstream, and a gateway can tell every one apart, since it sends each `prompts/get`
//! and `resources/read` to one upstream by the name or URI alone. No two prompts share a
//! name, and no two tables pin the same prompt of one upstream; no two tables pin the
//! same URI or template, and no URI is claimed by the tables of two upstreams (a URI
//! another upstream's template matches, two templates that match a URI in common).

use std::collections::{BTreeSet, HashMap};

use crate::diag::{Diagnostic, Errors, Span};
use crate::model::{Offer, Offered};
use crate::names::suggest;
use crate::parse::RawOffer;

/// A table whose name, URI or template is not a repeat, as later tables are compared
/// with it.
struct Claim {
    what: Offered,
    /// What it is on its upstream (a prompt's `upstream-prompt`).
    on_upstream: Offered,
    /// Its upstream, when a declared one.
    upstream: Option<String>,
    /// Where its name, URI or template is written.
    at: Span,
}

impl Claim {
    /// The claim as a label or in a message: ``resource `x` of upstream `docs` ``.
    fn of(&self) -> String {
        match &self.upstream {
            Some(upstream) => format!("{} of upstream `{upstream}`", self.what),
            None => self.what.to_string(),
        }
    }

    /// What it pins on its upstream, in a message: ``prompt `review` of upstream `docs` ``.
    fn on_upstream_of(&self) -> String {
        match &self.upstream {
            Some(upstream) => format!("{} of upstream `{upstream}`", self.on_upstream),
            None => self.on_upstream.to_string(),
        }
    }
}

/// The offers of a catalog whose upstreams are `declared`; a table with an error (here or
/// in its own keys, already reported) is left out.
pub(super) fn offers(raw: Vec<RawOffer>, declared: &[&str], errors: &mut Errors) -> Vec<Offer> {
    let prompt_names: BTreeSet<String> = raw
        .iter()
        .filter_map(|o| match &o.what {
            Some((Offered::Prompt(name), _)) => Some(name.clone()),
            _ => None,
        })
        .collect();
    let mut claims: Vec<Claim> = Vec::new();
    // Where each name, URI or template, and each upstream's prompt, is first claimed.
    let mut by_what: HashMap<Offered, usize> = HashMap::new();
    let mut by_pin: HashMap<(String, Offered), usize> = HashMap::new();
    // The claims of resources and of templates: a resource is compared with templates
    // only (the same URI twice is a repeat), a template with both.
    let (mut resources, mut templates): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    for offer in raw {
        let Some((what, at)) = offer.what else {
            continue;
        };
        let on_upstream = match (&what, &offer.upstream_prompt) {
            (Offered::Prompt(_), Some((name, _))) => Offered::Prompt(name.clone()),
            _ => what.clone(),
        };
        let claim = Claim {
            what,
            on_upstream,
            upstream: offer
                .upstream
                .as_ref()
                .map(|(u, _)| u.clone())
                .filter(|u| declared.contains(&u.as_str())),
            at,
        };
        if let Some(&first) = by_what.get(&claim.what) {
            errors.push(named_twice(&claims[first], &claim, &prompt_names));
            continue;
        }
        let pin = claim
            .upstream
            .clone()
            .map(|upstream| (upstream, claim.on_upstream.clone()));
        if let Some(&first) = pin.as_ref().and_then(|pin| by_pin.get(pin)) {
            errors.push(one_prompt_twice(&claims[first], &claim));
            continue;
        }
        let meets: &[&[usize]] = match claim.what {
            Offered::Prompt(_) => &[],
            Offered::Resource(_) => &[&templates],
            Offered::Template(_) => &[&resources, &templates],
        };
        let earlier = meets.iter().flat_map(|c| c.iter()).map(|&i| &claims[i]);
        if let Some(d) = claimed_by_another_upstream(earlier, &claim) {
            errors.push(d);
        }
        let upstream = declared_upstream(offer.upstream, declared, errors);
        let what = claim.what.clone();
        let on_upstream = claim.on_upstream.clone();
        by_what.insert(what.clone(), claims.len());
        if let Some(pin) = pin {
            by_pin.insert(pin, claims.len());
        }
        match what {
            Offered::Prompt(_) => {}
            Offered::Resource(_) => resources.push(claims.len()),
            Offered::Template(_) => templates.push(claims.len()),
        }
        claims.push(claim);
        let (Some(upstream), Some((digest, _)), Some((access, _))) =
            (upstream, offer.digest, offer.access)
        else {
            continue;
        };
        let (description, description_span) = offer.description.unzip();
        let (arguments, argument_spans) = offer.arguments.into_iter().unzip();
        out.push(Offer {
            what,
            on_upstream,
            description,
            arguments,
            upstream,
            digest,
            access,
            span: offer.span,
            description_span,
            argument_spans,
        });
    }
    out
}

/// The upstream a table names, when declared; else the error, with the name it likely
/// meant.
fn declared_upstream(
    upstream: Option<(String, Span)>,
    declared: &[&str],
    errors: &mut Errors,
) -> Option<String> {
    let (upstream, at) = upstream?;
    if declared.contains(&upstream.as_str()) {
        return Some(upstream);
    }
    let d = Diagnostic::new(
        at,
        format!("`upstream` names `{upstream}`, which no `[[upstream]]` declares"),
    );
    errors.push(match suggest(&upstream, declared) {
        Some(s) => d.help(format!("did you mean `{s}`?")),
        None => d.help(format!("declare it: an `[[upstream]]` table with `name = \"{upstream}\"` and `command = \"...\"` or `url = \"...\"`")),
    });
    None
}

/// `second` pins the prompt of its upstream that `first`, of another name, pins.
fn one_prompt_twice(first: &Claim, second: &Claim) -> Diagnostic {
    Diagnostic::new(
        second.at.clone(),
        format!(
            "prompts `{}` and `{}` both pin {}",
            first.what.id(),
            second.what.id(),
            first.on_upstream_of()
        ),
    )
    .related(first.at.clone(), format!("`{}`", first.what.id()))
    .help("remove one of them, or point one at another prompt of the upstream with `upstream-prompt = \"...\"`")
}

/// Why a gateway cannot serve two upstreams' resources under one URI, and the way out.
fn uri_help(second: &Claim) -> String {
    let own = second.upstream.as_deref().map_or_else(String::new, |u| {
        format!(" (or serve upstream `{u}` from a catalog and gateway of its own)")
    });
    format!(
        "a gateway sends every read of a URI to one upstream, and cannot rename a server's resources, whose URIs the server itself writes in what it returns and links to: remove one of the two tables{own}"
    )
}

/// `second` has the name, URI or template of `first`, a table before it.
fn named_twice(first: &Claim, second: &Claim, prompt_names: &BTreeSet<String>) -> Diagnostic {
    let same_upstream = first.upstream == second.upstream;
    if same_upstream && first.on_upstream == second.on_upstream {
        return Diagnostic::new(
            second.at.clone(),
            format!("{} is pinned twice", second.what),
        )
        .related(first.at.clone(), "the first")
        .help("remove one of the tables");
    }
    let message = match (&first.upstream, &second.upstream) {
        (Some(a), Some(b)) if a != b => {
            format!(
                "upstreams `{a}` and `{b}` both give clients {}",
                second.what
            )
        }
        (Some(a), Some(_)) => format!(
            "two tables of upstream `{a}` both give clients {}",
            second.what
        ),
        _ => format!("{} is pinned twice", second.what),
    };
    let d = Diagnostic::new(second.at.clone(), message).related(first.at.clone(), first.of());
    let Offered::Prompt(name) = &second.what else {
        return d.help(uri_help(second));
    };
    // A prompt can be renamed: clients get it by its table's name, its upstream by its own.
    let Some(upstream) = &second.upstream else {
        return d
            .help("rename one of them: a client gets a prompt by its name, whatever its upstream");
    };
    let renamed = crate::names::prefixed(upstream, name, |c| !prompt_names.contains(c));
    let Offered::Prompt(original) = &second.on_upstream else {
        return d;
    };
    let fix = if original == name {
        format!(
            "rename this one: `name = \"{renamed}\"`, with `upstream-prompt = \"{original}\"` (its name on upstream `{upstream}`), as `cargo catalog import --prefix {upstream}_` writes it"
        )
    } else {
        format!("rename this one: `name = \"{renamed}\"`")
    };
    d.help(format!(
        "{fix}; a client gets a prompt by its name, whatever its upstream"
    ))
}

/// A resource or template that a table of another upstream claims too: a URI the
/// other's template matches, or, for two templates, a URI both match. (The same URI or
/// template twice is [`named_twice`].)
fn claimed_by_another_upstream<'c>(
    earlier: impl Iterator<Item = &'c Claim>,
    claim: &Claim,
) -> Option<Diagnostic> {
    let upstream = claim.upstream.as_ref()?;
    let mut overlaps: Vec<(&Claim, String)> = earlier
        .filter(|c| c.upstream.as_ref().is_some_and(|u| u != upstream))
        .filter_map(|c| Some((c, c.what.common_uri(&claim.what)?)))
        .collect();
    // In file order, whichever kind each is.
    overlaps.sort_by_key(|(c, _)| c.at.start);
    let ((first, example), more) = overlaps.split_first()?;
    let message = match (&first.what, &claim.what) {
        (Offered::Template(_), Offered::Template(_)) => format!(
            "resource templates `{}` of upstream `{}` and `{}` of upstream `{upstream}` both match `{example}`",
            first.what.id(),
            first.upstream.as_deref().unwrap_or_default(),
            claim.what.id()
        ),
        (Offered::Template(_), _) => format!("{} is matched by {} too", claim.of(), first.of()),
        _ => format!("{} matches {} too", claim.of(), first.of()),
    };
    let message = match more.len() {
        0 => message,
        n => format!(
            "{message}, and {n} more table{} (marked)",
            if n == 1 { "" } else { "s" }
        ),
    };
    let mut d = Diagnostic::new(claim.at.clone(), message).related(first.at.clone(), first.of());
    for (other, _) in more {
        d = d.related(other.at.clone(), other.of());
    }
    Some(d.help(uri_help(claim)))
}

#[cfg(test)]
mod tests {
    use crate::TEST_HEAD as HEAD;
    use crate::diag::Diagnostic;
    use crate::model::Offered;

    const DIGEST: &str = "sha256:4d41fd02ed49812a668b205580a74e06ad61797a560f982ee3275fcad9edd8a6";

    /// The catalog's head, two upstreams, and `tables`.
    fn catalog(tables: &str) -> String {
        format!(
            "{HEAD}\n[[upstream]]\nname = \"docs\"\ncommand = \"docs-server\"\n\n[[upstream]]\nname = \"mirror\"\ncommand = \"mirror-server\"\n{tables}"
        )
    }

    /// A `[[prompt]]` (`key` = `name`) or `[[resource]]` (`uri` or `uri-template`) table.
    fn table(key: &str, value: &str, upstream: &str, extra: &str) -> String {
        let header = if key == "name" { "prompt" } else { "resource" };
        format!(
            "\n[[{header}]]\n{key} = \"{value}\"\nupstream = \"{upstream}\"\n{extra}upstream-digest = \"{DIGEST}\"\naccess = \"read-only\"\n"
        )
    }

    /// The errors of `source`, each with the line of its span and of each related place.
    fn located(source: &str) -> Vec<(Diagnostic, usize, Vec<usize>)> {
        let line = |at: usize| source[..at].matches('\n').count() + 1;
        crate::validate(source)
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|d| {
                let related = d.related.iter().map(|r| line(r.span.start)).collect();
                (d.clone(), line(d.span.start), related)
            })
            .collect()
    }

    /// The line of the `n`th occurrence (from 0) of `text` in `source`.
    fn line_of(source: &str, text: &str, n: usize) -> usize {
        let at = source.match_indices(text).nth(n).unwrap().0;
        source[..at].matches('\n').count() + 1
    }

    #[test]
    fn two_upstreams_prompts_of_one_name_are_an_error_with_the_new_name() {
        let source = catalog(&format!(
            "{}{}",
            table("name", "review", "docs", ""),
            table("name", "review", "mirror", "")
        ));
        let errors = located(&source);
        let [(d, line, related)] = errors.as_slice() else {
            panic!("{errors:#?}");
        };
        assert_eq!(
            d.message,
            "upstreams `docs` and `mirror` both give clients prompt `review`"
        );
        // On the second table's name, naming the first.
        assert_eq!(*line, line_of(&source, "name = \"review\"", 1));
        assert_eq!(related, &[line_of(&source, "name = \"review\"", 0)]);
        assert_eq!(d.related[0].label, "prompt `review` of upstream `docs`");
        let help = d.help.as_deref().unwrap();
        assert!(
            help.contains("`name = \"mirror_review\"`, with `upstream-prompt = \"review\"`")
                && help.contains("`cargo catalog import --prefix mirror_`"),
            "{help}"
        );

        // The fix, as the help spells it: clients see `mirror_review`, the upstream
        // is asked for `review`.
        let fixed = catalog(&format!(
            "{}{}",
            table("name", "review", "docs", ""),
            table(
                "name",
                "mirror_review",
                "mirror",
                "upstream-prompt = \"review\"\n"
            )
        ));
        let compiled = crate::validate(&fixed).unwrap();
        let renamed = &compiled.offers[1];
        assert_eq!(renamed.what, Offered::Prompt("mirror_review".into()));
        assert_eq!(renamed.on_upstream, Offered::Prompt("review".into()));
        assert_eq!(compiled.offers[0].on_upstream, compiled.offers[0].what);
    }

    #[test]
    fn a_suggested_prompt_name_is_free() {
        let source = catalog(&format!(
            "{}{}{}",
            table("name", "mirror_review", "docs", ""),
            table("name", "review", "docs", ""),
            table("name", "review", "mirror", "")
        ));
        let errors = located(&source);
        let [(d, _, _)] = errors.as_slice() else {
            panic!("{errors:#?}");
        };
        assert!(
            d.help
                .as_deref()
                .unwrap()
                .contains("`name = \"mirror_review_2\"`"),
            "{d:?}"
        );
    }

    #[test]
    fn one_upstream_prompt_pinned_twice_is_an_error() {
        let source = catalog(&format!(
            "{}{}{}",
            table("name", "review", "docs", ""),
            table("name", "review", "docs", ""),
            table("name", "again", "docs", "upstream-prompt = \"review\"\n")
        ));
        let errors = located(&source);
        let messages: Vec<&str> = errors.iter().map(|(d, _, _)| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "prompt `review` is pinned twice",
                "prompts `review` and `again` both pin prompt `review` of upstream `docs`",
            ]
        );
        for (d, line, related) in &errors {
            assert!(related.iter().all(|r| r < line), "{d:?}");
            assert!(d.help.as_deref().unwrap().contains("remove one"), "{d:?}");
        }
    }

    #[test]
    fn uris_two_upstreams_claim_are_every_one_an_error_located_on_the_second() {
        let source = catalog(&format!(
            "{}{}{}{}{}{}{}",
            table("uri", "docs://readme", "docs", ""),
            table("uri-template", "docs://pages/{page}", "docs", ""),
            // The same upstream may list overlapping URIs: it tells them apart itself.
            table("uri-template", "docs://{+path}", "docs", ""),
            table("uri", "docs://readme", "mirror", ""),
            table("uri-template", "docs://pages/{name}", "mirror", ""),
            table("uri", "docs://pages/intro", "mirror", ""),
            // No URI in common with `docs`'s tables.
            table("uri-template", "mirror://{page}", "mirror", ""),
        ));
        let errors = located(&source);
        let found: Vec<(&str, usize, &[usize])> = errors
            .iter()
            .map(|(d, line, related)| (d.message.as_str(), *line, related.as_slice()))
            .collect();
        let readme = line_of(&source, "uri = \"docs://readme\"", 0);
        let pages = line_of(&source, "docs://pages/{page}", 0);
        let any = line_of(&source, "docs://{+path}", 0);
        assert_eq!(
            found,
            [
                (
                    "upstreams `docs` and `mirror` both give clients resource `docs://readme`",
                    line_of(&source, "uri = \"docs://readme\"", 1),
                    &[readme][..]
                ),
                (
                    "resource templates `docs://pages/{page}` of upstream `docs` and `docs://pages/{name}` of upstream `mirror` both match `docs://pages/x`, and 1 more table (marked)",
                    line_of(&source, "docs://pages/{name}", 0),
                    &[pages, any][..]
                ),
                (
                    "resource `docs://pages/intro` of upstream `mirror` is matched by resource template `docs://pages/{page}` of upstream `docs` too, and 1 more table (marked)",
                    line_of(&source, "docs://pages/intro", 0),
                    &[pages, any][..]
                ),
            ]
        );
        for (d, _, _) in &errors {
            let help = d.help.as_deref().unwrap();
            assert!(
                help.contains("remove one of the two tables")
                    && help.contains("upstream `mirror` from a catalog and gateway of its own"),
                "{help}"
            );
        }
    }
}
