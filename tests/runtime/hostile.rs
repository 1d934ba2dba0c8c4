//! Hostile clients over real sockets: slow headers (slowloris) are cut off, oversized headers
//! and bodies are refused, path traversal in path parameters and in the static tree finds
//! nothing, echoed text cannot inject headers, and none of it gives a 5xx.

use std::time::{Duration, Instant};

use saferef_runtime::server::HEADER_TIMEOUT;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::start;

fn addr(base: &str) -> String {
    base.trim_start_matches("http://").to_string()
}

/// Sends `request` raw and reads the whole answer (the server closes after it).
async fn raw(base: &str, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr(base)).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).into_owned()
}

fn status(answer: &str) -> u16 {
    answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {answer:?}"))
}

#[tokio::test]
async fn a_client_that_sends_headers_slowly_is_disconnected() {
    let base = start().await;
    let mut stream = TcpStream::connect(addr(&base)).await.unwrap();
    let started = Instant::now();
    stream
        .write_all(b"GET /api/health HTTP/1.1\r\n")
        .await
        .unwrap();
    // One header byte every second, never finishing: the header deadline still applies.
    let mut closed = false;
    for _ in 0..(HEADER_TIMEOUT.as_secs() + 10) {
        tokio::time::sleep(Duration::from_secs(1)).await;
        if stream.write_all(b"X").await.is_err() {
            closed = true;
            break;
        }
        let mut buf = [0u8; 512];
        if let Ok(Ok(n)) =
            tokio::time::timeout(Duration::from_millis(1), stream.read(&mut buf)).await
        {
            // hyper answers 408 (or just closes) when the deadline passes.
            closed = n == 0 || String::from_utf8_lossy(&buf[..n]).contains(" 408 ");
            if closed {
                break;
            }
        }
    }
    assert!(closed, "the connection stayed open");
    assert!(
        started.elapsed() < HEADER_TIMEOUT + Duration::from_secs(5),
        "cut off after {:?}",
        started.elapsed()
    );
    // The server still answers others.
    let answer = raw(
        &base,
        b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status(&answer), 200, "{answer}");
}

#[tokio::test]
async fn oversized_headers_and_bodies_are_refused_with_4xx() {
    let base = start().await;
    let huge = format!(
        "GET /api/health HTTP/1.1\r\nHost: x\r\nX-Filler: {}\r\nConnection: close\r\n\r\n",
        "a".repeat(100 * 1024)
    );
    let answer = raw(&base, huge.as_bytes()).await;
    assert_eq!(status(&answer), 431, "{}", &answer[..answer.len().min(200)]);

    let body = vec![b'['; 300 * 1024];
    let res = reqwest::Client::new()
        .post(format!("{base}/api/compounds/batch"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 413);
    let json: serde_json::Value = res.json().await.unwrap();
    assert!(json["error"].as_str().unwrap().contains("limit"), "{json}");
}

#[tokio::test]
async fn path_traversal_finds_nothing_anywhere() {
    let base = start().await;
    let probes = [
        "/api/compound/..%2F..%2F..%2Fetc%2Fpasswd",
        "/api/compound/../../Cargo.toml",
        "/api/compound/%2e%2e/%2e%2e/data/ids.tsv",
        "/api/material/..%2Fmanifest.json",
        "/api/product/..%5C..%5Cwindows",
        "/api/badge/..%2F..%2Fmanifest.json",
        "/api/regulatory/by-agency/..%2F..%2F",
        "/api/_data/dataset.json.zst",
        "/_data/dataset.json.zst",
        "/manifest.json",
        "/api/../manifest.json",
        "/api/%2e%2e/_headers",
        "/api/compound/hq-c-org-000145%00.json",
    ];
    for path in probes {
        let answer = raw(
            &base,
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await;
        let code = status(&answer);
        assert!(
            (400..500).contains(&code),
            "{path}: {code} {}",
            &answer[..answer.len().min(300)]
        );
        assert!(!answer.contains("root:"), "{path}");
        assert!(!answer.contains("[workspace]"), "{path}");
    }
}

#[tokio::test]
async fn echoed_text_cannot_inject_headers_or_markup() {
    let base = start().await;
    // A label with CR/LF and markup: it is only ever escaped text inside the SVG body.
    let res = reqwest::get(format!(
        "{base}/api/badge/hq-c-org-000145?label=%0D%0ASet-Cookie:%20x=1%3Cscript%3E"
    ))
    .await
    .unwrap();
    assert!(res.status().as_u16() < 500);
    assert!(res.headers().get("set-cookie").is_none());
    let svg = res.text().await.unwrap();
    assert!(!svg.contains("<script>"), "{svg}");
    // Error messages quote what they echo, cut to a bounded length.
    let long = "x".repeat(5000);
    let res = reqwest::get(format!(
        "{base}/api/compound/hq-c-org-000145?context={long}"
    ))
    .await
    .unwrap();
    assert_eq!(res.status(), 400);
    let body = res.text().await.unwrap();
    assert!(body.len() < 2000, "{} bytes", body.len());
}

/// Every HTML page (the front door, a compound page, the docs, playground and dashboard, and
/// an HTML error page) carries the security headers `_headers` gives the CDN's pages: a
/// content security policy that forbids framing, `nosniff` and a referrer policy (issue 23:
/// none of them). JSON answers do not need them and do not get the policy, but for a
/// document's JSON form, which shares its path with the page.
#[tokio::test]
async fn pages_carry_a_content_security_policy_and_no_framing() {
    let base = start().await;
    let lines = saferef_generator::build::site::html_security_lines();
    for path in [
        "/",
        "/compound/hq-c-org-000145",
        "/api/docs",
        "/api/playground",
        "/api/dashboard",
        "/api/compliance",
    ] {
        let res = reqwest::get(format!("{base}{path}")).await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
        assert!(
            res.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "{path}"
        );
        for (name, value) in lines {
            assert_eq!(res.headers()[name], value, "{path} {name}");
        }
        let csp = res.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    }
    let res = reqwest::get(format!("{base}/api/compound/hq-c-org-000145"))
        .await
        .unwrap();
    assert!(res.headers().get("content-security-policy").is_none());
    // A document's path answers the same headers in both forms, as `_headers` gives the CDN
    // (issue 23: the HTML form of these had none there).
    for path in [
        "/api/privacy",
        "/api/terms",
        "/api/disclaimer",
        "/api/release-notes",
    ] {
        for query in ["", "?format=json"] {
            let res = reqwest::get(format!("{base}{path}{query}")).await.unwrap();
            assert_eq!(res.status(), 200, "{path}{query}");
            for (name, value) in lines {
                assert_eq!(res.headers()[name], value, "{path}{query} {name}");
            }
        }
    }
}

/// The CAS redirect writes only a known context into `Location`, encoded; anything else is a
/// 400 (issue 23: the value was copied as given). `redirect` and `all_contexts` take the
/// shared boolean spellings: `TRUE` is true, never ignored.
#[tokio::test]
async fn the_cas_redirect_checks_its_context_and_booleans_are_spelled_alike() {
    let base = start().await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let get = |q: &str| {
        let url = format!("{base}/api/compound/cas/80-05-7?{q}");
        let client = client.clone();
        async move { client.get(url).send().await.unwrap() }
    };
    for bad in [
        "redirect=true&context=%0D%0ASet-Cookie:%20x=1",
        "redirect=true&context=dog%22%3E%3Cscript%3E",
        "redirect=true&context=..%2F..%2Fadmin",
    ] {
        let res = get(bad).await;
        assert_eq!(res.status(), 400, "{bad}");
        assert!(res.headers().get("location").is_none(), "{bad}");
        assert!(res.headers().get("set-cookie").is_none(), "{bad}");
        let body: serde_json::Value = res.json().await.unwrap();
        assert_eq!(body["code"], "bad_request", "{bad}");
    }
    for (q, context) in [
        ("redirect=TRUE&context=dog", "dog"),
        ("redirect=yes&context=pregnancy", "human_pregnant"),
        ("redirect=1&context=human_adult", "human_adult"),
    ] {
        let res = get(q).await;
        assert_eq!(res.status(), 302, "{q}");
        let location = res.headers()["location"].to_str().unwrap();
        assert!(
            location.starts_with("/api/compound/hq-c-org-")
                && location.ends_with(&format!("?context={context}")),
            "{q}: {location}"
        );
    }
    let res = get("redirect=false").await;
    assert_eq!(res.status(), 200);

    let compound = |q: &str| {
        let url = format!("{base}/api/compound/hq-c-org-000145?{q}");
        async move {
            let res = reqwest::get(url).await.unwrap();
            (res.status().as_u16(), res.bytes().await.unwrap())
        }
    };
    let (status, all) = compound("all_contexts=true").await;
    assert_eq!(status, 200);
    for spelling in ["all_contexts=TRUE", "all_contexts=True", "all_contexts=1"] {
        assert_eq!(compound(spelling).await, (200, all.clone()), "{spelling}");
    }
    assert_eq!(compound("all_contexts=false").await, compound("").await);
    assert_eq!(compound("all_contexts=maybe").await.0, 400);
}
