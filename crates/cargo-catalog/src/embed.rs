//! `embed`, and the embedding ranker `eval-search --model` compares: both need the `embed`
//! feature, which brings the model's runtime.

use std::process::ExitCode;

use crate::args::{Embed, Usage};
use crate::defaults::Defaults;

/// What a build without the feature says.
#[cfg(not(feature = "embed"))]
pub(crate) const MISSING: &str = concat!(
    "running an embedding model needs the `embed` feature, which this build of cargo-catalog leaves out: install it with ",
    install_with!("embed"),
);

/// `embed [--catalog PATH] --model DIR [--out FILE] [--weights W]`.
#[cfg(not(feature = "embed"))]
pub(crate) fn command(_: &Embed, _: &Defaults) -> Result<ExitCode, Usage> {
    Err(Usage(MISSING.into()))
}

/// `embed [--catalog PATH] --model DIR [--out FILE] [--weights W]`.
#[cfg(feature = "embed")]
pub(crate) fn command(args: &Embed, defaults: &Defaults) -> Result<ExitCode, Usage> {
    use std::path::Path;
    use std::time::Instant;

    use catalog_core::search::Weights;
    use catalog_embed::Vectors;

    let weights = args.weights.weights.unwrap_or(Weights::DEFAULT);
    let (path, source) = defaults.read_catalog(args.catalog.path.as_deref())?;
    let (catalog, index) = match crate::indexed::load(&path, &source, weights) {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let start = Instant::now();
    let model = load_model(&args.model)?;
    let loaded = start.elapsed();
    let vectors = Vectors::compute(&model, &catalog, &index.view()).map_err(|e| usage(&e))?;
    let out = Path::new(&args.out);
    vectors.write(out).map_err(|e| usage(&e))?;
    let embedded = (0..catalog.tools.len())
        .filter(|&i| !catalog_embed::text(&catalog, i).is_empty())
        .count();
    println!(
        "{} vectors of {} dimensions in {} (model loaded in {:.2} s, tools embedded in {:.2} s)",
        embedded,
        model.dim(),
        out.display(),
        loaded.as_secs_f64(),
        start.elapsed().saturating_sub(loaded).as_secs_f64(),
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(feature = "embed")]
fn usage(e: &catalog_embed::Error) -> Usage {
    Usage(e.to_string())
}

#[cfg(feature = "embed")]
pub(crate) fn load_model(dir: &str) -> Result<catalog_embed::Model, Usage> {
    catalog_embed::Model::load(std::path::Path::new(dir)).map_err(|e| usage(&e))
}

/// The ranker of `--model DIR [--vectors FILE]` for `catalog`, and the seconds the tools'
/// vectors took (`None` when read from a file).
#[cfg(feature = "embed")]
pub(crate) fn hybrid(
    model: &str,
    vectors: Option<&str>,
    catalog: &catalog_check::model::CatalogModel,
    index: &catalog_core::search::Index<'_>,
) -> Result<(catalog_embed::Hybrid, Option<f64>), Usage> {
    use catalog_embed::{Hybrid, Vectors};

    let model = load_model(model)?;
    let start = std::time::Instant::now();
    if let Some(path) = vectors {
        let path = std::path::Path::new(path);
        let vectors = Vectors::read(path).map_err(|e| usage(&e))?;
        vectors.check(&model, index, path).map_err(|e| usage(&e))?;
        return Ok((Hybrid::new(model, vectors), None));
    }
    let vectors = Vectors::compute(&model, catalog, index).map_err(|e| usage(&e))?;
    let seconds = start.elapsed().as_secs_f64();
    Ok((Hybrid::new(model, vectors), Some(seconds)))
}
