//! A sentence-embedding model in the sentence-transformers layout (a BERT encoder, its
//! tokenizer, mean or first-token pooling), run on the CPU by candle.

use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use sha2::{Digest as _, Sha256};
use tokenizers::{Tokenizer, TruncationParams};

use crate::error::Error;

/// Texts embedded in one forward pass: long enough to keep the matrix products busy,
/// short enough that a catalog's shortest and longest texts rarely share a batch.
const BATCH: usize = 16;

/// How a text's token vectors become one vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pooling {
    /// The mean of the tokens' vectors (all-MiniLM-L6-v2 and most sentence-transformers).
    Mean,
    /// The first token's (`[CLS]`) vector.
    Cls,
}

/// A loaded model. Every vector it returns has length 1, so a dot product is the cosine.
pub struct Model {
    bert: BertModel,
    tokenizer: Tokenizer,
    pooling: Pooling,
    pad_id: u32,
    dim: usize,
    identity: String,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("dim", &self.dim)
            .field("pooling", &self.pooling)
            .field("identity", &self.identity)
            .finish_non_exhaustive()
    }
}

impl Model {
    /// Loads the model in `dir`: `config.json`, `model.safetensors` and `tokenizer.json`,
    /// and where present `sentence_bert_config.json` (the longest input) and
    /// `1_Pooling/config.json` (how tokens are pooled), as sentence-transformers writes them.
    ///
    /// # Errors
    /// A file missing or unreadable, or a model this crate cannot run, with what to do.
    pub fn load(dir: &Path) -> Result<Model, Error> {
        let file = |name: &str| dir.join(name);
        let config_text = read_text(&file("config.json"))?;
        let config: Config = serde_json::from_str(&config_text)
            .map_err(|e| Error::format(&file("config.json"), format!("not a BERT config: {e}")))?;
        let weights_path = file("model.safetensors");
        let weights = std::fs::read(&weights_path).map_err(|e| Error::read(&weights_path, &e))?;
        let tokenizer_path = file("tokenizer.json");
        let tokenizer_text = read_text(&tokenizer_path)?;
        let pooling = pooling(&file("1_Pooling/config.json"))?;
        let max_tokens = max_tokens(&file("sentence_bert_config.json"), &config)?;

        let mut tokenizer = Tokenizer::from_bytes(tokenizer_text.as_bytes())
            .map_err(|e| Error::format(&tokenizer_path, e.to_string()))?;
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: max_tokens,
                ..TruncationParams::default()
            }))
            .map_err(|e| Error::format(&tokenizer_path, e.to_string()))?;
        tokenizer.with_padding(None);

        // The identity a vectors file is pinned to: every byte that decides a vector.
        let mut hash = Sha256::new();
        for part in [config_text.as_bytes(), &weights, tokenizer_text.as_bytes()] {
            hash.update((part.len() as u64).to_le_bytes());
            hash.update(part);
        }
        hash.update(format!("{pooling:?} {max_tokens}"));
        let identity = hex(&hash.finalize());

        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu)
            .map_err(|e| Error::format(&weights_path, e.to_string()))?;
        let bert = BertModel::load(vb, &config).map_err(|e| {
            Error::format(
                &weights_path,
                format!("not the weights of a BERT encoder as config.json describes: {e}"),
            )
        })?;
        Ok(Model {
            bert,
            tokenizer,
            pooling,
            pad_id: u32::try_from(config.pad_token_id).unwrap_or(0),
            dim: config.hidden_size,
            identity,
        })
    }

    /// The length of every vector.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// A SHA-256 digest, in hex, of the model's configuration, weights and tokenizer.
    #[must_use]
    pub fn identity(&self) -> &str {
        &self.identity
    }

    /// One unit vector per text, in order.
    ///
    /// # Errors
    /// When the tokenizer or the encoder fails (which a model that loaded does not do on
    /// text).
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, Error> {
        let encodings = texts
            .iter()
            .map(|t| self.tokenizer.encode(*t, true))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Error::Model(e.to_string()))?;
        // Texts of like length share a batch, so little of a batch is padding.
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| encodings[i].len());
        let mut out = vec![Vec::new(); texts.len()];
        for batch in order.chunks(BATCH) {
            let ids: Vec<&[u32]> = batch.iter().map(|&i| encodings[i].get_ids()).collect();
            for (&i, v) in batch.iter().zip(self.forward(&ids)?) {
                out[i] = v;
            }
        }
        Ok(out)
    }

    /// The pooled, normalised vectors of a batch of token id sequences.
    fn forward(&self, ids: &[&[u32]]) -> Result<Vec<Vec<f32>>, Error> {
        let longest = ids.iter().map(|s| s.len()).max().unwrap_or(0).max(1);
        let (mut flat, mut mask) = (Vec::new(), Vec::new());
        for s in ids {
            flat.extend_from_slice(s);
            flat.resize(flat.len() + longest - s.len(), self.pad_id);
            mask.extend(std::iter::repeat_n(1u32, s.len()));
            mask.resize(mask.len() + longest - s.len(), 0);
        }
        let candle = |e: candle_core::Error| Error::Model(e.to_string());
        let shape = (ids.len(), longest);
        let input = Tensor::from_vec(flat, shape, &Device::Cpu).map_err(candle)?;
        let mask = Tensor::from_vec(mask, shape, &Device::Cpu).map_err(candle)?;
        let types = input.zeros_like().map_err(candle)?;
        let hidden = self
            .bert
            .forward(&input, &types, Some(&mask))
            .map_err(candle)?;
        let pooled = match self.pooling {
            Pooling::Cls => hidden.narrow(1, 0, 1).and_then(|t| t.squeeze(1)),
            Pooling::Mean => mask
                .to_dtype(DType::F32)
                .and_then(|m| m.unsqueeze(2))
                .and_then(|m| {
                    let sum = hidden.broadcast_mul(&m)?.sum(1)?;
                    sum.broadcast_div(&m.sum(1)?)
                }),
        }
        .map_err(candle)?;
        let rows: Vec<Vec<f32>> = pooled.to_vec2().map_err(candle)?;
        Ok(rows.into_iter().map(unit).collect())
    }
}

/// `v` scaled to length 1 (left as it is when it is all zeros).
fn unit(mut v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        for x in &mut v {
            *x /= norm;
        }
    }
    v
}

/// The pooling `path` (sentence-transformers' `1_Pooling/config.json`) asks for; mean
/// pooling when there is no such file.
fn pooling(path: &Path) -> Result<Pooling, Error> {
    if !path.exists() {
        return Ok(Pooling::Mean);
    }
    let v: serde_json::Value = serde_json::from_str(&read_text(path)?)
        .map_err(|e| Error::format(path, format!("not JSON: {e}")))?;
    let on = |key: &str| v[key].as_bool() == Some(true);
    let modes: Vec<&str> = [
        "pooling_mode_mean_tokens",
        "pooling_mode_cls_token",
        "pooling_mode_max_tokens",
        "pooling_mode_mean_sqrt_len_tokens",
        "pooling_mode_weightedmean_tokens",
        "pooling_mode_lasttoken",
    ]
    .into_iter()
    .filter(|k| on(k))
    .collect();
    match modes.as_slice() {
        ["pooling_mode_mean_tokens"] => Ok(Pooling::Mean),
        ["pooling_mode_cls_token"] => Ok(Pooling::Cls),
        _ => Err(Error::format(
            path,
            format!(
                "pools by {}; this crate runs mean pooling or the first token's \
                 (`pooling_mode_mean_tokens` or `pooling_mode_cls_token` alone): choose a \
                 model that pools one of those ways",
                if modes.is_empty() {
                    "no mode".to_string()
                } else {
                    modes.join(" and ")
                }
            ),
        )),
    }
}

/// The longest input in tokens: `max_seq_length` of `path` where it exists, else the
/// model's position limit.
fn max_tokens(path: &Path, config: &Config) -> Result<usize, Error> {
    if !path.exists() {
        return Ok(config.max_position_embeddings);
    }
    let v: serde_json::Value = serde_json::from_str(&read_text(path)?)
        .map_err(|e| Error::format(path, format!("not JSON: {e}")))?;
    Ok(v["max_seq_length"]
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(config.max_position_embeddings)
        .min(config.max_position_embeddings))
}

fn read_text(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|e| Error::read(path, &e))
}

/// Lowercase hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
