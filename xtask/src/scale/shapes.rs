//! Other shapes of the generated code, made by rewriting the formatted expansion, each
//! built as its own crate: where rustc spends its time on a large catalog, and which
//! shapes would keep it fast. The rewrites read the expansion as `cargo xtask expand`
//! prints it, line by line; they are measurements, not a second generator.

use std::fmt::Write as _;

/// A shape: its name, what it changes, and the rewrite.
pub struct Shape {
    /// Short name, also the crate's suffix.
    pub name: &'static str,
    /// What the rewrite does, for the table.
    pub what: &'static str,
    /// The rewrite of the whole expansion.
    pub rewrite: fn(&str) -> String,
}

/// The shapes tried, the expansion as generated first.
pub const SHAPES: &[Shape] = &[
    Shape {
        name: "as-generated",
        what: "the expansion as `catalog!` emits it",
        rewrite: |code| code.to_string(),
    },
    Shape {
        name: "tables-as-bytes",
        what: "search tables as one byte string each, decoded by `const` evaluation",
        rewrite: tables_as_bytes,
    },
    Shape {
        name: "no-serialize",
        what: "argument and value types without `Serialize` (they are only read)",
        rewrite: no_serialize,
    },
    Shape {
        name: "no-tables",
        what: "ablation: search tables empty (search finds nothing)",
        rewrite: no_tables,
    },
    Shape {
        name: "no-handler",
        what: "ablation: no `Handler` trait and no method calling it (`dispatch`)",
        rewrite: no_handler,
    },
];

fn no_serialize(code: &str) -> String {
    code.lines()
        .filter(|l| l.trim() != "::catalog_core::__private::serde::Serialize,")
        .fold(String::with_capacity(code.len()), |mut out, l| {
            out.push_str(l);
            out.push('\n');
            out
        })
}

/// Each `pub static NAME: [T; N] = [ … ];` of the search index, with the rest of the
/// code around them: `(before, name, element type, length, values)`.
fn rewrite_tables(
    code: &str,
    mut table: impl FnMut(&mut String, &str, &str, usize, &str),
) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("    pub static ") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let head_end = from.find(" = [").expect("a static array");
        let head = &from["    pub static ".len()..head_end];
        let (name, ty) = head.split_once(": [").expect("`NAME: [T; N]`");
        let (elem, len) = ty
            .trim_end_matches(']')
            .rsplit_once("; ")
            .expect("`[T; N]`");
        let len: usize = len.parse().expect("a length");
        let body_end = from.find("\n    ];\n").expect("the array closes");
        let values = &from[head_end + " = [".len()..body_end];
        table(&mut out, name, elem, len, values);
        rest = &from[body_end + "\n    ];\n".len()..];
    }
    out.push_str(rest);
    out
}

fn no_tables(code: &str) -> String {
    rewrite_tables(code, |out, name, elem, _, _| {
        let _ = writeln!(out, "    pub static {name}: [{elem}; 0] = [];");
    })
}

fn tables_as_bytes(code: &str) -> String {
    rewrite_tables(code, |out, name, elem, len, values| {
        let numbers = values
            .split(|c: char| c == ',' || c == '(' || c == ')' || c.is_whitespace())
            .filter(|s| !s.is_empty());
        let floats = elem.contains("f32");
        let mut bytes = Vec::new();
        for (i, n) in numbers.enumerate() {
            let bits = if floats && i % 2 == 1 {
                n.parse::<f32>().expect("an f32").to_bits()
            } else {
                n.parse::<u32>().expect("a u32")
            };
            bytes.extend(bits.to_le_bytes());
        }
        let width = bytes.len() / len.max(1);
        let word = |k: usize| {
            format!(
                "u32::from_le_bytes([B[{width} * i + {k}], B[{width} * i + {}], B[{width} * i + {}], B[{width} * i + {}]])",
                k + 1,
                k + 2,
                k + 3
            )
        };
        let (zero, value) = match elem {
            "(u32, u32)" => ("(0, 0)".to_string(), format!("({}, {})", word(0), word(4))),
            "(u32, f32)" => (
                "(0, 0.0)".to_string(),
                format!("({}, f32::from_bits({}))", word(0), word(4)),
            ),
            _ => ("0".to_string(), word(0)),
        };
        let _ = write!(
            out,
            "    #[allow(long_running_const_eval)]\n    pub static {name}: [{elem}; {len}] = {{\n        const B: &[u8] = b\""
        );
        for b in bytes {
            match b {
                b'"' | b'\\' => {
                    let _ = write!(out, "\\{}", char::from(b));
                }
                0x20..=0x7e => out.push(char::from(b)),
                _ => {
                    let _ = write!(out, "\\x{b:02x}");
                }
            }
        }
        let _ = writeln!(
            out,
            "\";\n        let mut out = [{zero}; {len}];\n        let mut i = 0;\n        while i < {len} {{\n            out[i] = {value};\n            i += 1;\n        }}\n        out\n    }};"
        );
    })
}

fn no_handler(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut skip_until: Option<&str> = None;
    for line in code.lines() {
        if let Some(end) = skip_until {
            if line == end {
                skip_until = None;
            }
            continue;
        }
        if line.starts_with("pub trait Handler") {
            skip_until = Some("}");
            continue;
        }
        // `dispatch`, and any other method generic over the handler.
        if line.starts_with("    pub async fn ") && line.contains("<H: Handler>") {
            skip_until = Some("    }");
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}
