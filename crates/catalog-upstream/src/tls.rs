//! The process's TLS crypto provider.
//!
//! HTTP clients here use `reqwest` with `rustls`; where another crate of the build turns
//! on its `rustls-no-provider` feature (the OAuth client of `catalog-mcp`), every client
//! needs a process-wide provider installed first, or building it panics. [`provider`]
//! installs ring's, once, unless the program installed one of its own.

/// Installs ring's crypto provider as the process default, when none is installed yet.
pub fn provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Another thread may install one meanwhile: either is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}
