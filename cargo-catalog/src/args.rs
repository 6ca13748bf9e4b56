//! The command line as the commands read it: `--key value` (or `--key=value`) options and
//! positional arguments, and the error that means "unusable arguments" (exit code 2).

use std::fmt;

/// Unusable arguments: an unknown command or option, a missing or malformed value, a file
/// that cannot be read. The caller prints the message and its usage text, and exits 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Usage(pub String);

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// `--key value` pairs and positional arguments, in the order given.
#[derive(Clone, Debug, Default)]
pub struct Flags {
    pairs: Vec<(String, String)>,
    positional: Vec<String>,
}

impl Flags {
    /// Splits `args` into options and positional arguments. Every option takes a value.
    ///
    /// # Errors
    /// When the last argument is an option without its value.
    pub fn parse(args: &[String]) -> Result<Flags, Usage> {
        let mut pairs = Vec::new();
        let mut positional = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let Some(key) = a.strip_prefix("--") else {
                positional.push(a.clone());
                continue;
            };
            let (key, value) = match key.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => match it.next() {
                    Some(v) => (key.to_string(), v.clone()),
                    None => return Err(Usage(format!("`--{key}` needs a value"))),
                },
            };
            pairs.push((key, value));
        }
        Ok(Flags { pairs, positional })
    }

    /// The value of `--key`; the last one when it is given several times.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The arguments that are not options, in order.
    #[must_use]
    pub fn positional(&self) -> &[String] {
        &self.positional
    }

    /// Fails on options outside `allowed` and on positional arguments.
    ///
    /// # Errors
    /// Naming the first unexpected argument or unknown option.
    pub fn only(&self, allowed: &[&str]) -> Result<(), Usage> {
        if let Some(p) = self.positional.first() {
            return Err(Usage(format!("unexpected argument `{p}`")));
        }
        self.only_options(allowed)
    }

    /// Fails on options outside `allowed`; positional arguments are the caller's.
    ///
    /// # Errors
    /// Naming the first unknown option.
    pub fn only_options(&self, allowed: &[&str]) -> Result<(), Usage> {
        match self
            .pairs
            .iter()
            .find(|(k, _)| !allowed.contains(&k.as_str()))
        {
            Some((k, _)) => Err(Usage(format!("unknown option `--{k}`"))),
            None => Ok(()),
        }
    }

    /// A positive whole number option, `default` when it is not given.
    ///
    /// # Errors
    /// When the value is not a whole number above zero.
    pub fn count(&self, key: &str, default: usize) -> Result<usize, Usage> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => match v.parse::<usize>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(Usage(format!(
                    "`--{key}` must be a positive whole number, not `{v}`"
                ))),
            },
        }
    }

    /// `--format`: `human` (the default) or `json`.
    ///
    /// # Errors
    /// When the value is neither.
    pub fn format(&self) -> Result<Format, Usage> {
        match self.get("format").unwrap_or("human") {
            "human" => Ok(Format::Human),
            "json" => Ok(Format::Json),
            other => Err(Usage(format!(
                "unknown format `{other}`: use human or json"
            ))),
        }
    }
}

/// Output format of `check` and `eval-search`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Text for people.
    Human,
    /// One JSON document, for CI and scripts.
    Json,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(args: &[&str]) -> Result<Flags, Usage> {
        Flags::parse(&args.iter().map(ToString::to_string).collect::<Vec<_>>())
    }

    #[test]
    fn options_take_a_value_either_way_and_the_last_one_wins() -> Result<(), Usage> {
        let f = flags(&["--k", "3", "request", "--k=4", "--format=json"])?;
        assert_eq!(f.get("k"), Some("4"));
        assert_eq!(f.count("k", 5)?, 4);
        assert_eq!(f.format()?, Format::Json);
        assert_eq!(f.positional(), ["request"]);
        Ok(())
    }

    #[test]
    fn unusable_values_are_named() -> Result<(), Usage> {
        let missing = flags(&["--catalog"]).map(|_| ());
        assert_eq!(missing, Err(Usage("`--catalog` needs a value".into())));
        let f = flags(&["--k", "0", "--format", "yaml", "--nope", "x"])?;
        assert_eq!(
            f.count("k", 5),
            Err(Usage(
                "`--k` must be a positive whole number, not `0`".into()
            ))
        );
        assert_eq!(
            f.format(),
            Err(Usage("unknown format `yaml`: use human or json".into()))
        );
        assert_eq!(
            f.only(&["k", "format"]),
            Err(Usage("unknown option `--nope`".into()))
        );
        Ok(())
    }
}
