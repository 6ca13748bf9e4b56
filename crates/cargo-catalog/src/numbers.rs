//! Numbers as the reports print them.

/// `25519` as `25,519`, for the figures the commands print.
#[must_use]
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The plural ending of a count: `1 error`, `2 errors`.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A count as a float, for rates and means.
#[allow(clippy::cast_precision_loss)] // counts far below 2^52
pub(crate) fn count_f64(n: usize) -> f64 {
    n as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_separated_by_commas() {
        let cases = [(0, "0"), (999, "999"), (1_000, "1,000"), (25_519, "25,519")];
        for (n, text) in cases {
            assert_eq!(thousands(n), text);
        }
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
