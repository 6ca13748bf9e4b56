//! `ToolCall`, its parsing and dispatch, and the `Handler` trait the application implements.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Gen, doc, ident};
use catalog_check::model::Tool;

impl Gen<'_> {
    pub(super) fn tool_call(&self) -> TokenStream {
        let core = self.core;
        let typed: Vec<&Tool> = self.typed().collect();
        let variants: Vec<_> = typed.iter().map(|t| ident(&t.variant())).collect();
        let args: Vec<_> = typed.iter().map(|t| ident(&t.args_type())).collect();
        let search = ident(&self.c.search_tool().variant());
        let search_args = ident(&self.c.search_tool().args_type());
        let handled: Vec<_> = self.handled().collect();
        let h_variants = handled.iter().map(|(_, v, _)| v);
        let call_docs = typed.iter().map(|t| format!(" A call of `{}`.", t.name));
        let h_methods = handled.iter().map(|(_, _, m)| m);
        // JSON-argument rows share one variant and one handler method.
        let json = self.has_json().then(|| {
            (
                quote! {
                    /// A call of a tool whose row says `arguments = "json"`: the tool, and
                    /// its arguments as the verifier checked them.
                    Json {
                        /// The tool called.
                        tool: Tool,
                        /// Its arguments, checked against its input schema.
                        arguments: #core::__private::Map<#core::__private::String, #core::__private::Value>,
                    },
                },
                quote! { ToolCall::Json { tool, .. } => *tool, },
                quote! {
                    ToolCall::Json { tool, arguments } => #core::__private::Box::pin(H::call_json(handler, context, tool, arguments)),
                },
                quote! {
                    _ => #core::__private::arguments(arguments).map(|arguments| ToolCall::Json { tool, arguments }),
                },
            )
        });
        let (json_variant, json_tool, json_dispatch, json_parse) = match json {
            Some((a, b, c, d)) => (a, b, c, d),
            None => Default::default(),
        };
        quote! {
            /// A model's call, parsed into the tool's typed arguments.
            #[derive(Clone, Debug, PartialEq)]
            #[allow(clippy::large_enum_variant)] // one variant per tool; boxing would cost every call
            pub enum ToolCall {
                #( #[doc = #call_docs] #variants(#args), )*
                #json_variant
            }

            impl ToolCall {
                /// Which tool is called.
                #[must_use]
                pub const fn tool(&self) -> Tool {
                    match self {
                        #( ToolCall::#variants(_) => Tool::#variants, )*
                        #json_tool
                    }
                }

                /// Parses a call from the tool's name and its JSON arguments (`null` counts
                /// as no arguments).
                ///
                /// # Errors
                /// `CallError::UnknownTool` when no row has this name; `CallError::BadArguments`
                /// when the arguments do not fit the tool's input.
                pub fn parse(name: &str, arguments: #core::__private::Value) -> ::core::result::Result<ToolCall, #core::CallError> {
                    let ::core::option::Option::Some(tool) = Tool::from_name(name) else {
                        return ::core::result::Result::Err(#core::CallError::UnknownTool(
                            <#core::__private::String as ::core::convert::From<&str>>::from(name),
                        ));
                    };
                    <ToolCall as #core::Call>::from_checked(tool, arguments).map_err(|message| {
                        #core::CallError::BadArguments { tool: tool.name(), message }
                    })
                }

            }

            /// Runs a verified call (`VerifiedCall::run`): the handler method of its tool,
            /// or the search handed back to the agent loop.
            impl<H: Handler> #core::HandledBy<H> for ToolCall {
                type Error = H::Error;
                type Search = #search_args;

                fn dispatch<'h>(
                    self,
                    handler: &'h H,
                    context: #core::Context,
                    _proof: #core::Proof<'_>,
                ) -> #core::Dispatch<#core::BoxFuture<'h, ::core::result::Result<#core::Output, H::Error>>, #search_args> {
                    // One boxed future, not one await per tool: rustc lays out a future over
                    // all its awaits, and with one per arm that grew with the square of the catalog.
                    #core::Dispatch::Ran(match self {
                        ToolCall::#search(args) => return #core::Dispatch::Search(args),
                        #( ToolCall::#h_variants(args) => #core::__private::Box::pin(H::#h_methods(handler, context, args)), )*
                        #json_dispatch
                    })
                }
            }

            impl #core::Call for ToolCall {
                type Tool = Tool;

                /// Parses a call's JSON arguments into the tool's typed arguments (`null`
                /// counts as no arguments; a JSON-argument row takes any object, which the
                /// verifier checked against its schema).
                fn from_checked(tool: Tool, arguments: #core::__private::Value) -> ::core::result::Result<ToolCall, #core::__private::String> {
                    match tool {
                        #( Tool::#variants => #core::__private::arguments(arguments).map(ToolCall::#variants), )*
                        #json_parse
                    }
                }

                fn tool(&self) -> Tool {
                    ToolCall::tool(self)
                }
            }
        }
    }

    pub(super) fn handler(&self) -> TokenStream {
        let methods = self.handled().map(|(t, _, m)| {
            let args = ident(&t.args_type());
            let d = doc(&format!("`{}`: {}", t.name, t.description));
            quote! {
                #d
                fn #m(
                    &self,
                    context: Context,
                    args: #args,
                ) -> impl Future<Output = Result<Output, Self::Error>> + Send;
            }
        });
        let json = self.has_json().then(|| {
            quote! {
                /// Every tool whose row says `arguments = "json"`: the tool, and its
                /// arguments exactly as the verifier checked them against its schema.
                fn call_json(
                    &self,
                    context: Context,
                    tool: super::Tool,
                    arguments: Map<String, Value>,
                ) -> impl Future<Output = Result<Output, Self::Error>> + Send;
            }
        });
        quote! {
            /// The implementation of every tool but the search tool (the agent loop answers
            /// that one). A row without its method here does not compile. Each method gets
            /// the call's [`Context`]: who calls, and the way to report progress, log, ask
            /// the user or sample the caller's model.
            pub trait Handler: Sync {
                /// What a handler returns when it fails.
                type Error;
                #( #methods )*
                #json
            }
        }
    }
}
