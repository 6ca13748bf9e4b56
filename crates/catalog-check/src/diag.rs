//! Located errors, rendered the same way by the macro and by `cargo catalog check`.

use std::fmt::Write as _;
use std::ops::Range;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

/// Byte range into the catalog source.
pub type Span = Range<usize>;

/// Places of one diagnostic at most this many lines apart are drawn in one snippet (the
/// lines between folded), as rustc draws them.
const NEAR_LINES: usize = 5;

/// One thing wrong with the catalog: where, what, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Byte range of the offending text.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// How to fix it, when there is something to say.
    pub help: Option<String>,
    /// The other places the error involves (the first of two rows with one name), each
    /// with what it is.
    pub related: Vec<Related>,
    /// The lint that found it, printed in the heading: `warning[unnamed-need]`.
    pub code: Option<&'static str>,
}

/// A place a diagnostic involves besides its own span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    /// Byte range in the catalog source.
    pub span: Span,
    /// What is there, as printed under it: "the first `openTable`".
    pub label: String,
}

impl Diagnostic {
    /// A diagnostic without help.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Self {
            span,
            message: message.into(),
            help: None,
            related: Vec::new(),
            code: None,
        }
    }

    /// Adds the fix.
    #[must_use]
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Points at another place the error involves.
    #[must_use]
    pub fn related(mut self, span: Span, label: impl Into<String>) -> Self {
        self.related.push(Related {
            span,
            label: label.into(),
        });
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

    /// Records every diagnostic of `other`, after those already recorded.
    pub fn extend(&mut self, other: Errors) {
        self.0.extend(other.0);
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

    /// How many diagnostics were recorded.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Takes out the diagnostics recorded after the first `at`.
    pub(crate) fn split_off(&mut self, at: usize) -> Errors {
        Errors(self.0.split_off(at))
    }

    /// The diagnostics in source order; ties keep the order they were found in.
    #[must_use]
    pub(crate) fn into_sorted(mut self) -> Vec<Diagnostic> {
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
        self.render_styled(file, d, Style::default())
    }

    /// Renders `d` as [`render`] does, headed and drawn as `style` says.
    #[must_use]
    pub fn render_styled(&self, file: &str, d: &Diagnostic, style: Style) -> String {
        let level = match (style.warning, style.unnamed) {
            (true, false) => Level::WARNING,
            (false, false) => Level::ERROR,
            (true, true) => Level::WARNING.no_name(),
            (false, true) => Level::ERROR.no_name(),
        };
        let mut title = level.primary_title(d.message.as_str());
        if let Some(code) = d.code {
            title = title.id(code);
        }
        // Each place underlined to the end of its span or of its first line, whichever
        // comes first; `None` labels the error's own place.
        let mut places: Vec<(usize, Span, Option<&str>)> = std::iter::once((&d.span, None))
            .chain(d.related.iter().map(|r| (&r.span, Some(r.label.as_str()))))
            .map(|(span, label)| {
                let start = floor_char_boundary(self.source, span.start);
                let line = self.line_col(start).0;
                // A span from a line's `\r` on points at the line's end.
                let line_end = self.starts[line - 1] + self.line(line).len();
                let start = start.min(line_end);
                let end = floor_char_boundary(self.source, span.end).clamp(start, line_end);
                (line, start..end, label)
            })
            .collect();
        // Places a few lines apart share a snippet; the error's own comes first, so the
        // `-->` line names it. Only the lines shown are handed to the renderer, so drawing
        // stays cheap however large the catalog.
        places.sort_by_key(|(line, _, label)| (label.is_some(), *line));
        let mut clusters: Vec<Vec<(usize, Span, Option<&str>)>> = Vec::new();
        for place in places {
            let near = clusters.iter_mut().find(|c| {
                c.iter()
                    .any(|(line, _, _)| line.abs_diff(place.0) <= NEAR_LINES)
            });
            match near {
                Some(cluster) => cluster.push(place),
                None => clusters.push(vec![place]),
            }
        }
        let mut group = Group::with_title(title);
        for cluster in &clusters {
            let first = cluster.iter().map(|p| p.0).min().unwrap_or(1);
            let last = cluster.iter().map(|p| p.0).max().unwrap_or(1);
            let offset = self.starts[first - 1];
            let text = &self.source[offset..self.starts[last - 1] + self.line(last).len()];
            let mut snippet = Snippet::source(text).line_start(first).path(file);
            for (_, span, label) in cluster {
                let at = span.start - offset..span.end - offset;
                snippet = snippet.annotation(match label {
                    None => AnnotationKind::Primary.span(at),
                    Some(label) => AnnotationKind::Context.span(at).label(*label),
                });
            }
            group = group.element(snippet);
        }
        if let Some(help) = &d.help {
            group = group.element(Level::HELP.message(help.as_str()));
        }
        let renderer = if style.colour {
            Renderer::styled()
        } else {
            Renderer::plain()
        };
        let mut out = renderer.render(&[group]);
        out.push('\n');
        out
    }
}

impl Lines<'_> {
    /// [`render_all`], drawn as `style` says.
    #[must_use]
    pub fn render_all(&self, file: &str, diagnostics: &[Diagnostic], style: Style) -> String {
        let mut out = String::new();
        for d in diagnostics {
            out.push_str(&self.render_styled(file, d, style));
            out.push('\n');
        }
        let n = diagnostics.len();
        let _ = writeln!(out, "{file}: {n} error{}", if n == 1 { "" } else { "s" });
        out
    }
}

/// How [`Lines::render_styled`] heads and draws a diagnostic; the default is a plain error.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// Headed `warning` rather than `error`.
    pub warning: bool,
    /// ANSI colours, for a terminal.
    pub colour: bool,
    /// Without the level's name, for a layer that writes it itself (`compile_error!`
    /// heads its text with `error: `).
    pub unnamed: bool,
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

/// Renders a diagnostic as rustc does (with `annotate-snippets`, rustc's renderer): the
/// message, `--> file:LINE:COL`, the offending line with a caret under the span (placed
/// by display width, so wide characters before it do not shift it), every related place
/// with its label, and the help:
///
/// ```text
/// error: unknown key `visiblity` in tool `openTable`
///   --> catalog.toml:12:1
///    |
/// 12 | visiblity = "inline"
///    | ^^^^^^^^^
///    |
///    = help: did you mean `visibility`?
/// ```
#[must_use]
pub fn render(file: &str, source: &str, d: &Diagnostic) -> String {
    Lines::new(source).render(file, d)
}

/// Renders every diagnostic, separated by blank lines, with a closing count.
#[must_use]
pub fn render_all(file: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    Lines::new(source).render_all(file, diagnostics, Style::default())
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
    fn render_points_at_every_place_by_display_width() {
        let src = "[[tool]]\nname = \"表を開く\"\n\n[[tool]]\ndescription = \"表\" ; name = \"表を開く\"\n";
        let first = src.find("\"表を開く").unwrap();
        let second = src.rfind("\"表を開く").unwrap();
        let d = Diagnostic::new(second..second + 14, "tool `表を開く` is declared twice")
            .related(first..first + 14, "the first `表を開く`")
            .help("rename or remove one");
        // `表` is two columns wide: the caret starts under the quote, not two columns early.
        // Three lines apart, both places share one snippet, the lines between folded.
        assert_eq!(
            render("catalog.toml", src, &d),
            "error: tool `表を開く` is declared twice
 --> catalog.toml:5:28
  |
2 | name = \"表を開く\"
  |        ---------- the first `表を開く`
...
5 | description = \"表\" ; name = \"表を開く\"
  |                             ^^^^^^^^^^
  |
  = help: rename or remove one
"
        );
        // Far apart, each has its own, the error's own first.
        let far = src.replace("\n\n", &"\n".repeat(20));
        let (first, second) = (
            far.find("\"表を開く").unwrap(),
            far.rfind("\"表を開く").unwrap(),
        );
        let d = Diagnostic::new(second..second + 14, "tool `表を開く` is declared twice")
            .related(first..first + 14, "the first `表を開く`");
        assert_eq!(
            render("catalog.toml", &far, &d),
            "error: tool `表を開く` is declared twice
  --> catalog.toml:23:28
   |
23 | description = \"表\" ; name = \"表を開く\"
   |                             ^^^^^^^^^^
   |
  ::: catalog.toml:2:8
   |
 2 | name = \"表を開く\"
   |        ---------- the first `表を開く`
"
        );
    }

    #[test]
    fn spans_at_a_line_end_render() {
        for src in ["a = 1\r\nb = 2\r\n", "a = 1\nb"] {
            for start in 0..=src.len() {
                for end in [start, src.len()] {
                    let d = Diagnostic::new(start..end, "m").related(0..end, "r");
                    assert!(render("catalog.toml", src, &d).starts_with("error: m\n"));
                }
            }
        }
    }

    #[test]
    fn an_unnamed_heading_leaves_the_level_to_the_caller() {
        let mut d = Diagnostic::new(0..1, "m");
        d.code = Some("lint-name");
        let unnamed = Style {
            unnamed: true,
            ..Style::default()
        };
        let lines = Lines::new("a = 1\n");
        assert!(
            lines
                .render(".toml", &d)
                .starts_with("error[lint-name]: m\n")
        );
        assert!(
            lines
                .render_styled(".toml", &d, unnamed)
                .starts_with("lint-name: m\n")
        );
    }

    #[test]
    fn render_points_at_the_span() {
        let src = "[settings]\nsearch-tol = \"x\"\n";
        let start = src.find("search-tol").unwrap();
        let d = Diagnostic::new(start..start + 10, "unknown key `search-tol`")
            .help("did you mean `search-tool`?");
        assert_eq!(
            render("catalog.toml", src, &d),
            "error: unknown key `search-tol`\n --> catalog.toml:2:1\n  |\n2 | search-tol = \"x\"\n  | ^^^^^^^^^^\n  |\n  = help: did you mean `search-tool`?\n"
        );
    }
}
