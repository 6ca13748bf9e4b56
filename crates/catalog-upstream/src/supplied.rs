//! The values an `[[upstream]]` hands its server (`env`, `headers`), read when the
//! upstream is started or reached: a `{ from-env = "NAME" }` from this program's
//! environment, a `{ from-file = "PATH" }` from the file. Read at each connection, so a
//! rotated secret is picked up when the upstream is next started or reached.
//!
//! A value read is a secret as far as this crate knows: it is handed to the server and
//! to nothing else. Errors name the variable or the file, never what was read.

use std::ffi::OsString;

use catalog_check::model::Supplied;

/// Reads every value of upstream `upstream`'s `key` (`env` or `headers`), in order.
///
/// # Errors
/// Every variable that is not set (or not Unicode, where `text` asks for text) and every
/// file that cannot be read, all in one message naming the upstream, each variable and
/// file and the fix.
pub(crate) fn read(
    upstream: &str,
    key: &str,
    values: &[(String, Supplied)],
) -> Result<Vec<(String, OsString)>, String> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (name, value) in values {
        match one(value) {
            Ok(read) => out.push((name.clone(), read)),
            Err(why) => problems.push(format!("`{key}.{name}` {why}")),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(format!(
            "upstream `{upstream}` cannot be started or reached: {}",
            problems.join("; ")
        ))
    }
}

/// One value, or why it cannot be read (what follows `env.NAME` in the message).
fn one(value: &Supplied) -> Result<OsString, String> {
    match value {
        Supplied::Literal(value) => Ok(value.into()),
        Supplied::FromEnv(variable) => std::env::var_os(variable).ok_or_else(|| {
            format!(
                "reads the environment variable `{variable}`, which is not set: set it where the gateway (or `cargo catalog`) runs"
            )
        }),
        Supplied::FromFile(path) => match std::fs::read(path) {
            Ok(mut bytes) => {
                if bytes.ends_with(b"\n") {
                    bytes.pop();
                    if bytes.ends_with(b"\r") {
                        bytes.pop();
                    }
                }
                String::from_utf8(bytes)
                    .map(OsString::from)
                    .map_err(|_| format!("reads the file `{path}`, which is not UTF-8 text"))
            }
            Err(e) => Err(format!(
                "reads the file `{path}`, which cannot be read ({}): check the path and that the gateway may read it",
                e.kind()
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_from_the_environment_and_files_and_errors_name_never_show_them() {
        let dir = std::env::temp_dir().join(format!("catalog-supplied-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("token");
        std::fs::write(&file, "file-secret-value\r\n").unwrap();
        let file = file.to_string_lossy().into_owned();
        // `PATH` is set wherever tests run; its value is compared, never printed.
        let path = std::env::var_os("PATH").unwrap();
        let read = read(
            "web",
            "env",
            &[
                ("A".into(), "literal".into()),
                ("B".into(), Supplied::FromEnv("PATH".into())),
                ("C".into(), Supplied::FromFile(file.clone())),
            ],
        )
        .unwrap();
        assert_eq!(
            read,
            [
                ("A".into(), OsString::from("literal")),
                ("B".into(), path),
                ("C".into(), OsString::from("file-secret-value")),
            ]
        );
        let missing = dir.join("missing").to_string_lossy().into_owned();
        let unset = "CATALOG_SUPPLIED_TEST_SURELY_UNSET";
        let e = super::read(
            "web",
            "headers",
            &[
                ("Authorization".into(), Supplied::FromEnv(unset.into())),
                ("X-Key".into(), Supplied::FromFile(missing.clone())),
                ("X-Ok".into(), Supplied::FromFile(file)),
            ],
        )
        .unwrap_err();
        assert!(
            e.starts_with("upstream `web` cannot be started or reached: "),
            "{e}"
        );
        assert!(
            e.contains(&format!(
                "`headers.Authorization` reads the environment variable `{unset}`, which is not set"
            )),
            "{e}"
        );
        assert!(
            e.contains(&format!(
                "`headers.X-Key` reads the file `{missing}`, which cannot be read ("
            )),
            "{e}"
        );
        assert!(
            !e.contains("X-Ok") && !e.contains("file-secret-value"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
