//! The search index, as static tables.

use catalog_core::search::Weights;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{Gen, language};

impl Gen<'_> {
    /// The search index as static tables: a program pays nothing to build it. Statics in
    /// a hidden module, since a `const` holding arrays this large is copied where used.
    pub(super) fn index(&self) -> (TokenStream, TokenStream) {
        let core = self.core;
        let idx = catalog_check::search::index(self.c, Weights::DEFAULT);
        // One byte string a table: a single token however large the catalog.
        let slots = Literal::byte_string(&idx.slots);
        let postings = Literal::byte_string(&idx.postings);
        let name_rank = idx.name_rank.iter().map(|&n| Literal::u32_unsuffixed(n));
        let nr = Literal::usize_unsuffixed(idx.name_rank.len());
        let withheld = idx.withheld.iter().map(|&n| Literal::u32_unsuffixed(n));
        let nw = Literal::usize_unsuffixed(idx.withheld.len());
        let language = language(core, idx.language);
        let tables = quote! {
            #[doc(hidden)]
            pub mod __search_index {
                pub static SLOTS: &[u8] = #slots;
                pub static POSTINGS: &[u8] = #postings;
                pub static NAME_RANK: [u32; #nr] = [ #( #name_rank ),* ];
                pub static WITHHELD: [u32; #nw] = [ #( #withheld ),* ];
            }
        };
        let value = quote! {
            #core::search::Index {
                slots: __search_index::SLOTS,
                postings: __search_index::POSTINGS,
                name_rank: &__search_index::NAME_RANK,
                withheld: &__search_index::WITHHELD,
                language: #language,
            }
        };
        (tables, value)
    }
}
