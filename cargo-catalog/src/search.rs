//! `search`: the catalog's own search, run on a catalog read at run time with the code
//! that builds a compiled catalog's index.

use std::process::ExitCode;

use catalog_compiler::model::Catalog;
use catalog_core::search::{Hit, OwnedIndex, Scratch, Weights};

use crate::args::{Search, Usage};
use crate::defaults::Defaults;

/// `search [--catalog PATH] [--k N] [--weights W] REQUEST`.
pub(crate) fn command(args: &Search, defaults: &Defaults) -> Result<ExitCode, Usage> {
    let weights = args.weights.weights.unwrap_or(Weights::DEFAULT);
    let (path, source) = defaults.read_catalog(args.catalog.path.as_deref())?;
    Ok(match load(&path, &source, weights) {
        Ok((catalog, index)) => search(&catalog, &index, &args.request, args.k),
        Err(code) => code,
    })
}

/// Compiles a catalog or prints its errors.
pub(crate) fn load(
    path: &str,
    source: &str,
    weights: Weights,
) -> Result<(Catalog, OwnedIndex), ExitCode> {
    match catalog_compiler::compile(source) {
        Ok(c) => {
            let index = catalog_compiler::search::index(&c, weights);
            Ok((c, index))
        }
        Err(d) => {
            eprint!("{}", catalog_compiler::render_all(path, source, &d));
            Err(ExitCode::FAILURE)
        }
    }
}

/// Prints the ranked hits for one request.
fn search(catalog: &Catalog, index: &OwnedIndex, query: &str, k: usize) -> ExitCode {
    let hits = index.view().search(query, k, &mut Scratch::default());
    if hits.is_empty() {
        println!("no tool matches {query:?}");
    }
    for (rank, Hit { doc, score }) in hits.iter().enumerate() {
        // Every hit is discoverable: the index withholds the inline tools.
        let name = &catalog.tools[*doc as usize].name;
        println!("{:>2}. {score:>7.3}  {name}", rank + 1);
    }
    ExitCode::SUCCESS
}
