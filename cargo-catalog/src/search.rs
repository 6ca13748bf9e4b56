//! `search`: the catalog's own search, run on a catalog read at run time with the code
//! that builds a compiled catalog's index, and the weights `search` and `eval-search` take.

use std::process::ExitCode;

use catalog_compiler::model::Catalog;
use catalog_core::search::{Hit, OwnedIndex, Scratch, Weights};

use crate::args::{Flags, Usage};
use crate::defaults::Defaults;

/// `search [--catalog PATH] [--k N] [--weights W] REQUEST`: the options, checked, then
/// the run.
pub(crate) fn command(opts: &Flags, defaults: &Defaults) -> Result<ExitCode, Usage> {
    opts.only_options(&["catalog", "k", "weights"])?;
    let k = opts.count("k", 5)?;
    let weights = weights(opts.get("weights"))?;
    let [query] = opts.positional() else {
        return Err(Usage("search takes one request, in quotes".into()));
    };
    let (path, source) = defaults.read_catalog(opts)?;
    Ok(match load(&path, &source, weights) {
        Ok((catalog, index)) => search(&catalog, &index, query, k),
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

/// Field weights from `name=3,keyword=2,...` (unnamed ones keep their defaults), for
/// trying other weights on a catalog's own queries.
pub(crate) fn weights(spec: Option<&str>) -> Result<Weights, Usage> {
    let mut w = Weights::DEFAULT;
    for pair in spec.unwrap_or("").split(',').filter(|p| !p.is_empty()) {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| Usage(format!("weight `{pair}` is not key=value")))?;
        let value: f32 = value
            .parse()
            .map_err(|_| Usage(format!("weight `{pair}` is not a number")))?;
        let slot = match key {
            "name" => &mut w.name,
            "keyword" => &mut w.keyword,
            "description" => &mut w.description,
            "param_name" => &mut w.param_name,
            "param_description" => &mut w.param_description,
            "example" => &mut w.example,
            "k1" => &mut w.k1,
            "b" => &mut w.b,
            "prefix" => &mut w.prefix,
            "pair" => &mut w.pair,
            "unigram" => &mut w.unigram,
            "hangul_unigram" => &mut w.hangul_unigram,
            "kana_unigram" => &mut w.kana_unigram,
            other => return Err(Usage(format!("unknown weight `{other}`"))),
        };
        *slot = value;
    }
    Ok(w)
}
