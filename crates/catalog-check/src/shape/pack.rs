//! A [`Node`] in the packed format `catalog_core` decodes specs from: the one way a shape
//! leaves the compiler, for the generated code and for a catalog read at run time alike.

use catalog_core::packed::{Writer, tag};

use super::{Node, Obj, Pattern};

impl Node {
    /// Appends the shape, in the order `catalog_core::packed` reads it.
    pub(crate) fn pack(&self, w: &mut Writer) {
        match self {
            Node::Any => w.byte(tag::ANY),
            Node::Null => w.byte(tag::NULL),
            Node::Boolean => w.byte(tag::BOOLEAN),
            Node::Integer(b) => {
                w.byte(tag::INTEGER);
                w.bounds(*b);
            }
            Node::Int64(b) => {
                w.byte(tag::INT64);
                w.bounds(*b);
            }
            Node::Number(b) => {
                w.byte(tag::NUMBER);
                w.bounds(*b);
            }
            Node::String(values) => {
                w.byte(tag::STRING);
                w.strs(values);
            }
            Node::Array(item) => {
                w.byte(tag::ARRAY);
                item.pack(w);
            }
            Node::Object(object) => {
                w.byte(tag::OBJECT);
                object.pack(w);
            }
            Node::Either(nodes) => {
                w.byte(tag::EITHER);
                pack_all(nodes, w);
            }
            Node::All(nodes) => {
                w.byte(tag::ALL);
                pack_all(nodes, w);
            }
            Node::Enum(values) => {
                w.byte(tag::ENUM);
                w.strs(values);
            }
            Node::Rules(r) => {
                w.byte(tag::RULES);
                w.bounds(r.bounds);
                w.uint(r.min_length);
                w.option(r.max_length, Writer::uint);
                w.uint(r.min_items);
                w.option(r.max_items, Writer::uint);
                r.items.pack(w);
                w.option(r.object.as_ref(), |w, o| o.pack(w));
                w.option(r.pattern.as_ref(), |w, p| p.pack(w));
                w.option(r.multiple_of, Writer::float);
                pack_all(&r.prefix_items, w);
                w.flag(r.unique_items);
                w.uint(r.min_properties);
                w.option(r.max_properties, Writer::uint);
                r.property_names.pack(w);
                w.uint(r.dependent_required.len() as u64);
                for (name, needs) in &r.dependent_required {
                    w.str(name);
                    w.strs(needs);
                }
            }
            Node::Defs(shape, defs) => {
                w.byte(tag::DEFS);
                shape.pack(w);
                pack_all(defs, w);
            }
            Node::Ref(i) => {
                w.byte(tag::REF);
                w.uint(u64::from(*i));
            }
            Node::Not(inner) => {
                w.byte(tag::NOT);
                inner.pack(w);
            }
            Node::If(parts) => {
                w.byte(tag::IF);
                for part in parts.iter() {
                    part.pack(w);
                }
            }
        }
    }
}

impl Obj {
    fn pack(&self, w: &mut Writer) {
        w.uint(self.properties.len() as u64);
        for p in &self.properties {
            w.str(&p.name);
            w.flag(p.required);
            p.node.pack(w);
        }
        w.flag(self.closed);
        w.option(self.others.as_deref(), |w, others| {
            w.uint(others.patterns.len() as u64);
            for (pattern, node) in &others.patterns {
                pattern.pack(w);
                node.pack(w);
            }
            others.additional.pack(w);
        });
    }
}

impl Pattern {
    fn pack(&self, w: &mut Writer) {
        w.str(&self.source);
        w.flag(self.unicode);
    }
}

fn pack_all(nodes: &[Node], w: &mut Writer) {
    w.uint(nodes.len() as u64);
    for node in nodes {
        node.pack(w);
    }
}
