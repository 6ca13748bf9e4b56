//! The tools' vectors: the text each is computed from (the texts the BM25F index reads),
//! and the file `cargo catalog embed` writes them to, pinned to the catalog's index and
//! the model so that a stale file is an error rather than a quietly wrong ranking.

use std::collections::HashMap;
use std::path::Path;

use catalog_check::model::{CatalogModel, Visibility};
use catalog_check::search::each_text;
use catalog_core::search::{Field, Index};
use safetensors::tensor::{Dtype, SafeTensors, TensorView};
use sha2::{Digest as _, Sha256};

use crate::error::Error;
use crate::model::{Model, hex};

/// The format written in a vectors file's metadata, checked on reading.
const FORMAT: &str = "catalog-embed vectors 1";
/// The one tensor of a vectors file: documents × dimensions, `f32`.
const TENSOR: &str = "vectors";

/// The text tool `i` is embedded from: its name as words, then the texts the BM25F index
/// reads, in its order (keywords, description, examples, parameters), a line each. Empty
/// for a tool no search returns (an inline tool, the search tool).
#[must_use]
pub fn text(catalog: &CatalogModel, i: usize) -> String {
    if catalog.tools[i].visibility != Visibility::Discoverable || i == catalog.settings.search_tool
    {
        return String::new();
    }
    let mut out = String::new();
    each_text(catalog, i, |field, text| {
        if !out.is_empty() {
            out.push('\n');
        }
        if field == Field::Name {
            out.push_str(&words(text));
        } else {
            out.push_str(text);
        }
    });
    out
}

/// An identifier as the words a sentence would use: `getCurrentTime` → `get Current Time`,
/// `triangle_properties.get` → `triangle properties get`.
fn words(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower {
                out.push(' ');
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            out.push(c);
        } else {
            if !out.ends_with(' ') && !out.is_empty() {
                out.push(' ');
            }
            prev_lower = false;
        }
    }
    out.trim_end().to_string()
}

/// A digest of everything a search reads of a catalog, in hex: the index's tables.
/// A compiled catalog's index and one built at run time from the same file are the same
/// tables, so both give the same digest.
#[must_use]
pub fn index_digest(index: &Index<'_>) -> String {
    let mut hash = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    part(index.slots);
    part(index.postings);
    let words = |w: &[u32]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    part(&words(index.name_rank));
    part(&words(index.withheld));
    part(index.language.code().as_bytes());
    hex(&hash.finalize())
}

/// One unit vector per document of a catalog's index (all zeros for a document no search
/// returns), with what it was computed from.
#[derive(Clone, Debug, PartialEq)]
pub struct Vectors {
    dim: usize,
    data: Vec<f32>,
    index: String,
    model: String,
}

impl Vectors {
    /// Embeds every tool of `catalog` a search may return; `index` is its search index.
    ///
    /// # Errors
    /// When the model fails.
    pub fn compute(
        model: &Model,
        catalog: &CatalogModel,
        index: &Index<'_>,
    ) -> Result<Vectors, Error> {
        let texts: Vec<String> = (0..catalog.tools.len()).map(|i| text(catalog, i)).collect();
        let searchable: Vec<usize> = (0..texts.len()).filter(|&i| !texts[i].is_empty()).collect();
        let inputs: Vec<&str> = searchable.iter().map(|&i| texts[i].as_str()).collect();
        let dim = model.dim();
        let mut data = vec![0.0; texts.len() * dim];
        for (&i, v) in searchable.iter().zip(model.embed(&inputs)?) {
            data[i * dim..(i + 1) * dim].copy_from_slice(&v);
        }
        Ok(Vectors {
            dim,
            data,
            index: index_digest(index),
            model: model.identity().to_string(),
        })
    }

    /// How many documents.
    #[must_use]
    pub fn len(&self) -> usize {
        self.data.len() / self.dim.max(1)
    }

    /// Whether there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Document `doc`'s vector.
    #[must_use]
    pub fn row(&self, doc: usize) -> &[f32] {
        &self.data[doc * self.dim..(doc + 1) * self.dim]
    }

    /// Whether these are the vectors of `index` made by `model`; `path` names them in the
    /// error.
    ///
    /// # Errors
    /// [`Error::Stale`] when the catalog or the model changed since.
    pub fn check(&self, model: &Model, index: &Index<'_>, path: &Path) -> Result<(), Error> {
        let stale = |changed| Error::Stale {
            path: path.to_path_buf(),
            changed,
        };
        if self.model != model.identity() {
            return Err(stale("model"));
        }
        if self.index != index_digest(index) || self.len() != index.len() {
            return Err(stale("catalog"));
        }
        Ok(())
    }

    /// Writes them as a safetensors file, what they were computed from in its metadata.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        let bytes: Vec<u8> = self.data.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = TensorView::new(Dtype::F32, vec![self.len(), self.dim], &bytes)
            .map_err(|e| Error::format(path, e.to_string()))?;
        let metadata = HashMap::from([
            ("format".to_string(), FORMAT.to_string()),
            ("index".to_string(), self.index.clone()),
            ("model".to_string(), self.model.clone()),
        ]);
        safetensors::serialize_to_file([(TENSOR, view)], Some(metadata), path).map_err(|e| {
            Error::Io {
                path: path.to_path_buf(),
                message: e.to_string(),
            }
        })
    }

    /// Reads a file [`Vectors::write`] wrote.
    ///
    /// # Errors
    /// When it cannot be read or is not such a file.
    pub fn read(path: &Path) -> Result<Vectors, Error> {
        let bytes = std::fs::read(path).map_err(|e| Error::read(path, &e))?;
        let not_ours = |why: String| {
            Error::format(
                path,
                format!(
                    "not a vectors file of `cargo catalog embed` ({why}); write one with \
                     `cargo catalog embed --model DIR --out FILE`"
                ),
            )
        };
        let file = SafeTensors::deserialize(&bytes).map_err(|e| not_ours(e.to_string()))?;
        let (_, header) =
            SafeTensors::read_metadata(&bytes).map_err(|e| not_ours(e.to_string()))?;
        let meta = header.metadata().clone().unwrap_or_default();
        if meta.get("format").map(String::as_str) != Some(FORMAT) {
            return Err(not_ours(format!("its format is not `{FORMAT}`")));
        }
        let tensor = file
            .tensor(TENSOR)
            .map_err(|_| not_ours(format!("no `{TENSOR}` tensor")))?;
        let [_, dim] = tensor.shape() else {
            return Err(not_ours("its tensor is not a matrix".into()));
        };
        if tensor.dtype() != Dtype::F32 {
            return Err(not_ours("its tensor is not f32".into()));
        }
        let data = tensor
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let field = |key: &str| meta.get(key).cloned().unwrap_or_default();
        Ok(Vectors {
            dim: *dim,
            data,
            index: field("index"),
            model: field("model"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_as_words() {
        assert_eq!(words("getCurrentTime"), "get Current Time");
        assert_eq!(words("triangle_properties.get"), "triangle properties get");
        assert_eq!(words("sendHTTPRequest2"), "send HTTPRequest2");
        assert_eq!(words("_x__y_"), "x y");
    }
}
