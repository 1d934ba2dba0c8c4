//! Real answers of the real `saferef-serve` binary against the schemas of its own OpenAPI
//! document: `openapi_answers.py` sends every catalogued example request and the other forms
//! of each answer (public and keyed, errors, account, watchlist and webhook calls) and
//! validates each body against the schema the document gives for its status and media type
//! (`jsonschema`, installed with `openapi-spec-validator` by `scripts/test`). Every schema is
//! derived from the type the answer serialises (`render/openapi_schemas.rs`; the runtime's own
//! answers are the types of `render/runtime_answers/`), so an answer that leaves its type fails
//! here.

use std::path::PathBuf;
use std::process::Command;

use base64::Engine;

use crate::support::binary::Served;

#[test]
fn every_answer_validates_against_the_schema_the_openapi_gives_it() {
    let secret = base64::engine::general_purpose::STANDARD.encode([5u8; 32]);
    let served = Served::start(
        "enterprise",
        &[
            ("SAFEREF_SECRET_KEY", secret.as_str()),
            ("SAFEREF_WEBHOOK_ALLOW_LOOPBACK", "true"),
        ],
    );
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/runtime/openapi_answers.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(&served.server.base)
        .arg(&served.key)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "answers and the OpenAPI disagree:\n{stdout}\n{}\nserver log:\n{}",
        String::from_utf8_lossy(&out.stderr),
        served.log(),
    );
}
