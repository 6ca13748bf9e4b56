//! Located errors, rendered the same way by the macro and by `cargo catalog check`.

use std::fmt::Write as _;
use std::ops::Range;

/// Byte range into the catalog source.
pub type Span = Range<usize>;

/// One thing wrong with the catalog: where, what, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Byte range of the offending text.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// How to fix it, when there is something to say.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic without help.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Self {
            span,
            message: message.into(),
            help: None,
        }
    }

    /// Adds the fix.
    #[must_use]
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// Collects every diagnostic instead of stopping at the first (as serde's `Ctxt` does).
#[derive(Default, Debug)]
pub struct Errors(Vec<Diagnostic>);

impl Errors {
    /// Records a diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }

    /// Records an error without help.
    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.push(Diagnostic::new(span, message));
    }

    /// Whether nothing was recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The diagnostics in source order; ties keep the order they were found in.
    #[must_use]
    pub fn into_sorted(mut self) -> Vec<Diagnostic> {
        self.0.sort_by_key(|d| d.span.start);
        self.0.dedup();
        self.0
    }
}

/// Line and column (both 1-based, column in characters) of a byte offset.
#[must_use]
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    Lines::new(source).line_col(offset)
}

/// A source with where each of its lines starts, so that locating each of many findings
/// in a large catalog is a binary search, not a scan from the top.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    source: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    /// Indexes `source`'s lines.
    #[must_use]
    pub fn new(source: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(source.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { source, starts }
    }

    /// Line and column (both 1-based, column in characters) of a byte offset.
    #[must_use]
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(self.source, offset);
        let line = self.starts.partition_point(|&s| s <= offset);
        let col = self.source[self.starts[line - 1]..offset].chars().count() + 1;
        (line, col)
    }

    /// The text of 1-based line `n`, without its line break.
    fn line(&self, n: usize) -> &'a str {
        let start = self.starts[n - 1];
        let end = self.starts.get(n).map_or(self.source.len(), |&e| e - 1);
        self.source[start..end]
            .strip_suffix('\r')
            .unwrap_or(&self.source[start..end])
    }

    /// [`render`], with the lines already indexed.
    #[must_use]
    pub fn render(&self, file: &str, d: &Diagnostic) -> String {
        let source = self.source;
        let (line, col) = self.line_col(d.span.start);
        let mut out = format!("{file}:{line}:{col}: {}\n", d.message);
        let text = self.line(line);
        let gutter = line.to_string().len();
        let pad = " ".repeat(gutter);
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{line} | {text}");
        // Underline to the end of the span or of the line, whichever comes first.
        let start = floor_char_boundary(source, d.span.start);
        let end = floor_char_boundary(source, d.span.end.max(start));
        let on_line = source[start..end].split('\n').next().unwrap_or("");
        let width = on_line.chars().count().max(1);
        let indent: String = text
            .chars()
            .take(col - 1)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let _ = writeln!(out, "{pad} | {indent}{}", "^".repeat(width));
        if let Some(help) = &d.help {
            let _ = writeln!(out, "{pad} = help: {help}");
        }
        out
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A diagnostic resolved against its file: what `--format json` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<'a> {
    /// The file as the user named it (relative).
    pub file: &'a str,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The diagnostic.
    pub diagnostic: &'a Diagnostic,
}

impl<'a> Located<'a> {
    /// Resolves `diagnostic` against `source`, the text of `file`.
    #[must_use]
    pub fn new(file: &'a str, source: &str, diagnostic: &'a Diagnostic) -> Self {
        Located::at(file, &Lines::new(source), diagnostic)
    }

    /// [`Located::new`], with the lines already indexed.
    #[must_use]
    pub fn at(file: &'a str, lines: &Lines<'_>, diagnostic: &'a Diagnostic) -> Self {
        let (line, column) = lines.line_col(diagnostic.span.start);
        Located {
            file,
            line,
            column,
            diagnostic,
        }
    }
}

/// Renders a diagnostic as `file:LINE:COL: message`, the offending line with a caret
/// under the span, and the help:
///
/// ```text
/// catalog.toml:12:1: unknown key `visiblity` in tool `openTable`
///    |
/// 12 | visiblity = "inline"
///    | ^^^^^^^^^
///    = help: did you mean `visibility`?
/// ```
#[must_use]
pub fn render(file: &str, source: &str, d: &Diagnostic) -> String {
    Lines::new(source).render(file, d)
}

/// Renders every diagnostic, separated by blank lines, with a closing count.
#[must_use]
pub fn render_all(file: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    let lines = Lines::new(source);
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&lines.render(file, d));
        out.push('\n');
    }
    let n = diagnostics.len();
    let _ = writeln!(out, "{file}: {n} error{}", if n == 1 { "" } else { "s" });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        let src = "a = 1\nbé = 2\n";
        assert_eq!(line_col(src, 0), (1, 1));
        let off = src.find('=').unwrap();
        assert_eq!(line_col(src, off), (1, 3));
        let off = src.rfind('=').unwrap();
        assert_eq!(line_col(src, off), (2, 4));
    }

    #[test]
    fn render_points_at_the_span() {
        let src = "[settings]\nsearch-tol = \"x\"\n";
        let start = src.find("search-tol").unwrap();
        let d = Diagnostic::new(start..start + 10, "unknown key `search-tol`")
            .help("did you mean `search-tool`?");
        assert_eq!(
            render("catalog.toml", src, &d),
            "catalog.toml:2:1: unknown key `search-tol`\n  |\n2 | search-tol = \"x\"\n  | ^^^^^^^^^^\n  = help: did you mean `search-tool`?\n"
        );
    }
}
