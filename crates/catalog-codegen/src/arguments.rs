//! The argument types: a struct per typed row, and the structs and enums its fields need.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

use super::{Gen, doc, ident};
use catalog_check::model::{Arguments, Field, Generated, Kind, TypeSpec};
use catalog_check::names::{self, TypeStep};

impl Gen<'_> {
    pub(super) fn argument_types(&self) -> TokenStream {
        let mut out = TokenStream::new();
        for t in self
            .c
            .tools
            .iter()
            .filter(|t| t.arguments == Arguments::Typed)
        {
            let name = t.args_type();
            let doc = format!("Arguments of `{}`.", t.name);
            if t.input_schema.is_some() {
                out.extend(Gen::raw_arguments(&name, &doc));
            } else {
                out.extend(self.object(&name, &t.variant(), &doc, &t.params));
            }
        }
        out
    }

    /// Arguments declared by `input-schema`: the JSON object itself, checked against the
    /// schema at run time rather than by a Rust type.
    fn raw_arguments(name: &str, doc_text: &str) -> TokenStream {
        let ty = ident(name);
        let d = doc(doc_text);
        quote! {
            #d
            #[derive(Clone, Debug, PartialEq)]
            pub struct #ty(
                /// The arguments as the model sent them.
                pub Map<String, Value>,
            );

            impl FromJson for #ty {
                fn from_json(value: Value) -> Result<Self, ArgError> {
                    FromJson::from_json(value).map(#ty)
                }
            }
        }
    }

    /// A struct for an object's fields, and the types its fields need, named after `stem`
    /// (the tool's variant for its arguments, else the object's own name).
    fn object(&self, name: &str, stem: &str, doc_text: &str, fields: &[Field]) -> TokenStream {
        let ty = ident(name);
        let mut nested = TokenStream::new();
        let mut defaults = Vec::new();
        let mut members = Vec::new();
        let mut reads = Vec::new();
        for f in fields {
            let field = ident(&f.ident());
            let key = &f.name;
            let ty_name = names::generated_type(stem, TypeStep::Field(f.type_word()));
            let inner = self.rust_type(&f.ty, &ty_name, &mut nested);
            let d = doc(f
                .ty
                .description
                .as_deref()
                .unwrap_or(&format!("`{}`.", f.name)));
            if let Some(default) = &f.default {
                let fn_name = format_ident!("__default_{}", f.ident_bare());
                let value = Gen::default_value(&f.ty, default, &inner);
                defaults.push(quote! {
                    fn #fn_name() -> #inner { #value }
                });
                members.push(quote! { #d pub #field: #inner });
                reads.push(quote! { #field: fields.or_default(#key, #ty::#fn_name)? });
            } else if f.required {
                members.push(quote! { #d pub #field: #inner });
                reads.push(quote! { #field: fields.required(#key)? });
            } else {
                members.push(quote! { #d pub #field: Option<#inner> });
                reads.push(quote! { #field: fields.optional(#key)? });
            }
        }
        let keys = fields.iter().map(|f| &f.name);
        let mutable = (!fields.is_empty()).then(|| quote!(mut));
        let d = doc(doc_text);
        let defaults = (!defaults.is_empty()).then(|| quote! { impl #ty { #( #defaults )* } });
        quote! {
            #d
            #[derive(Clone, Debug, PartialEq)]
            pub struct #ty { #( #members, )* }

            impl FromJson for #ty {
                fn from_json(value: Value) -> Result<Self, ArgError> {
                    let #mutable fields = Fields::new(value, &[ #( #keys ),* ])?;
                    Ok(#ty { #( #reads, )* })
                }
            }
            #defaults
            #nested
        }
    }

    /// The Rust type of a catalog type, generating named types into `nested` where
    /// [`Kind::generated`] says a value gets one.
    fn rust_type(&self, t: &TypeSpec, name: &str, nested: &mut TokenStream) -> TokenStream {
        match t.kind.generated() {
            Generated::Enum(values) => {
                nested.extend(Gen::string_enum(name, t.description.as_deref(), values));
                let ty = ident(name);
                quote!(#ty)
            }
            Generated::Struct(fields) => {
                let doc_text = t
                    .description
                    .clone()
                    .unwrap_or_else(|| format!("`{name}`."));
                nested.extend(self.object(name, name, &doc_text, fields));
                let ty = ident(name);
                quote!(#ty)
            }
            Generated::Items(item) => {
                let inner =
                    self.rust_type(item, &names::generated_type(name, TypeStep::Item), nested);
                quote!(Vec<#inner>)
            }
            Generated::Builtin => match &t.kind {
                Kind::String { .. } => quote!(String),
                Kind::Integer { .. } => quote!(i64),
                Kind::Number { .. } => quote!(f64),
                Kind::Boolean => quote!(bool),
                Kind::Object(_) => quote!(Map<String, Value>),
                Kind::Array(_) | Kind::Raw(_) => quote!(Value),
            },
        }
    }

    fn string_enum(name: &str, description: Option<&str>, values: &[String]) -> TokenStream {
        let ty = ident(name);
        let variants = enum_variants(values);
        let idents: Vec<_> = variants.iter().map(|v| ident(v)).collect();
        let d = doc(description.unwrap_or("One of the allowed values."));
        let docs = values.iter().map(|v| doc(&format!("`{v}`")));
        quote! {
            #d
            #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
            pub enum #ty { #( #docs #idents, )* }

            impl #ty {
                /// Every value, in the catalog's order.
                pub const ALL: &'static [#ty] = &[ #( #ty::#idents ),* ];

                /// The value as JSON spells it.
                #[must_use]
                pub const fn as_str(self) -> &'static str {
                    match self { #( #ty::#idents => #values, )* }
                }
            }

            impl FromJson for #ty {
                fn from_json(value: Value) -> Result<Self, ArgError> {
                    variant(value, &[ #( #values ),* ]).map(|i| #ty::ALL[i])
                }
            }
        }
    }

    fn default_value(t: &TypeSpec, v: &Value, ty: &TokenStream) -> TokenStream {
        match (&t.kind, v) {
            (Kind::String { values: None }, Value::String(s)) => {
                quote!(<String as From<&str>>::from(#s))
            }
            (
                Kind::String {
                    values: Some(values),
                },
                Value::String(s),
            ) => {
                let variants = enum_variants(values);
                let i = values.iter().position(|x| x == s).unwrap_or(0);
                let variant = ident(&variants[i]);
                quote!(#ty::#variant)
            }
            (Kind::Integer { .. }, Value::Number(n)) => {
                let n = Literal::i64_suffixed(n.as_i64().unwrap_or(0));
                quote!(#n)
            }
            (Kind::Number { .. }, Value::Number(n)) => {
                let n = Literal::f64_suffixed(n.as_f64().unwrap_or(0.0));
                quote!(#n)
            }
            (Kind::Boolean, Value::Bool(b)) => quote!(#b),
            // Anything else is rebuilt from the JSON the compiler checked against the type.
            _ => {
                let json = v.to_string();
                quote! {
                    match serde_json::from_str(#json).map(FromJson::from_json) {
                        Ok(Ok(value)) => value,
                        _ => ::core::unreachable!("the catalog compiler checked this default"),
                    }
                }
            }
        }
    }
}

/// Variant names for string enum values; when values do not map to distinct identifiers
/// (`"asc"` and `"ASC"`, or `"°C"`), every variant falls back to its position (`V0`, `V1`, …).
fn enum_variants(values: &[String]) -> Vec<String> {
    let named: Vec<String> = values.iter().map(|v| names::type_name(v, "V")).collect();
    let mut seen = std::collections::HashSet::new();
    let distinct = named
        .iter()
        .all(|n| n != "V" && syn::parse_str::<syn::Ident>(n).is_ok() && seen.insert(n.clone()));
    if distinct {
        named
    } else {
        (0..values.len()).map(|i| format!("V{i}")).collect()
    }
}
