//! `[[prompt]]` and `[[resource]]` tables across the catalog: each names a declared
//! upstream, and no two pin the same prompt, resource or template, since a gateway serves
//! each by its name or URI whatever upstream it comes from.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Errors, Span};
use crate::model::{Offer, Offered};
use crate::names::suggest;
use crate::parse::RawOffer;

/// The offers of a catalog whose upstreams are `declared`; a table with an error (here or
/// in its own keys, already reported) is left out.
pub(super) fn offers(raw: Vec<RawOffer>, declared: &[&str], errors: &mut Errors) -> Vec<Offer> {
    let mut first: HashMap<Offered, Span> = HashMap::new();
    let mut out = Vec::new();
    for offer in raw {
        let Some((what, at)) = offer.what else {
            continue;
        };
        if let Some(earlier) = first.get(&what) {
            errors.push(
                Diagnostic::new(at, format!("{what} is pinned twice"))
                    .related(earlier.clone(), "the first")
                    .help(format!("a gateway serves one {} by each {}, whatever its upstream: remove one of the tables", what.noun(), if matches!(what, Offered::Prompt(_)) { "name" } else { "URI" })),
            );
            continue;
        }
        first.insert(what.clone(), at);
        let upstream = offer.upstream.and_then(|(upstream, at)| {
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
        });
        let (Some(upstream), Some((digest, _)), Some((access, _))) =
            (upstream, offer.digest, offer.access)
        else {
            continue;
        };
        let (description, description_span) = offer.description.unzip();
        let (arguments, argument_spans) = offer.arguments.into_iter().unzip();
        out.push(Offer {
            what,
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
