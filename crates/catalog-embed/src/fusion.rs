//! The embedding ranking alone, and fused with the index's BM25F ranking by a convex
//! combination of their scores, each on a scale that means the same for every query:
//! BM25F's divided by the query's best (its lower bound is 0, its upper bound depends on
//! the query), the cosine as it is (its bounds are fixed). So a query the model reads
//! poorly, whose tools are all about equally far, adds about as much to every tool rather
//! than being stretched to look decisive, as min–max normalisation or rank fusion would.
//! (Bruch, Gai and Ingber, "An Analysis of Fusion Functions for Hybrid Retrieval", 2023:
//! a convex combination of theoretically normalised scores beats reciprocal rank fusion.)

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use catalog_core::search::{Hit, Index, Ranker, Scratch};

use crate::error::Error;
use crate::model::Model;
use crate::vectors::Vectors;

/// How the two rankings are fused: a tool's score is
/// `lexical × its BM25F score / the best BM25F score + (1 − lexical) × max(its cosine, 0)`,
/// over the top `depth` of each ranking (a tool outside one's top adds nothing for it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fusion {
    /// BM25F's share of the weight, from 0 (the embedding alone) to 1 (BM25F alone).
    pub lexical: f32,
    /// How deep each ranking is read.
    pub depth: usize,
}

impl Fusion {
    /// The share chosen on the parts of the development data kept for choosing (BFCL's
    /// odd requests, the language sets' parts for choosing; see BENCHMARKS.md).
    pub const DEFAULT: Fusion = Fusion {
        lexical: 0.7,
        depth: 50,
    };

    /// A fusion for each of BM25F's `shares`, the rest as [`Fusion::DEFAULT`]; the default
    /// alone when there is none.
    #[must_use]
    pub fn each(shares: &[f32]) -> Vec<Fusion> {
        if shares.is_empty() {
            return vec![Fusion::DEFAULT];
        }
        let fusion = |&lexical: &f32| Fusion {
            lexical,
            ..Fusion::DEFAULT
        };
        shares.iter().map(fusion).collect()
    }

    /// The best `n` of the fusion of two rankings (best first), ties by `name_rank`.
    #[must_use]
    pub fn fuse(&self, lexical: &[Hit], dense: &[Hit], n: usize, name_rank: &[u32]) -> Vec<Hit> {
        let mut scores: Vec<Hit> = Vec::with_capacity(lexical.len() + dense.len());
        let mut add = |hits: &[Hit], score: &dyn Fn(f32) -> f32| {
            for h in hits.iter().take(self.depth) {
                let s = score(h.score);
                match scores.iter_mut().find(|x| x.doc == h.doc) {
                    Some(x) => x.score += s,
                    None => scores.push(Hit {
                        doc: h.doc,
                        score: s,
                    }),
                }
            }
        };
        // BM25F's hits all score above 0, the best first.
        let best = lexical.first().map_or(1.0, |h| h.score);
        add(lexical, &|s| self.lexical * s / best);
        add(dense, &|s| (1.0 - self.lexical) * s.max(0.0));
        let tie = |h: &Hit| name_rank.get(h.doc as usize).copied().unwrap_or(u32::MAX);
        scores.sort_by(|a, b| b.score.total_cmp(&a.score).then(tie(a).cmp(&tie(b))));
        scores.truncate(n);
        scores
    }
}

impl Default for Fusion {
    fn default() -> Self {
        Fusion::DEFAULT
    }
}

/// A model and the catalog's tool vectors: the [`Ranker`] a discovery loop is given to
/// rank by the fusion.
#[derive(Debug)]
pub struct Hybrid {
    model: Arc<Model>,
    vectors: Vectors,
    fusion: Fusion,
}

impl Hybrid {
    /// The model in `model_dir` and the vectors file at `vectors_path`, checked against
    /// `index` (the catalog's search index: `Catalog::INFO.index` for a compiled catalog).
    ///
    /// # Errors
    /// When either cannot be read, or the vectors are of another catalog or model.
    pub fn load(model_dir: &Path, vectors_path: &Path, index: &Index<'_>) -> Result<Hybrid, Error> {
        let model = Model::load(model_dir)?;
        let vectors = Vectors::read(vectors_path)?;
        vectors.check(&model, index, vectors_path)?;
        Ok(Hybrid::new(model, vectors))
    }

    /// A ranker of `model` and `vectors` (computed by it for the catalog searched); one
    /// model in an `Arc` serves several catalogs.
    #[must_use]
    pub fn new(model: impl Into<Arc<Model>>, vectors: Vectors) -> Hybrid {
        Hybrid {
            model: model.into(),
            vectors,
            fusion: Fusion::DEFAULT,
        }
    }

    /// The same, fused with `fusion`.
    #[must_use]
    pub fn with_fusion(mut self, fusion: Fusion) -> Hybrid {
        self.fusion = fusion;
        self
    }

    /// How the rankings are fused.
    #[must_use]
    pub fn fusion(&self) -> Fusion {
        self.fusion
    }

    /// The model.
    #[must_use]
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The query's vector.
    ///
    /// # Errors
    /// When the model fails.
    pub fn query(&self, query: &str) -> Result<Vec<f32>, Error> {
        let mut v = self.model.embed(&[query])?;
        Ok(v.pop().unwrap_or_default())
    }

    /// The `n` documents nearest `query_vector`, by cosine, best first: none `index`
    /// withholds, and none without a vector.
    #[must_use]
    pub fn nearest(&self, query_vector: &[f32], n: usize, index: &Index<'_>) -> Vec<Hit> {
        let docs = 0..u32::try_from(self.vectors.len()).unwrap_or(u32::MAX);
        let mut hits: Vec<Hit> = docs
            .filter(|d| index.withheld.binary_search(d).is_err())
            .filter_map(|doc| {
                let row = self.vectors.row(doc as usize);
                let score: f32 = row.iter().zip(query_vector).map(|(a, b)| a * b).sum();
                // A document with no vector is all zeros.
                (row.iter().any(|&x| x != 0.0)).then_some(Hit { doc, score })
            })
            .collect();
        let tie = |h: &Hit| index.name_rank.get(h.doc as usize).copied();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(tie(a).cmp(&tie(b))));
        hits.truncate(n);
        hits
    }
}

/// One query ranked by the model alone and by several fusions, its vector computed once,
/// with what each took: what `eval-search` and `eval-languages` compare.
#[derive(Clone, Debug, PartialEq)]
pub struct Compared {
    /// The model's best `k`.
    pub dense: Vec<Hit>,
    /// Microseconds for the query's vector and its nearest tools.
    pub dense_us: f64,
    /// Each fusion's best `k`, in the order the fusions were given.
    pub fused: Vec<Vec<Hit>>,
    /// Microseconds for each fusion: the steps its ranker takes (BM25F's ranking, the
    /// model's, the fusion).
    pub fused_us: Vec<f64>,
}

impl Hybrid {
    /// `query` ranked by the model alone and by each of `fusions`, best `k` each.
    ///
    /// # Errors
    /// When the model fails on the query.
    pub fn compare(
        &self,
        index: &Index<'_>,
        query: &str,
        k: usize,
        fusions: &[Fusion],
        scratch: &mut Scratch,
    ) -> Result<Compared, Error> {
        let micros = |start: Instant| start.elapsed().as_secs_f64() * 1e6;
        let depth = fusions.iter().map(|f| f.depth).max().unwrap_or(k).max(k);
        let start = Instant::now();
        let lexical = index.search(query, depth, scratch);
        let lexical_us = micros(start);
        let start = Instant::now();
        let nearest = self.nearest(&self.query(query)?, depth, index);
        let dense_us = micros(start);
        let (mut fused, mut fused_us) = (Vec::new(), Vec::new());
        for fusion in fusions {
            let start = Instant::now();
            fused.push(fusion.fuse(&lexical, &nearest, k, index.name_rank));
            fused_us.push(lexical_us + dense_us + micros(start));
        }
        Ok(Compared {
            dense: nearest.into_iter().take(k).collect(),
            dense_us,
            fused,
            fused_us,
        })
    }
}

impl Ranker for Hybrid {
    /// The fusion's best `k`; BM25F's alone should the model fail on the query.
    fn search(&self, index: &Index<'_>, query: &str, k: usize, scratch: &mut Scratch) -> Vec<Hit> {
        let depth = self.fusion.depth.max(k);
        let mut lexical = index.search(query, depth, scratch);
        let Ok(v) = self.query(query) else {
            lexical.truncate(k);
            return lexical;
        };
        let dense = self.nearest(&v, depth, index);
        self.fusion.fuse(&lexical, &dense, k, index.name_rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(scored: &[(u32, f32)]) -> Vec<Hit> {
        scored
            .iter()
            .map(|&(doc, score)| Hit { doc, score })
            .collect()
    }

    fn docs(h: &[Hit]) -> Vec<u32> {
        h.iter().map(|h| h.doc).collect()
    }

    #[test]
    fn scores_combine_on_fixed_scales_and_each_ranking_alone_is_kept_at_its_extreme() {
        let names = [0, 1, 2, 3, 4];
        let lexical = hits(&[(0, 10.0), (1, 8.0), (2, 1.0)]);
        let dense = hits(&[(3, 0.9), (1, 0.8), (4, 0.1)]);
        let even = Fusion {
            lexical: 0.5,
            ..Fusion::DEFAULT
        };
        // 1 is high in both: 0.5 × 0.8 + 0.5 × 0.8 beats 0's 0.5 × 1 and 3's 0.5 × 0.9.
        let fused = even.fuse(&lexical, &dense, 5, &names);
        assert_eq!(docs(&fused), [1, 0, 3, 2, 4]);
        assert!((fused[0].score - 0.8).abs() < 1e-6);
        let only = |lexical| Fusion { lexical, ..even };
        assert_eq!(
            docs(&only(1.0).fuse(&lexical, &dense, 3, &names)),
            [0, 1, 2]
        );
        assert_eq!(
            docs(&only(0.0).fuse(&lexical, &dense, 3, &names)),
            [3, 1, 4]
        );
        let shallow = Fusion { depth: 1, ..even };
        assert_eq!(docs(&shallow.fuse(&lexical, &dense, 5, &names)), [0, 3]);
    }

    #[test]
    fn a_query_the_model_reads_poorly_leaves_bm25f_in_charge() {
        // Every cosine about equal and low: BM25F's order stands.
        let names = [0, 1, 2, 3];
        let lexical = hits(&[(0, 6.0), (1, 3.0)]);
        let dense = hits(&[(2, 0.21), (1, 0.20), (0, 0.19)]);
        let fused = Fusion::DEFAULT.fuse(&lexical, &dense, 3, &names);
        assert_eq!(docs(&fused), [0, 1, 2]);
        // Equal scores fall back to name order.
        let tie = Fusion::DEFAULT.fuse(&hits(&[(3, 1.0), (2, 1.0)]), &[], 2, &names);
        assert_eq!(docs(&tie), [2, 3]);
    }
}
