//! Every row's `ToolSpec`, packed into two literals that `Tool::spec` decodes on first use.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use catalog_check::CatalogModel;

/// The body of `Tool::spec`: a `static` holding the packed specs, indexed by the tool.
pub(super) fn spec_fn_body(core: &syn::Path, catalog: &CatalogModel) -> TokenStream {
    let (text, data) = catalog_check::packed_specs(catalog);
    let data = Literal::byte_string(&data);
    quote! {
        // Two literals rather than a struct literal a row: rustc's type checking of those
        // constants was most of a large catalog's build.
        static SPECS: #core::__private::Specs = #core::__private::Specs::new(#text, #data);
        SPECS.get(self as usize)
    }
}
