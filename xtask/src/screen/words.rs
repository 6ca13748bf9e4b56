//! The detector's word vectors, distilled from a sentence encoder as `Model2Vec` does: each
//! word training reads often enough is run alone through all-MiniLM-L6-v2, the vectors are
//! reduced to their [`DIM`] principal directions, and each is weighted down by how common
//! its word is (smooth inverse frequency), so "the" and "and" say little of a window.

use std::collections::HashMap;
use std::path::Path;

use catalog_result_scan::detector::{self, DIM, Words};
use serde_json::Value;

use super::usage;
use cargo_catalog::Usage;

/// The most words given a vector, the most frequent first.
const VOCABULARY: usize = 24_000;
/// Fewer times than this in training, a word has no vector: its letters still count.
const MIN_COUNT: usize = 3;
/// Smooth inverse frequency's constant: a word's weight is `A / (A + its share of words)`.
const A: f64 = 1e-3;

/// The table of word vectors for the words of `rows` (training's texts), the encoder's
/// vectors cached in `cache` between runs.
pub(super) fn distill(rows: &[Value], model: &Path, cache: &Path) -> Result<Words, Usage> {
    let mut counts: HashMap<u32, (String, usize)> = HashMap::new();
    let mut total = 0usize;
    for row in rows {
        for (word, key) in detector::words(row["text"].as_str().unwrap_or_default()) {
            counts.entry(key).or_insert((word, 0)).1 += 1;
            total += 1;
        }
    }
    let mut chosen: Vec<(u32, String, usize)> = counts
        .into_iter()
        .filter(|(_, (_, n))| *n >= MIN_COUNT)
        .map(|(k, (w, n))| (k, w, n))
        .collect();
    chosen.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.1.cmp(&b.1)));
    chosen.truncate(VOCABULARY);
    let texts: Vec<&str> = chosen.iter().map(|(_, w, _)| w.as_str()).collect();
    let vectors = encoded(&texts, model, cache)?;
    let mean = mean(&vectors);
    let directions = principal(&vectors, &mean, DIM);
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
    let entries = chosen
        .iter()
        .zip(&vectors)
        .map(|((key, _, n), v)| {
            let weight = (A / (A + *n as f64 / total as f64)) as f32;
            let centred: Vec<f32> = v.iter().zip(&mean).map(|(x, m)| x - m).collect();
            let projected = directions
                .iter()
                .map(|d| weight * d.iter().zip(&centred).map(|(a, b)| a * b).sum::<f32>())
                .collect();
            (*key, projected)
        })
        .collect();
    Ok(Words::new(entries))
}

/// The encoder's vector of each of `texts`, read from `cache` when it holds exactly these.
fn encoded(texts: &[&str], model: &Path, cache: &Path) -> Result<Vec<Vec<f32>>, Usage> {
    let list = texts.join("\n");
    let listed = cache.with_extension("txt");
    if std::fs::read_to_string(&listed).is_ok_and(|l| l == list)
        && let Ok(bytes) = std::fs::read(cache)
    {
        let floats: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if !floats.is_empty() && floats.len().is_multiple_of(texts.len()) {
            return Ok(floats
                .chunks(floats.len() / texts.len())
                .map(<[f32]>::to_vec)
                .collect());
        }
    }
    let encoder = catalog_embed::Model::load(model).map_err(usage)?;
    eprintln!(
        "running {} words through the encoder at {} (once) ...",
        texts.len(),
        model.display()
    );
    let mut vectors = Vec::with_capacity(texts.len());
    for chunk in texts.chunks(512) {
        vectors.extend(encoder.embed(chunk).map_err(usage)?);
    }
    let bytes: Vec<u8> = vectors
        .iter()
        .flatten()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    std::fs::write(cache, bytes).map_err(usage)?;
    std::fs::write(&listed, list).map_err(usage)?;
    Ok(vectors)
}

fn mean(vectors: &[Vec<f32>]) -> Vec<f32> {
    let dim = vectors.first().map_or(0, Vec::len);
    let mut sum = vec![0f64; dim];
    for v in vectors {
        for (s, x) in sum.iter_mut().zip(v) {
            *s += f64::from(*x);
        }
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
    sum.iter()
        .map(|s| (s / vectors.len() as f64) as f32)
        .collect()
}

/// The `k` principal directions of `vectors` (whose mean is `mean`), strongest first: the
/// covariance matrix's leading eigenvectors, by power iteration with deflation from a
/// fixed start.
fn principal(vectors: &[Vec<f32>], mean: &[f32], k: usize) -> Vec<Vec<f32>> {
    let dim = mean.len();
    let mut cov = vec![0f64; dim * dim];
    for v in vectors {
        let c: Vec<f64> = v.iter().zip(mean).map(|(x, m)| f64::from(x - m)).collect();
        for i in 0..dim {
            let ci = c[i];
            for (j, cj) in c.iter().enumerate().skip(i) {
                cov[i * dim + j] += ci * cj;
            }
        }
    }
    for i in 0..dim {
        for j in 0..i {
            cov[i * dim + j] = cov[j * dim + i];
        }
    }
    let mut out = Vec::with_capacity(k);
    for n in 0..k {
        #[allow(clippy::cast_precision_loss)]
        let mut v: Vec<f64> = (0..dim)
            .map(|i| 1.0 + ((i * 7 + n * 13) % 11) as f64 / 11.0)
            .collect();
        let mut value = 0.0;
        for _ in 0..300 {
            let mut w: Vec<f64> = (0..dim)
                .map(|i| {
                    cov[i * dim..(i + 1) * dim]
                        .iter()
                        .zip(&v)
                        .map(|(a, b)| a * b)
                        .sum()
                })
                .collect();
            let norm = w.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm == 0.0 {
                break;
            }
            for x in &mut w {
                *x /= norm;
            }
            let settled = w.iter().zip(&v).map(|(a, b)| (a - b).abs()).sum::<f64>() < 1e-10;
            v = w;
            value = norm;
            if settled {
                break;
            }
        }
        // Deflate: the next direction is the strongest of what this one leaves.
        for i in 0..dim {
            for j in 0..dim {
                cov[i * dim + j] -= value * v[i] * v[j];
            }
        }
        #[allow(clippy::cast_possible_truncation)]
        out.push(v.iter().map(|x| *x as f32).collect());
    }
    out
}
