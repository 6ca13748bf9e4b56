//! `env` values read when the upstream starts, end to end: a server written with the
//! official Python SDK reports the variable it was given through a tool, and an unset
//! variable makes the upstream unreachable with the variable named and nothing read shown.
//!
//! The interpreter comes from `cargo xtask test` (`CATALOG_PEER_PYTHON`); without it this
//! test fails under CI and is skipped, with instructions, elsewhere.

use std::path::PathBuf;

use catalog_check::model::Supplied;
use catalog_check::model::Transport;
use catalog_upstream::{Client, Upstream};

/// A server (stdio, or streamable HTTP at `http://127.0.0.1:PORT/mcp` when a port is
/// given) whose tools answer with an environment variable it was started with and with
/// the `Authorization` header of the request that called it.
const SERVER: &str = r#"
import os
import sys
from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("reporter")

@server.tool()
def variable(name: str) -> str:
    """The value of the environment variable `name` this server was started with."""
    return os.environ.get(name, "<unset>")

@server.tool()
def authorization(ctx: Context) -> str:
    """The Authorization header of this request."""
    request = ctx.request_context.request
    return request.headers.get("authorization", "<none>") if request is not None else "<no request>"

if len(sys.argv) > 1:
    server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
else:
    server.run()
"#;

const CLIENT: Client = Client {
    name: "catalog-upstream-tests",
    version: "0",
};

/// Waits until the server at `port` answers an HTTP request: a port that accepts a
/// connection may belong to a server still starting, which drops the first request.
fn wait_for_http(server: &mut std::process::Child, port: u16) {
    use std::io::{Read, Write};
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let answered = std::net::TcpStream::connect(("127.0.0.1", port)).is_ok_and(|mut stream| {
            let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(2)));
            let mut head = [0; 5];
            stream
                .write_all(b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                .and_then(|()| stream.read_exact(&mut head))
                .is_ok_and(|()| &head == b"HTTP/")
        });
        if answered {
            return;
        }
        if let Ok(Some(status)) = server.try_wait() {
            panic!("the server exited before it answered: {status}");
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server did not answer HTTP in 30 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

fn python() -> Option<PathBuf> {
    catalog_testkit::peer("supplied", "CATALOG_PEER_PYTHON")
}

#[tokio::test]
async fn a_secret_from_the_environment_reaches_the_server_and_an_unset_one_is_named() {
    let Some(python) = python() else {
        return;
    };
    let dir =
        std::env::temp_dir().join(format!("catalog-upstream-supplied-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("server.py");
    std::fs::write(&script, SERVER).unwrap();
    let secret_file = dir.join("api_key");
    let from_file = format!("file-secret-{}", std::process::id());
    std::fs::write(&secret_file, format!("{from_file}\n")).unwrap();
    let endpoint = |variable: &str| Transport::Stdio {
        command: python.to_string_lossy().into_owned(),
        args: vec![script.to_string_lossy().into_owned()],
        env: vec![
            ("UPSTREAM_TOKEN".into(), Supplied::FromEnv(variable.into())),
            (
                "UPSTREAM_KEY".into(),
                Supplied::FromFile(secret_file.to_string_lossy().into_owned()),
            ),
        ],
    };
    // A variable this process surely has (this test runs only with it), handed to the
    // server under another name: the server sees it only through `from-env`.
    let secret = std::env::var("CATALOG_PEER_PYTHON").unwrap();
    let upstream = Upstream::connect(
        "reporter",
        &endpoint("CATALOG_PEER_PYTHON"),
        CLIENT,
        None,
        None,
    )
    .await
    .unwrap();
    for (name, expected) in [("UPSTREAM_TOKEN", &secret), ("UPSTREAM_KEY", &from_file)] {
        let said = text_of(&upstream, "variable", serde_json::json!({"name": name})).await;
        assert_eq!(&said, expected, "{name}");
    }
    upstream.close().await;

    let unset = "CATALOG_TEST_SURELY_UNSET_TOKEN";
    let e = Upstream::connect("reporter", &endpoint(unset), CLIENT, None, None)
        .await
        .unwrap_err();
    assert!(!e.contains(&from_file), "{e}");
    assert!(
        e.contains("upstream `reporter`")
            && e.contains(&format!(
                "`env.UPSTREAM_TOKEN` reads the environment variable `{unset}`, which is not set"
            )),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text of a call's first content.
async fn text_of(upstream: &Upstream, tool: &str, arguments: serde_json::Value) -> String {
    let result = upstream
        .call(
            tool,
            arguments.as_object().cloned().unwrap_or_default(),
            None,
        )
        .await
        .unwrap();
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn a_header_from_a_file_reaches_a_server_at_a_url_and_a_missing_file_is_named() {
    let Some(python) = python() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("catalog-upstream-headers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("server.py");
    std::fs::write(&script, SERVER).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = std::process::Command::new(&python)
        .arg(&script)
        .arg(port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let url = format!("http://127.0.0.1:{port}/mcp");
    wait_for_http(&mut server, port);
    let secret_file = dir.join("authorization");
    let credential = format!("Bearer header-secret-{}", std::process::id());
    std::fs::write(&secret_file, format!("{credential}\n")).unwrap();
    let endpoint = |path: &std::path::Path| Transport::Http {
        url: url.clone(),
        headers: vec![(
            "Authorization".into(),
            Supplied::FromFile(path.to_string_lossy().into_owned()),
        )],
        oauth: None,
    };
    let upstream = Upstream::connect("remote", &endpoint(&secret_file), CLIENT, None, None)
        .await
        .unwrap();
    let seen = text_of(&upstream, "authorization", serde_json::json!({})).await;
    upstream.close().await;
    let missing = dir.join("missing");
    let e = Upstream::connect("remote", &endpoint(&missing), CLIENT, None, None)
        .await
        .unwrap_err();
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(seen, credential);
    assert!(
        e.contains(&format!(
            "`headers.Authorization` reads the file `{}`, which cannot be read (",
            missing.display()
        )),
        "{e}"
    );
}
