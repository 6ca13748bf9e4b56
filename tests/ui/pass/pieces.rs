// A catalog the compiler reads in pieces, each with a row named by `rust-name`
// (`ui/pass/pieces.toml`, written by the harness). The macro reads every piece on rustc's
// thread: read on threads of their own, the pieces' names met rustc's token API, which
// exists only on the macro's thread, and the macro panicked.
catalog_macros::catalog!("ui/pass/pieces.toml");

fn main() {
    assert_eq!(Tool::COUNT, 6);
    let named = [
        Tool::FetchPage0,
        Tool::FetchPage1,
        Tool::FetchPage2,
        Tool::FetchPage3,
    ];
    for (k, tool) in named.into_iter().enumerate() {
        assert_eq!(tool.name(), format!("fetch.page{k}"));
    }
}
