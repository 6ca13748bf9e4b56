//! Every row's [`ToolSpec`] as two literals: one string holding the text, one byte string
//! holding the rest. The generated code holds these and decodes them the first time a spec
//! is asked for.
//!
//! Specs written as struct literals were most of a large catalog's generated code, and
//! the type checking of those constants took most of its build time. Two literals cost
//! rustc one token each, whatever the catalog's size. A catalog read at run time takes the
//! same path, so the one decoder below is exercised by both.
//!
//! The format: each string is a length in `data` and its bytes next in `text`, in order.
//! Numbers are LEB128, floats 8 bytes little-endian, and shapes a [`tag`] byte followed by
//! their parts. [`Writer`] writes the primitives and the compiler writes the rows in the
//! order [`unpack`] reads them. Round-trip tests (every kind of shape, and every row of
//! the repository's catalogs, in `catalog-check`) keep the two in step.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use once_cell::race::OnceBox;

use crate::access::{Access, Effect};
use crate::shape::{
    Bounds, Condition, Defs, Dependent, Object, Others, Pattern, PatternProperty, Property, Rules,
    Shape,
};
use crate::spec::{TaskSupport, Tier, ToolSpec, Visibility};

mod arena;
pub use arena::{Arena, Leak};

/// The byte that starts each kind of [`Shape`].
pub mod tag {
    #![allow(missing_docs)]
    pub const ANY: u8 = 0;
    pub const NULL: u8 = 1;
    pub const BOOLEAN: u8 = 2;
    pub const INTEGER: u8 = 3;
    pub const INT64: u8 = 4;
    pub const NUMBER: u8 = 5;
    pub const STRING: u8 = 6;
    pub const ARRAY: u8 = 7;
    pub const OBJECT: u8 = 8;
    pub const EITHER: u8 = 9;
    pub const ALL: u8 = 10;
    pub const ENUM: u8 = 11;
    pub const RULES: u8 = 12;
    pub const DEFS: u8 = 13;
    pub const REF: u8 = 14;
    pub const NOT: u8 = 15;
    pub const IF: u8 = 16;
}

/// Which bounds follow a bounds byte, one bit each, in this order.
const BOUND_BITS: [u8; 4] = [1, 2, 4, 8];

/// Nesting the decoder follows before it calls the data corrupt: far above any schema the
/// compiler reads, and a bound on the stack it uses.
const MAX_DEPTH: usize = 256;

/// The packed specs of a catalog: what `Tool::spec` of the generated code reads.
pub struct Specs {
    text: &'static str,
    data: &'static [u8],
    unpacked: OnceBox<Vec<ToolSpec<'static>>>,
}

impl Specs {
    /// Specs to decode on first use.
    #[must_use]
    pub const fn new(text: &'static str, data: &'static [u8]) -> Specs {
        Specs {
            text,
            data,
            unpacked: OnceBox::new(),
        }
    }

    /// The spec of the row at `index`.
    ///
    /// # Panics
    ///
    /// If the literals do not decode or hold no such row: the compiler wrote both in the
    /// format this module reads, so either would be a bug in this crate or the compiler.
    #[must_use]
    pub fn get(&'static self, index: usize) -> &'static ToolSpec<'static> {
        let specs = self
            .unpacked
            .get_or_init(|| match unpack(self.text, self.data, &Leak) {
                Ok(specs) => Box::new(specs),
                Err(e) => panic!("the catalog's packed specs do not decode: {e}"),
            });
        &specs[index]
    }
}

/// Why packed specs did not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Corrupt {
    /// Where in the byte string decoding stopped.
    pub at: usize,
}

impl fmt::Display for Corrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed data at byte {}", self.at)
    }
}

/// Appends rows in the packed format: the primitives the compiler writes specs with.
#[derive(Default)]
pub struct Writer {
    text: String,
    data: Vec<u8>,
}

impl Writer {
    /// An empty writer.
    #[must_use]
    pub fn new() -> Writer {
        Writer::default()
    }

    /// The text and the byte string, to be written as two literals.
    #[must_use]
    pub fn finish(self) -> (String, Vec<u8>) {
        (self.text, self.data)
    }

    /// One byte: a tag, a flag or a small enum.
    pub fn byte(&mut self, b: u8) {
        self.data.push(b);
    }

    /// `false` or `true`.
    pub fn flag(&mut self, b: bool) {
        self.byte(u8::from(b));
    }

    /// A count or a number, LEB128.
    pub fn uint(&mut self, mut n: u64) {
        loop {
            let low = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                self.data.push(low);
                return;
            }
            self.data.push(low | 0x80);
        }
    }

    /// A string: its length here, its text in the text literal.
    pub fn str(&mut self, s: &str) {
        self.uint(s.len() as u64);
        self.text.push_str(s);
    }

    /// A count, then each string.
    pub fn strs<S: AsRef<str>>(&mut self, strings: &[S]) {
        self.uint(strings.len() as u64);
        for s in strings {
            self.str(s.as_ref());
        }
    }

    /// `None` as `0`, else `1` and what `some` writes.
    pub fn option<T>(&mut self, value: Option<T>, some: impl FnOnce(&mut Writer, T)) {
        match value {
            None => self.flag(false),
            Some(v) => {
                self.flag(true);
                some(self, v);
            }
        }
    }

    /// A float, 8 bytes little-endian.
    pub fn float(&mut self, x: f64) {
        self.data.extend_from_slice(&x.to_le_bytes());
    }

    /// Numeric bounds: a byte saying which are set, then each set one.
    pub fn bounds(&mut self, b: Bounds) {
        let values = bound_values(b);
        let mut mask = 0;
        for (bit, value) in BOUND_BITS.iter().zip(values) {
            if value.is_some() {
                mask |= bit;
            }
        }
        self.byte(mask);
        for x in values.into_iter().flatten() {
            self.data.extend_from_slice(&x.to_le_bytes());
        }
    }

    /// A row's visibility, effect, tier and access: their positions in the tables the
    /// reader reads them back from.
    pub fn policy(&mut self, v: Visibility, e: Option<Effect>, t: Option<Tier>, a: Option<Access>) {
        for position in [
            VISIBILITY.iter().position(|&x| x == v),
            EFFECT.iter().position(|&x| x == e),
            TIER.iter().position(|&x| x == t),
            ACCESS.iter().position(|&x| x == a),
        ] {
            // Every value is in its table; a byte each.
            self.byte(
                position
                    .and_then(|p| u8::try_from(p).ok())
                    .unwrap_or(u8::MAX),
            );
        }
    }

    /// Whether a row's calls may run as tasks: its position in the table the reader reads
    /// it back from.
    pub fn task(&mut self, task: Option<TaskSupport>) {
        let position = TASK.iter().position(|&x| x == task);
        self.byte(
            position
                .and_then(|p| u8::try_from(p).ok())
                .unwrap_or(u8::MAX),
        );
    }
}

/// A byte's meaning for each of a spec's small enums, written and read by position.
const VISIBILITY: [Visibility; 2] = [Visibility::Inline, Visibility::Discoverable];
const EFFECT: [Option<Effect>; 4] = [
    None,
    Some(Effect::Reads),
    Some(Effect::Stages),
    Some(Effect::Acts),
];
const TIER: [Option<Tier>; 3] = [None, Some(Tier::Silent), Some(Tier::Gated)];
const TASK: [Option<TaskSupport>; 3] = [
    None,
    Some(TaskSupport::Optional),
    Some(TaskSupport::Required),
];
const ACCESS: [Option<Access>; 4] = [
    None,
    Some(Access::ReadOnly),
    Some(Access::ReadAndStage),
    Some(Access::FullAccess),
];

fn bound_values(b: Bounds) -> [Option<f64>; 4] {
    [
        b.minimum,
        b.maximum,
        b.exclusive_minimum,
        b.exclusive_maximum,
    ]
}

/// Every row's spec from the two literals, borrowing their text and keeping the rest in
/// `arena`.
///
/// # Errors
///
/// [`Corrupt`] where the data does not follow the format.
pub fn unpack<'c>(
    text: &'c str,
    data: &'c [u8],
    arena: &impl Arena<'c>,
) -> Result<Vec<ToolSpec<'c>>, Corrupt> {
    let mut r = Reader {
        text,
        data,
        arena,
        at: 0,
        text_at: 0,
    };
    let mut specs = Vec::new();
    while r.at < data.len() {
        specs.push(r.spec()?);
    }
    Ok(specs)
}

/// One shape from the two literals, written by the compiler's shape writer alone.
///
/// # Errors
///
/// [`Corrupt`] where the data does not follow the format.
pub fn unpack_shape<'c>(
    text: &'c str,
    data: &'c [u8],
    arena: &impl Arena<'c>,
) -> Result<Shape<'c>, Corrupt> {
    let mut r = Reader {
        text,
        data,
        arena,
        at: 0,
        text_at: 0,
    };
    r.shape(0)
}

struct Reader<'c, 'a, A> {
    text: &'c str,
    data: &'c [u8],
    arena: &'a A,
    at: usize,
    text_at: usize,
}

impl<'c, A: Arena<'c>> Reader<'c, '_, A> {
    fn corrupt(&self) -> Corrupt {
        Corrupt { at: self.at }
    }

    fn byte(&mut self) -> Result<u8, Corrupt> {
        let b = *self.data.get(self.at).ok_or(self.corrupt())?;
        self.at += 1;
        Ok(b)
    }

    fn flag(&mut self) -> Result<bool, Corrupt> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(self.corrupt()),
        }
    }

    /// The table's entry at the next byte.
    fn pick<T: Copy>(&mut self, table: &[T]) -> Result<T, Corrupt> {
        let b = self.byte()?;
        table.get(usize::from(b)).copied().ok_or(self.corrupt())
    }

    fn uint(&mut self) -> Result<u64, Corrupt> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(self.corrupt())
    }

    fn count(&mut self) -> Result<usize, Corrupt> {
        let n = self.uint()?;
        // Every item takes at least one byte, which also bounds what a count allocates.
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.data.len() - self.at + self.text.len())
            .ok_or(self.corrupt())
    }

    fn float(&mut self) -> Result<f64, Corrupt> {
        let bytes = self.data.get(self.at..self.at + 8).ok_or(self.corrupt())?;
        let mut le = [0; 8];
        le.copy_from_slice(bytes);
        self.at += 8;
        Ok(f64::from_le_bytes(le))
    }

    fn str(&mut self) -> Result<&'c str, Corrupt> {
        let len = self.count()?;
        let text: &'c str = self.text;
        let s = text
            .get(self.text_at..self.text_at + len)
            .ok_or(self.corrupt())?;
        self.text_at += len;
        Ok(s)
    }

    fn strs(&mut self) -> Result<&'c [&'c str], Corrupt> {
        let n = self.count()?;
        let strs = (0..n).map(|_| self.str()).collect::<Result<Vec<_>, _>>()?;
        Ok(self.arena.keep_all(strs))
    }

    fn option<T>(
        &mut self,
        some: impl FnOnce(&mut Self) -> Result<T, Corrupt>,
    ) -> Result<Option<T>, Corrupt> {
        if self.flag()? {
            some(self).map(Some)
        } else {
            Ok(None)
        }
    }

    fn bounds(&mut self) -> Result<Bounds, Corrupt> {
        let mask = self.byte()?;
        if mask & !0xf != 0 {
            return Err(self.corrupt());
        }
        let mut values = [None; 4];
        for (bit, value) in BOUND_BITS.iter().zip(&mut values) {
            if mask & bit != 0 {
                *value = Some(self.float()?);
            }
        }
        let [minimum, maximum, exclusive_minimum, exclusive_maximum] = values;
        Ok(Bounds {
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
        })
    }

    fn spec(&mut self) -> Result<ToolSpec<'c>, Corrupt> {
        let name = self.str()?;
        let description = self.str()?;
        let keywords = self.strs()?;
        let examples = self.strs()?;
        let visibility = self.pick(&VISIBILITY)?;
        let effect = self.pick(&EFFECT)?;
        let tier = self.pick(&TIER)?;
        let access = self.pick(&ACCESS)?;
        let mcp = self.flag()?;
        let task = self.pick(&TASK)?;
        // Most wire names are the name itself: a flag says so.
        let wire_name = self.option(Reader::str)?.unwrap_or(name);
        Ok(ToolSpec {
            name,
            description,
            keywords,
            examples,
            visibility,
            effect,
            tier,
            access,
            mcp,
            task,
            wire_name,
            input_schema: self.str()?,
            gemini_parameters: self.option(Reader::str)?,
            mcp_input_schema: self.option(Reader::str)?,
            input: self.shape(0)?,
            strict: self.flag()?,
            output_schema: self.option(Reader::str)?,
            output: self.option(|r| r.shape(0))?,
        })
    }

    fn shape(&mut self, depth: usize) -> Result<Shape<'c>, Corrupt> {
        if depth > MAX_DEPTH {
            return Err(self.corrupt());
        }
        let depth = depth + 1;
        Ok(match self.byte()? {
            tag::ANY => Shape::Any,
            tag::NULL => Shape::Null,
            tag::BOOLEAN => Shape::Boolean,
            tag::INTEGER => Shape::Integer(self.bounds()?),
            tag::INT64 => Shape::Int64(self.bounds()?),
            tag::NUMBER => Shape::Number(self.bounds()?),
            tag::STRING => Shape::String {
                values: self.strs()?,
            },
            tag::ARRAY => Shape::Array(self.arena.keep(self.shape(depth)?)),
            tag::OBJECT => Shape::Object(self.object(depth)?),
            tag::EITHER => Shape::Either(self.shapes(depth)?),
            tag::ALL => Shape::All(self.shapes(depth)?),
            tag::ENUM => Shape::Enum(self.strs()?),
            tag::RULES => {
                let bounds = self.bounds()?;
                let min_length = self.uint()?;
                let max_length = self.option(Reader::uint)?;
                let min_items = self.uint()?;
                let max_items = self.option(Reader::uint)?;
                let items = self.shape(depth)?;
                let object = self.option(|r| r.object(depth))?;
                let pattern = self.option(Reader::pattern)?;
                let multiple_of = self.option(Reader::float)?;
                let prefix_items = self.shapes(depth)?;
                let unique_items = self.flag()?;
                let min_properties = self.uint()?;
                let max_properties = self.option(Reader::uint)?;
                let property_names = self.shape(depth)?;
                let n = self.count()?;
                let dependent_required = (0..n)
                    .map(|_| {
                        Ok(Dependent {
                            name: self.str()?,
                            requires: self.strs()?,
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let dependent_required = self.arena.keep_all(dependent_required);
                Shape::Rules(self.arena.keep(Rules {
                    bounds,
                    min_length,
                    max_length,
                    min_items,
                    max_items,
                    items,
                    object,
                    pattern,
                    multiple_of,
                    prefix_items,
                    unique_items,
                    min_properties,
                    max_properties,
                    property_names,
                    dependent_required,
                }))
            }
            tag::DEFS => {
                let shape = self.shape(depth)?;
                let defs = self.shapes(depth)?;
                Shape::Defs(self.arena.keep(Defs { shape, defs }))
            }
            tag::REF => Shape::Ref(u32::try_from(self.uint()?).map_err(|_| self.corrupt())?),
            tag::NOT => Shape::Not(self.arena.keep(self.shape(depth)?)),
            tag::IF => {
                let test = self.shape(depth)?;
                let then = self.shape(depth)?;
                let otherwise = self.shape(depth)?;
                Shape::If(self.arena.keep(Condition {
                    test,
                    then,
                    otherwise,
                }))
            }
            _ => return Err(self.corrupt()),
        })
    }

    fn shapes(&mut self, depth: usize) -> Result<&'c [Shape<'c>], Corrupt> {
        let n = self.count()?;
        let shapes = (0..n)
            .map(|_| self.shape(depth))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self.arena.keep_all(shapes))
    }

    fn object(&mut self, depth: usize) -> Result<Object<'c>, Corrupt> {
        let n = self.count()?;
        let properties = (0..n)
            .map(|_| {
                Ok(Property {
                    name: self.str()?,
                    required: self.flag()?,
                    shape: self.shape(depth)?,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let closed = self.flag()?;
        let others = self.option(|r| {
            let n = r.count()?;
            let patterns = (0..n)
                .map(|_| {
                    Ok(PatternProperty {
                        pattern: r.pattern()?,
                        shape: r.shape(depth)?,
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let patterns = r.arena.keep_all(patterns);
            let additional = r.shape(depth)?;
            Ok(r.arena.keep(Others {
                patterns,
                additional,
            }))
        })?;
        Ok(Object {
            properties: self.arena.keep_all(properties),
            closed,
            others,
        })
    }

    /// A regular expression: its source, then whether it is read with the `u` flag.
    fn pattern(&mut self) -> Result<&'c Pattern, Corrupt> {
        let source = self.str()?;
        let unicode = self.flag()?;
        Ok(self.arena.pattern(source, unicode))
    }
}

#[cfg(test)]
mod tests;
