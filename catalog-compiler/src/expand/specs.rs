//! Each row's `ToolSpec`: its text, roles, schemas and shapes.

use catalog_core::{Access, Tier, Visibility};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::Gen;
use crate::spec::Spec;

impl Gen<'_> {
    /// A row's `ToolSpec`, in the short names the module holding every spec imports.
    pub(super) fn spec(s: &Spec<'_>) -> TokenStream {
        let t = s.tool;
        let name = &t.name;
        let description = &s.description;
        let keywords = &t.keywords;
        let examples = &t.examples;
        let visibility = match t.visibility {
            Visibility::Inline => quote!(Visibility::Inline),
            Visibility::Discoverable => quote!(Visibility::Discoverable),
        };
        let tier = option(t.role.tier().map(|tier| match tier {
            Tier::Silent => quote!(Tier::Silent),
            Tier::Gated => quote!(Tier::Gated),
        }));
        let access = option(t.role.access().map(|a| {
            let variant = access_variant(a);
            quote!(Access::#variant)
        }));
        let mcp = t.role.mcp();
        let wire_name = &s.wire_name;
        let input_schema = &s.input_schema;
        let gemini_parameters = option(s.gemini_parameters.as_ref().map(|p| quote!(#p)));
        let input = s.input.tokens();
        let strict = s.strict;
        let output_schema = option(s.output_schema.as_ref().map(|s| quote!(#s)));
        let output = option(s.output.as_ref().map(crate::shape::Node::tokens));
        quote! {
            ToolSpec {
                name: #name,
                description: #description,
                keywords: &[ #( #keywords ),* ],
                examples: &[ #( #examples ),* ],
                visibility: #visibility,
                tier: #tier,
                access: #access,
                mcp: #mcp,
                wire_name: #wire_name,
                input_schema: #input_schema,
                gemini_parameters: #gemini_parameters,
                input: #input,
                strict: #strict,
                output_schema: #output_schema,
                output: #output,
            }
        }
    }
}

fn access_variant(a: Access) -> syn::Ident {
    match a {
        Access::ReadOnly => format_ident!("ReadOnly"),
        Access::ReadAndStage => format_ident!("ReadAndStage"),
        Access::FullAccess => format_ident!("FullAccess"),
    }
}

/// `Some(t)` or `None`, for the spec block, which imports both.
fn option(t: Option<TokenStream>) -> TokenStream {
    t.map_or_else(|| quote!(None), |t| quote!(Some(#t)))
}
