//! A catalog read at run time, compiled, with its search index: what `search`,
//! `eval-search` and `embed` start from.

use std::process::ExitCode;

use catalog_check::model::CatalogModel;
use catalog_core::search::{OwnedIndex, Weights};

/// Compiles a catalog or prints its errors.
pub(crate) fn load(
    path: &str,
    source: &str,
    weights: Weights,
) -> Result<(CatalogModel, OwnedIndex), ExitCode> {
    match catalog_check::compile(source) {
        Ok(c) => {
            let index = catalog_check::search::index(&c, weights);
            Ok((c, index))
        }
        Err(d) => {
            eprint!("{}", catalog_check::render_all(path, source, &d));
            Err(ExitCode::FAILURE)
        }
    }
}
