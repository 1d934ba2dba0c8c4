//! `saferef-serve` started as the README starts it (its defaults: `data/`, `site/` and `var/`
//! in the working directory, the embedded store, the tree it builds itself without a runtime
//! origin; only the port is free, not 8080): what the tree did not precompute (context
//! aliases, typos, badge labels, unknown styles) is answered by the runtime exactly as behind
//! a CDN with a runtime origin, never by a default file with a 200.

use std::process::{Command, Stdio};

use saferef_generator::api;
use saferef_generator::build::site::MANIFEST;
use saferef_generator::load::snapshot;
use saferef_generator::render::dispatch;

use crate::support::binary::{LogFile, Server};
use crate::support::data_dir;

#[test]
fn local_mode_answers_what_the_tree_did_not_precompute_as_the_runtime_does() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(data_dir(), dir.path().join("data")).unwrap();
    let log = LogFile::scratch();
    let server = Server::logged(
        Command::new(env!("CARGO_BIN_EXE_saferef-serve"))
            .args(["--listen", "127.0.0.1:0"])
            .current_dir(dir.path())
            .env_remove("SAFEREF_REDIS_URL")
            .stdout(Stdio::piped())
            .stderr(log.stderr())
            .spawn()
            .unwrap(),
        log,
    );
    let site = dir.path().join("site");
    assert!(site.join(MANIFEST).is_file(), "it built its tree");
    assert!(dir.path().join("var").is_dir(), "its embedded store");
    let d = snapshot::read(&site.join(snapshot::PATH)).unwrap();
    let client = reqwest::blocking::Client::new();
    let get = |url: &str| {
        let res = client.get(format!("{}{url}", server.base)).send().unwrap();
        let status = res.status().as_u16();
        (status, res.bytes().unwrap().to_vec())
    };
    let file = |path: String| std::fs::read(site.join(path)).unwrap();
    // The one dispatch's answer, as the runtime renders it.
    let render =
        |path: String, query: &str| dispatch::get_static(&d, &path, &api::pairs(query), None);
    let benzene = d.by_cas("71-43-2").unwrap().hq_id.to_string();
    let bpa = d.by_cas("80-05-7").unwrap().hq_id.to_string();

    // Documented aliases: the canonical context's answer, which the tree holds as a file.
    for id in [&benzene, &bpa] {
        let canonical = file(format!("api/compound/{id}/context/human_child.json"));
        assert_eq!(
            get(&format!("/api/compound/{id}?context=human_child")).1,
            canonical
        );
        for alias in ["kids", "children"] {
            let (status, body) = get(&format!("/api/compound/{id}?context={alias}"));
            assert_eq!(status, 200, "{id} {alias}");
            assert!(
                body == canonical,
                "{id} {alias}: not the human_child answer"
            );
        }
        let adult = file(format!("api/compound/{id}.json"));
        assert_ne!(canonical, adult, "{id}: the test tells the two apart");
    }

    // Typos and unknown contexts: the runtime's 400, not the default record.
    for context in ["human_chlid", "horse"] {
        let (status, body) = get(&format!("/api/compound/{benzene}?context={context}"));
        let expected = render(
            format!("/api/compound/{benzene}"),
            &format!("context={context}"),
        );
        assert_eq!(expected.status, 400);
        assert_eq!((status, body), (400, expected.body), "{context}");
    }
    // Both ways of asking at once: the runtime's 400, not the dog file.
    let (status, _) = get(&format!(
        "/api/compound/{benzene}?context=dog&all_contexts=true"
    ));
    assert_eq!(status, 400);

    // A badge's label is honoured; an unknown style is the runtime's error.
    let (status, body) = get(&format!("/api/badge/{benzene}?label=Benzene"));
    let labelled = render(format!("/api/badge/{benzene}"), "label=Benzene");
    assert_eq!((status, &body), (200, &labelled.body));
    assert!(String::from_utf8(body).unwrap().contains("Benzene"));
    for query in ["style=for-the-badge", "context=dog&style=for-the-badge"] {
        let (status, body) = get(&format!("/api/badge/{benzene}?{query}"));
        let expected = render(format!("/api/badge/{benzene}"), "style=for-the-badge");
        assert_eq!(expected.status, 400);
        assert_eq!((status, body), (400, expected.body), "{query}");
    }

    // A product's badge is a file; another context is the runtime's 400 badge, not the file.
    let product = d.products.keys().next().unwrap().clone();
    let (status, body) = get(&format!("/api/badge/{product}?style=pill"));
    assert_eq!(status, 200);
    assert!(body == file(format!("api/badge/{product}/human_adult/pill.svg")));
    let (status, body) = get(&format!("/api/badge/{product}?context=dog"));
    let expected = render(format!("/api/badge/{product}"), "context=dog");
    assert_eq!(expected.status, 400);
    assert_eq!((status, body), (400, expected.body));

    // The name lookup has no file: the runtime answers it (a preview would say it needs one).
    let (status, body) = get("/api/lookup?q=benzene");
    assert_eq!(status, 200);
    let found: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(found["results"][0]["id"], benzene.as_str(), "{found}");

    // A children's badge says the children's tier, where it differs from the adults' (lead:
    // its developmental class with H362 raises children, METHODOLOGY.md).
    let lead = d.by_cas("7439-92-1").unwrap().hq_id.to_string();
    let tiers: serde_json::Value =
        serde_json::from_slice(&get(&format!("/api/compound/{lead}?context=children")).1).unwrap();
    let child = tiers["risk_profile"]["tiers"]["human_child"]
        .as_str()
        .unwrap();
    assert_ne!(
        Some(child),
        tiers["risk_profile"]["tiers"]["human_adult"].as_str()
    );
    let children = file(format!("api/badge/{lead}/human_child/flat.svg"));
    let (status, body) = get(&format!("/api/badge/{lead}?context=children"));
    assert_eq!(status, 200);
    assert!(
        body == children,
        "the children badge is the human_child one"
    );
    let svg = String::from_utf8(body).unwrap();
    assert!(svg.contains(&child.replace('_', " ")), "{tiers}\n{svg}");
    assert_ne!(
        children,
        file(format!("api/badge/{lead}/human_adult/flat.svg"))
    );
}
