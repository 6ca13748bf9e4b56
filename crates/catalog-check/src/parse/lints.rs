//! The `[lints]` table and a row's `[tool.lints]`: lint names, levels and settings.

use std::collections::BTreeMap;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::At;
use super::table::Table;
use super::values::{choice, number};
use crate::diag::{Diagnostic, Errors};
use crate::lint_config::{self, Level, LintId, Scope};
use crate::names::suggest;

/// Reads the catalog's `[lints]` table: each lint's level, as a string, or a table with
/// `level` and the lint's settings.
pub(super) fn lints(t: &DeTable<'_>, errors: &mut Errors) -> lint_config::Config {
    let mut config = lint_config::Config::default();
    for (key, v) in t {
        let Some(id) = lint_name(key, "`[lints]`", errors) else {
            continue;
        };
        let info = id.info();
        let DeValue::Table(entry) = v.get_ref() else {
            if let Some((level, _)) = lint_level(v, info.name, errors) {
                config.set_level(id, level);
            }
            continue;
        };
        let mut entry = Table::new(entry, v.span(), &format!("lint `{}`", info.name));
        if let Some((level, _)) = entry
            .take("level")
            .and_then(|(v, _)| lint_level(v, "level", errors))
        {
            config.set_level(id, level);
        }
        for s in info.settings {
            if let Some(value) = entry
                .take(s.name)
                .and_then(|(v, _)| lint_setting(v, info.name, s, errors))
            {
                config.set(id, s.name, value);
            }
        }
        let known: Vec<&str> = ["level"]
            .into_iter()
            .chain(info.settings.iter().map(|s| s.name))
            .collect();
        entry.finish(&known, errors);
    }
    config
}

/// Reads a row's `[tool.lints]`: levels only, for lints about a row.
pub(super) fn row_lints(t: &DeTable<'_>, errors: &mut Errors) -> BTreeMap<LintId, Level> {
    let mut out = BTreeMap::new();
    for (key, v) in t {
        let Some(id) = lint_name(key, "`[tool.lints]`", errors) else {
            continue;
        };
        let name = id.name();
        if id.info().scope == Scope::Catalog {
            errors.push(
                Diagnostic::new(key.span(), format!("`{name}` is about the whole catalog, not one row"))
                    .help(format!("set it in the catalog's `[lints]` table: `{name} = \"allow\"`, `\"warn\"` or `\"deny\"`")),
            );
            continue;
        }
        if let DeValue::Table(_) = v.get_ref() {
            errors.push(
                Diagnostic::new(v.span(), format!("a row sets only the level of `{name}`"))
                    .help(format!("write `{name} = \"warn\"` (or allow, deny) here, and put settings in the catalog's `[lints]` table")),
            );
            continue;
        }
        if let Some((level, _)) = lint_level(v, name, errors) {
            out.insert(id, level);
        }
    }
    out
}

/// A lint named by a key, or an error naming the closest lint.
fn lint_name(
    key: &Spanned<std::borrow::Cow<'_, str>>,
    what: &str,
    errors: &mut Errors,
) -> Option<LintId> {
    let name = key.get_ref().as_ref();
    if let Some(id) = LintId::from_name(name) {
        return Some(id);
    }
    let all: Vec<&str> = lint_config::LINTS.iter().map(|l| l.name).collect();
    let d = Diagnostic::new(key.span(), format!("unknown lint `{name}` in {what}"));
    errors.push(match suggest(name, &all) {
        Some(s) => d.help(format!("did you mean `{s}`?")),
        None => d.help(format!("the lints are: {}", all.join(", "))),
    });
    None
}

fn lint_level(v: &Spanned<DeValue<'_>>, key: &str, errors: &mut Errors) -> Option<At<Level>> {
    let levels = Level::ALL.map(|l| (l.as_str(), l));
    choice(v, key, &levels, errors)
}

fn lint_setting(
    v: &Spanned<DeValue<'_>>,
    lint: &str,
    s: &lint_config::Setting,
    errors: &mut Errors,
) -> Option<f64> {
    let x = number(v, s.name, errors)?;
    let whole = if s.whole {
        "a whole number"
    } else {
        "a number"
    };
    if x < s.min || x > s.max || (s.whole && x.fract() != 0.0) {
        errors.push(
            Diagnostic::new(v.span(), format!("`{}` of lint `{lint}` is {x}", s.name))
                .help(format!("use {whole} from {} to {}", s.min, s.max)),
        );
        return None;
    }
    Some(x)
}
