//! A [`Node`] as the tokens of a constant `Shape`, or as a `Shape` leaked for a catalog read
//! at run time: one tree, two ways out.

use catalog_core::shape::{self, Bounds, Object, Property, Shape};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{Node, Obj, Rules};

impl Node {
    /// A constant expression of the `Shape`, its nested parts `&` of constants promoted to
    /// `'static`. It names `Shape`, `Object`, `Property`, `Bounds`, `Rules`, `Defs`, `Some`
    /// and `None` unqualified: the expansion imports them in the one module that holds every
    /// spec, since full paths would be most of a large catalog's tokens.
    pub(crate) fn tokens(&self) -> TokenStream {
        match self {
            Node::Any => quote!(Shape::Any),
            Node::Null => quote!(Shape::Null),
            Node::Boolean => quote!(Shape::Boolean),
            Node::Integer(b) => {
                let b = bounds_tokens(*b);
                quote!(Shape::Integer(#b))
            }
            Node::Int64(b) => {
                let b = bounds_tokens(*b);
                quote!(Shape::Int64(#b))
            }
            Node::Number(b) => {
                let b = bounds_tokens(*b);
                quote!(Shape::Number(#b))
            }
            Node::String(values) => quote!(Shape::String { values: &[ #( #values ),* ] }),
            Node::Array(item) => {
                let item = item.tokens();
                quote!(Shape::Array(&#item))
            }
            Node::Object(object) => {
                let object = object_tokens(object);
                quote!(Shape::Object(#object))
            }
            Node::Either(nodes) => {
                let nodes = nodes.iter().map(Node::tokens);
                quote!(Shape::Either(&[ #( #nodes ),* ]))
            }
            Node::All(nodes) => {
                let nodes = nodes.iter().map(Node::tokens);
                quote!(Shape::All(&[ #( #nodes ),* ]))
            }
            Node::Enum(values) => quote!(Shape::Enum(&[ #( #values ),* ])),
            Node::Rules(rules) => {
                let rules = rules_tokens(rules);
                quote!(Shape::Rules(&#rules))
            }
            Node::Defs(shape, defs) => {
                let shape = shape.tokens();
                let defs = defs.iter().map(Node::tokens);
                quote!(Shape::Defs(&Defs { shape: #shape, defs: &[ #( #defs ),* ] }))
            }
            Node::Ref(i) => {
                let i = Literal::u32_unsuffixed(*i);
                quote!(Shape::Ref(#i))
            }
        }
    }

    /// The `Shape` as a value, its parts leaked: for a catalog that lives as long as the
    /// program.
    pub(crate) fn leak(&self) -> Shape {
        match self {
            Node::Any => Shape::Any,
            Node::Null => Shape::Null,
            Node::Boolean => Shape::Boolean,
            Node::Integer(b) => Shape::Integer(*b),
            Node::Int64(b) => Shape::Int64(*b),
            Node::Number(b) => Shape::Number(*b),
            Node::String(values) => Shape::String {
                values: leak_strs(values),
            },
            Node::Array(item) => Shape::Array(Box::leak(Box::new(item.leak()))),
            Node::Object(object) => Shape::Object(leak_object(object)),
            Node::Either(nodes) => Shape::Either(leak_nodes(nodes)),
            Node::All(nodes) => Shape::All(leak_nodes(nodes)),
            Node::Enum(values) => Shape::Enum(leak_strs(values)),
            Node::Rules(rules) => Shape::Rules(Box::leak(Box::new(shape::Rules {
                bounds: rules.bounds,
                min_length: rules.min_length,
                max_length: rules.max_length,
                min_items: rules.min_items,
                max_items: rules.max_items,
                items: rules.items.leak(),
                object: rules.object.as_ref().map(leak_object),
            }))),
            Node::Defs(shape, defs) => Shape::Defs(Box::leak(Box::new(shape::Defs {
                shape: shape.leak(),
                defs: leak_nodes(defs),
            }))),
            Node::Ref(i) => Shape::Ref(*i),
        }
    }
}

/// A string that lives as long as the program.
pub(crate) fn leak_str(s: &str) -> &'static str {
    Box::leak(s.into())
}

fn leak_strs(values: &[String]) -> &'static [&'static str] {
    Box::leak(values.iter().map(|v| leak_str(v)).collect())
}

fn leak_nodes(nodes: &[Node]) -> &'static [Shape] {
    Box::leak(nodes.iter().map(Node::leak).collect())
}

fn leak_object(object: &Obj) -> Object {
    Object {
        properties: Box::leak(
            object
                .properties
                .iter()
                .map(|p| Property {
                    name: leak_str(&p.name),
                    required: p.required,
                    shape: p.node.leak(),
                })
                .collect(),
        ),
        closed: object.closed,
    }
}

fn object_tokens(object: &Obj) -> TokenStream {
    let properties = object.properties.iter().map(|p| {
        let (name, required, shape) = (&p.name, p.required, p.node.tokens());
        quote!(Property { name: #name, required: #required, shape: #shape })
    });
    let closed = object.closed;
    quote! {
        Object {
            properties: &[ #( #properties ),* ],
            closed: #closed,
        }
    }
}

/// Only the rules set, the rest from `Rules::NONE`: most schemas set one or two.
fn rules_tokens(r: &Rules) -> TokenStream {
    let mut fields = Vec::new();
    if r.bounds != Bounds::NONE {
        let b = bounds_tokens(r.bounds);
        fields.push(quote!(bounds: #b));
    }
    let counts = [
        ("min_length", Some(r.min_length).filter(|n| *n > 0), false),
        ("max_length", r.max_length, true),
        ("min_items", Some(r.min_items).filter(|n| *n > 0), false),
        ("max_items", r.max_items, true),
    ];
    for (name, n, optional) in counts {
        let Some(n) = n else { continue };
        let name = quote::format_ident!("{name}");
        let n = Literal::u64_unsuffixed(n);
        fields.push(if optional {
            quote!(#name: Some(#n))
        } else {
            quote!(#name: #n)
        });
    }
    if r.items != Node::Any {
        let items = r.items.tokens();
        fields.push(quote!(items: #items));
    }
    if let Some(object) = &r.object {
        let object = object_tokens(object);
        fields.push(quote!(object: Some(#object)));
    }
    quote!(Rules { #( #fields, )* ..Rules::NONE })
}

/// Only the bounds set, the rest from `Bounds::NONE`.
fn bounds_tokens(b: Bounds) -> TokenStream {
    if b == Bounds::NONE {
        return quote!(Bounds::NONE);
    }
    // `f64_unsuffixed` prints the shortest text that reads back to the same value; JSON
    // numbers are finite, which it requires. The sign is its own token, as Rust spells a
    // negative literal.
    let bound = |x: f64| {
        let magnitude = Literal::f64_unsuffixed(x.abs());
        if x.is_sign_negative() {
            quote!(Some(-#magnitude))
        } else {
            quote!(Some(#magnitude))
        }
    };
    let set = [
        ("minimum", b.minimum),
        ("maximum", b.maximum),
        ("exclusive_minimum", b.exclusive_minimum),
        ("exclusive_maximum", b.exclusive_maximum),
    ];
    let fields = set.iter().filter_map(|(name, x)| {
        let name = quote::format_ident!("{name}");
        let x = bound((*x)?);
        Some(quote!(#name: #x))
    });
    quote!(Bounds { #( #fields, )* ..Bounds::NONE })
}
