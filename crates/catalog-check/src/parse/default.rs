//! A parameter's `default` against its declared type.

use serde_json::Value;

use crate::diag::{Diagnostic, Errors, Span};
use crate::model::TypeSpec;

/// Checks a default against its type; returns it when it fits.
pub(super) fn check_default(
    ty: &TypeSpec,
    value: Value,
    span: Span,
    errors: &mut Errors,
) -> Option<Value> {
    match ty.kind.fits(&value) {
        Ok(()) => Some(value),
        Err(why) => {
            errors.push(
                Diagnostic::new(span, format!("default {value} {why}"))
                    .help("give a default of the declared type, or remove it"),
            );
            None
        }
    }
}
