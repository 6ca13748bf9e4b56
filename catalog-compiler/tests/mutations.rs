//! The compiler never panics on a broken catalog: 800 deterministic mutations of
//! the example catalog (bytes deleted, duplicated, swapped for TOML's own punctuation, lines
//! dropped) each either compile or fail with located diagnostics.

const EXAMPLE: &str = include_str!("../../catalog.toml");

/// A small deterministic generator, so a failure reproduces from its seed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        #[allow(clippy::cast_possible_truncation)]
        let x = (self.0 >> 33) as usize;
        x % below.max(1)
    }
}

/// The byte range of the line holding `at`, without its newline.
fn line_around(bytes: &[u8], at: usize) -> (usize, usize) {
    let start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = bytes[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| at + i);
    (start, end)
}

fn mutate(source: &str, rng: &mut Lcg) -> String {
    let mut bytes = source.as_bytes().to_vec();
    for _ in 0..=rng.next(3) {
        let at = rng.next(bytes.len());
        match rng.next(5) {
            0 => {
                bytes.remove(at);
            }
            1 => {
                let b = bytes[at];
                bytes.insert(at, b);
            }
            2 => {
                let punctuation = b"[]{}=\",.#'\n x1";
                bytes[at] = punctuation[rng.next(punctuation.len())];
            }
            3 => {
                // Drop the whole line.
                let (start, end) = line_around(&bytes, at);
                bytes.drain(start..end);
            }
            _ => {
                // Duplicate a line elsewhere.
                let (start, end) = line_around(&bytes, at);
                let line = bytes[start..end].to_vec();
                let to = rng.next(bytes.len());
                bytes.splice(to..to, line);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn mutated_catalogs_fail_with_located_errors_and_never_panic() {
    let mut rng = Lcg(0x5eed);
    let (mut valid, mut invalid) = (0, 0);
    for case in 0..800 {
        let source = mutate(EXAMPLE, &mut rng);
        let outcome = std::panic::catch_unwind(|| catalog_compiler::compile(&source));
        let Ok(result) = outcome else {
            panic!("case {case} panicked; source:\n{source}");
        };
        match result {
            Ok(_) => valid += 1,
            Err(diagnostics) => {
                invalid += 1;
                assert!(
                    !diagnostics.is_empty(),
                    "case {case}: an error without a diagnostic"
                );
                for d in &diagnostics {
                    assert!(
                        d.span.start <= source.len(),
                        "case {case}: span past the end: {d:?}"
                    );
                    assert!(!d.message.is_empty());
                    // Rendering resolves a line and column for every diagnostic.
                    let text = catalog_compiler::render("catalog.toml", &source, d);
                    assert!(text.starts_with("catalog.toml:"), "{text}");
                }
            }
        }
    }
    // Both outcomes occur, or the mutations are not exercising anything.
    assert!(
        valid > 0 && invalid > 200,
        "valid {valid}, invalid {invalid}"
    );
}
