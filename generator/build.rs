//! Gives the generator an identity that changes exactly when what it renders with changes:
//! a SHA-256 over its sources, the templates compiled into it and the lock file. A rebuild of
//! the site reuses the previous build's work only under the same identity.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let inputs = [
        manifest.join("src"),
        manifest.join("../templates"),
        manifest.join("../Cargo.lock"),
    ];
    let mut found = Vec::new();
    for input in &inputs {
        println!("cargo::rerun-if-changed={}", input.display());
        if input.is_dir() {
            files(input, &mut found);
        } else {
            found.push(input.clone());
        }
    }
    found.sort();
    let mut hash = Sha256::new();
    for path in &found {
        hash.update(
            path.strip_prefix(&manifest)
                .unwrap_or(path)
                .to_string_lossy()
                .as_bytes(),
        );
        hash.update(std::fs::read(path).unwrap_or_default());
    }
    let hex: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo::rustc-env=SAFEREF_GENERATOR_SOURCE={hex}");
}
