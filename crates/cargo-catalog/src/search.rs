//! `search`: the catalog's own search, run on a catalog read at run time with the code
//! that builds a compiled catalog's index.

use std::process::ExitCode;

use catalog_check::model::CatalogModel;
use catalog_core::search::{Hit, OwnedIndex, Scratch, Weights};

use crate::args::{Search, Usage};
use crate::defaults::Defaults;

/// `search [--catalog PATH] [--k N] [--weights W] [--model DIR [--vectors FILE]] REQUEST`.
pub(crate) fn command(args: &Search, defaults: &Defaults) -> Result<ExitCode, Usage> {
    let weights = args.weights.weights.unwrap_or(Weights::DEFAULT);
    let (path, source) = defaults.read_catalog(args.catalog.path.as_deref())?;
    let (catalog, index) = match crate::indexed::load(&path, &source, weights) {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let hits = match &args.model {
        None => index
            .view()
            .search(&args.request, args.k, &mut Scratch::default()),
        Some(model) => fused(args, model, &catalog, &index)?,
    };
    Ok(print(&catalog, &hits, &args.request))
}

#[cfg(not(feature = "embed"))]
fn fused(_: &Search, _: &str, _: &CatalogModel, _: &OwnedIndex) -> Result<Vec<Hit>, Usage> {
    Err(Usage(crate::embed::MISSING.into()))
}

/// The hits of the fusion of BM25F with the model's ranking.
#[cfg(feature = "embed")]
fn fused(
    args: &Search,
    model: &str,
    catalog: &CatalogModel,
    index: &OwnedIndex,
) -> Result<Vec<Hit>, Usage> {
    use catalog_core::search::Ranker as _;

    let view = index.view();
    let (hybrid, _) = crate::embed::hybrid(model, args.vectors.as_deref(), catalog, &view)?;
    Ok(hybrid.search(&view, &args.request, args.k, &mut Scratch::default()))
}

/// Prints the ranked hits for one request.
fn print(catalog: &CatalogModel, hits: &[Hit], query: &str) -> ExitCode {
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
