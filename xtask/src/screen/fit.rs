//! Fitting the detector: the windows training reads, their weights, and the model (a
//! weight per hashed feature plus a one-layer network over the window's mean word
//! vector) fitted jointly by Adagrad on the logistic loss.

use catalog_result_scan::detector::{self, DIM, HIDDEN, Words};
use serde_json::Value;

use super::sigmoid;

/// The step size of Adagrad.
const RATE: f32 = 0.2;
/// The most windows one honest text gives to training, so a long page weighs like a few
/// short ones.
const WINDOWS_PER_TEXT: usize = 24;

/// One training window: its feature slots, its mean word vector, its label and its weight.
pub(super) struct Example {
    slots: Vec<u32>,
    meaning: [f32; DIM],
    label: f32,
    weight: f32,
}

/// The fitted model's parts, as `Detector::new` and `Meaning::new` take them.
pub(super) struct Fitted {
    pub weights: Vec<f32>,
    pub hidden: Vec<f32>,
    pub hidden_bias: Vec<f32>,
    pub out: Vec<f32>,
    pub bias: f32,
}

/// The windows training sees: an honest text's windows (at most [`WINDOWS_PER_TEXT`],
/// spread over it) as honest; an injection whole, and each of its units with three words
/// or more, as injections. Each side weighs half.
pub(super) fn examples(rows: &[Value], words: &Words) -> Vec<Example> {
    let mut out = Vec::new();
    for row in rows {
        let Some(text) = row["text"].as_str() else {
            continue;
        };
        let source = row["source"].as_str().unwrap_or_default();
        let injection = row["label"] == 1;
        let windows = detector::windows(text);
        let mut push = |window: detector::Window| {
            if !window.slots.is_empty() {
                out.push((
                    source.to_string(),
                    Example {
                        meaning: words.embed(&window.words),
                        slots: window.slots,
                        label: if injection { 1.0 } else { 0.0 },
                        weight: 1.0,
                    },
                ));
            }
        };
        if injection {
            push(detector::whole(text));
            for window in windows {
                let w = &text[window.range.clone()];
                if !w.contains('\n') && w.split_whitespace().count() >= 3 {
                    push(window);
                }
            }
        } else {
            let step = windows.len().div_ceil(WINDOWS_PER_TEXT).max(1);
            for window in windows.into_iter().step_by(step) {
                push(window);
            }
        }
    }
    balance(&mut out);
    out.into_iter().map(|(_, e)| e).collect()
}

/// Weights so that a source's windows weigh as the square root of their number (a large
/// set counts for more than a small one, not for all), and the injections as much as the
/// honest text, with a mean weight of one.
#[allow(clippy::cast_precision_loss)]
fn balance(examples: &mut [(String, Example)]) {
    let mut per_source = std::collections::HashMap::new();
    for (source, e) in examples.iter() {
        *per_source
            .entry((source.clone(), e.label > 0.5))
            .or_insert(0usize) += 1;
    }
    for (source, e) in examples.iter_mut() {
        e.weight = 1.0 / (per_source[&(source.clone(), e.label > 0.5)] as f32).sqrt();
    }
    let total = |positive: bool| -> f32 {
        examples
            .iter()
            .filter(|(_, e)| (e.label > 0.5) == positive)
            .map(|(_, e)| e.weight)
            .sum()
    };
    let (pos, neg) = (total(true), total(false));
    let half = examples.len() as f32 / 2.0;
    for (_, e) in examples.iter_mut() {
        e.weight *= half / if e.label > 0.5 { pos } else { neg };
    }
}

/// The same numbers on every machine: xorshift64.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `-r..r`.
    #[allow(clippy::cast_precision_loss)]
    fn within(&mut self, r: f32) -> f32 {
        ((self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * r
    }
}

/// A parameter vector and its Adagrad accumulators.
struct Adagrad {
    values: Vec<f32>,
    squares: Vec<f32>,
}

impl Adagrad {
    fn new(values: Vec<f32>) -> Adagrad {
        let squares = vec![1e-8; values.len()];
        Adagrad { values, squares }
    }

    fn step(&mut self, i: usize, gradient: f32) {
        self.squares[i] += gradient * gradient;
        self.values[i] -= RATE * gradient / self.squares[i].sqrt();
    }
}

/// The model fitted to `examples` by Adagrad in a seeded order, `epochs` passes, with `l2`
/// regularisation per update.
pub(super) fn fit(examples: &[Example], epochs: usize, l2: f32) -> Fitted {
    let mut seed = Seeded(0x9e37_79b9_7f4a_7c15);
    let mut weights = Adagrad::new(vec![0f32; 1 << detector::BITS]);
    #[allow(clippy::cast_precision_loss)]
    let glorot = (6.0 / (DIM + HIDDEN) as f32).sqrt();
    let mut hidden = Adagrad::new((0..HIDDEN * DIM).map(|_| seed.within(glorot)).collect());
    let mut hidden_bias = Adagrad::new(vec![0f32; HIDDEN]);
    let mut out = Adagrad::new((0..HIDDEN).map(|_| seed.within(0.1)).collect());
    let mut bias = Adagrad::new(vec![0f32]);
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut units = [0f32; HIDDEN];
    for _ in 0..epochs {
        // Fisher-Yates.
        for i in (1..order.len()).rev() {
            #[allow(clippy::cast_possible_truncation)]
            let j = (seed.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        for &i in &order {
            let e = &examples[i];
            #[allow(clippy::cast_precision_loss)]
            let scale = 1.0 / (e.slots.len() as f32).sqrt();
            let sum: f32 = e.slots.iter().map(|&s| weights.values[s as usize]).sum();
            for (k, unit) in units.iter_mut().enumerate() {
                let row = &hidden.values[k * DIM..(k + 1) * DIM];
                let z = hidden_bias.values[k]
                    + row.iter().zip(&e.meaning).map(|(a, x)| a * x).sum::<f32>();
                *unit = z.max(0.0);
            }
            let net: f32 = units.iter().zip(&out.values).map(|(a, b)| a * b).sum();
            let predicted = sigmoid(bias.values[0] + sum * scale + net);
            let g = (predicted - e.label) * e.weight;
            for &s in &e.slots {
                let s = s as usize;
                weights.step(s, g * scale + l2 * weights.values[s]);
            }
            for (k, &unit) in units.iter().enumerate() {
                if unit > 0.0 {
                    let gk = g * out.values[k];
                    for (d, x) in e.meaning.iter().enumerate() {
                        let at = k * DIM + d;
                        hidden.step(at, gk * x + l2 * hidden.values[at]);
                    }
                    hidden_bias.step(k, gk);
                }
                out.step(k, g * unit + l2 * out.values[k]);
            }
            bias.step(0, g);
        }
    }
    Fitted {
        weights: weights.values,
        hidden: hidden.values,
        hidden_bias: hidden_bias.values,
        out: out.values,
        bias: bias.values[0],
    }
}
