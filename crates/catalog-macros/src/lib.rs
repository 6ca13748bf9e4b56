//! `catalog!("catalog.toml")`: the typed API of a tool catalog, generated at compile time.
//!
//! A shim: reading and validation live in `catalog-check`, generation in
//! `catalog-codegen`.

use std::path::Path;

use proc_macro::TokenStream;
use quote::quote_spanned;
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token};

/// Generates `Tool`, `ToolSet`, `Catalog`, the argument types, `ToolCall`, `Handler` and
/// the `tools!`/`tool!` macros from a catalog file.
///
/// The path is relative to the calling crate's `Cargo.toml`. Add `crate = path` when the
/// runtime crate is not reachable as `::catalog_core` (for example when renamed).
///
/// At the crate root, `tools!` and `tool!` are the crate's. Anywhere else, add
/// `module = crate::path::to::it`, the module the invocation is in: the macros are then the
/// module's (`billing::tools!`), so a crate holds one catalog per module. A path naming
/// another module fails to compile.
///
/// ```text
/// catalog_macros::catalog!("catalog.toml");
///
/// mod billing {
///     catalog_macros::catalog!("billing.toml", module = crate::billing);
/// }
/// ```
#[proc_macro]
pub fn catalog(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as Input);
    expand(&input).into()
}

struct Input {
    path: LitStr,
    core: syn::Path,
    module: Option<syn::Path>,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let path: LitStr = input.parse()?;
        let mut core = None;
        let mut module = None;
        while input.parse::<Option<Token![,]>>()?.is_some() && !input.is_empty() {
            let (slot, key) = if input.peek(Token![crate]) {
                let key: Token![crate] = input.parse()?;
                (&mut core, key.span)
            } else {
                let key: syn::Ident = input.parse()?;
                if key != "module" {
                    return Err(syn::Error::new(
                        key.span(),
                        "expected `crate = path` or `module = crate::path`",
                    ));
                }
                (&mut module, key.span())
            };
            input.parse::<Token![=]>()?;
            let value: syn::Path = input.parse()?;
            if slot.replace(value).is_some() {
                return Err(syn::Error::new(key, "given twice"));
            }
        }
        if let Some(m) = &module
            && (m.leading_colon.is_some() || m.segments.first().is_none_or(|s| s.ident != "crate"))
        {
            return Err(syn::Error::new_spanned(
                m,
                "`module` is the path of the module this `catalog!` is in, from the crate root: `crate`, `crate::billing`",
            ));
        }
        Ok(Input {
            path,
            core: core.unwrap_or_else(|| syn::parse_quote!(::catalog_core)),
            module,
        })
    }
}

fn expand(input: &Input) -> proc_macro2::TokenStream {
    let rel = input.path.value();
    let opts = catalog_codegen::Options {
        core: input.core.clone(),
        track: Some(rel.clone()),
        module: input.module.clone(),
    };
    let span = input.path.span();
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        let msg = "catalog!: CARGO_MANIFEST_DIR is not set; build with cargo";
        return error(
            span,
            msg,
            catalog_codegen::skeleton(
                &Outline::default(),
                &Options {
                    track: None,
                    ..opts
                },
            ),
        );
    };
    let source = match std::fs::read_to_string(Path::new(&dir).join(&rel)) {
        Ok(s) => s,
        Err(e) => {
            let msg = format!("cannot read `{rel}` (relative to this crate's Cargo.toml): {e}");
            return error(
                span,
                &msg,
                catalog_codegen::skeleton(
                    &Outline::default(),
                    &Options {
                        track: None,
                        ..opts
                    },
                ),
            );
        }
    };
    match catalog_check::compile_or_outline(&source) {
        Ok(catalog) => {
            let mut out = catalog_codegen::expand(&catalog, &opts);
            let lines = catalog_check::Lines::new(&source);
            let unnamed = catalog_check::Style {
                unnamed: true,
                ..catalog_check::Style::default()
            };
            for d in catalog_check::build_warnings(&catalog, &source) {
                out.extend(warning(span, &lines.render_styled(&rel, &d, unnamed)));
            }
            out
        }
        Err((diagnostics, outline)) => {
            let mut out = catalog_codegen::skeleton(&outline, &opts);
            let lines = catalog_check::Lines::new(&source);
            // rustc heads a `compile_error!` with `error: ` itself.
            let unnamed = catalog_check::Style {
                unnamed: true,
                ..catalog_check::Style::default()
            };
            for d in &diagnostics {
                let msg = lines.render_styled(&rel, d, unnamed);
                out.extend(quote_spanned!(span=> ::core::compile_error! { #msg }));
            }
            out
        }
    }
}

use catalog_check::Outline;
use catalog_codegen::Options;

fn error(
    span: proc_macro2::Span,
    msg: &str,
    mut skeleton: proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    skeleton.extend(quote_spanned!(span=> ::core::compile_error! { #msg }));
    skeleton
}

/// A warning in the build's output: stable proc macros cannot emit one, so it is the
/// deprecation warning of a constant used where the macro is invoked, its note the message.
fn warning(span: proc_macro2::Span, msg: &str) -> proc_macro2::TokenStream {
    let note = format!("catalog warning\n{msg}");
    quote_spanned! {span=>
        const _: () = {
            #[deprecated(note = #note)]
            #[allow(non_upper_case_globals)]
            const catalog_lint: () = ();
            catalog_lint
        };
    }
}
