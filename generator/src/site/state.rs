//! The build state (`_data/build-state`): what the previous build made of each compound's
//! routes and of the rest (its manifest entries and routing entries), keyed by a hash of the
//! inputs they were rendered from, so a rebuild renders and hashes only what changed and
//! copies the rest of the manifest and of this file as bytes.
//!
//! A small binary format ending in a SHA-256 of everything before it; a file that is missing,
//! of another format, truncated or corrupted reads as no state (everything is rendered).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::routes::{PATTERNS, RouteMeta};
use crate::render::Cache;

/// Where the state lives inside the site tree (under `_data/`, which the CDN does not serve).
pub const PATH: &str = "_data/build-state";

/// Changed whenever the layout below changes, so an older file reads as no state.
const MAGIC: &[u8] = b"saferef build state 2\n";

pub type Hash = [u8; 32];

/// One file of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    pub path: String,
    pub sha256: Hash,
    pub size: u64,
}

/// What one group of routes (a compound's, or the rest) produced from inputs hashed to `key`,
/// borrowed from the state file it was read from or owned when just rendered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Group<'a> {
    pub key: Hash,
    /// How many files, and their bytes.
    pub files: u64,
    pub size: u64,
    /// The files as `manifest.json` lists them: JSON objects separated by commas.
    pub manifest: Cow<'a, [u8]>,
    /// The routing entries (`netlify::routing_entries`), encoded; kept for compounds only,
    /// since the routing files are part of the rest.
    pub routes: Cow<'a, [u8]>,
}

impl Group<'_> {
    pub fn new(key: Hash, files: &[FileEntry], routes: &[RouteMeta]) -> Group<'static> {
        let mut manifest = Vec::with_capacity(files.len() * 140);
        for (i, f) in files.iter().enumerate() {
            if i > 0 {
                manifest.push(b',');
            }
            manifest.extend_from_slice(b"{\"path\":");
            serde_json::to_writer(&mut manifest, &f.path).expect("a string serializes");
            manifest.extend_from_slice(b",\"sha256\":\"");
            manifest.extend_from_slice(hex(&f.sha256).as_bytes());
            manifest.extend_from_slice(b"\",\"size\":");
            manifest.extend_from_slice(f.size.to_string().as_bytes());
            manifest.push(b'}');
        }
        let mut encoded = Vec::new();
        for r in routes {
            put_route(&mut encoded, r);
        }
        Group {
            key,
            files: files.len() as u64,
            size: files.iter().map(|f| f.size).sum(),
            manifest: Cow::Owned(manifest),
            routes: Cow::Owned(encoded),
        }
    }

    /// The files, read back from the manifest entries.
    pub fn file_entries(&self) -> anyhow::Result<Vec<FileEntry>> {
        #[derive(Deserialize)]
        struct Entry {
            path: String,
            sha256: String,
            size: u64,
        }
        let mut list = Vec::with_capacity(self.manifest.len() + 2);
        list.push(b'[');
        list.extend_from_slice(&self.manifest);
        list.push(b']');
        serde_json::from_slice::<Vec<Entry>>(&list)?
            .into_iter()
            .map(|e| {
                Ok(FileEntry {
                    sha256: unhex(&e.sha256)
                        .ok_or_else(|| anyhow::anyhow!("{}: malformed hash", e.path))?,
                    path: e.path,
                    size: e.size,
                })
            })
            .collect()
    }

    /// The routing entries.
    pub fn route_entries(&self) -> anyhow::Result<Vec<RouteMeta>> {
        let mut r = Reader {
            bytes: &self.routes,
        };
        let mut out = Vec::new();
        while !r.bytes.is_empty() {
            out.push(
                r.route()
                    .ok_or_else(|| anyhow::anyhow!("{PATH}: malformed routing entry"))?,
            );
        }
        Ok(out)
    }
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct State<'a> {
    /// By compound id.
    pub compounds: BTreeMap<String, Group<'a>>,
    /// Everything else: materials, products, documents, the routing files, the snapshot.
    pub rest: Group<'a>,
    /// The number of `_redirects` rules (for the report when the rest is reused).
    pub redirect_rules: usize,
}

/// The state file of the tree at `out`, if there is one (`decode` reads it).
pub fn read(out: &Path) -> Option<Vec<u8>> {
    std::fs::read(out.join(PATH)).ok()
}

pub fn encode(state: &State<'_>) -> Vec<u8> {
    let size: usize = state
        .compounds
        .iter()
        .map(|(id, g)| id.len() + g.manifest.len() + g.routes.len() + 80)
        .sum();
    let mut w = Vec::with_capacity(size + state.rest.manifest.len() + 256);
    w.extend_from_slice(MAGIC);
    put_u64(&mut w, state.redirect_rules as u64);
    put_group(&mut w, &state.rest);
    put_u64(&mut w, state.compounds.len() as u64);
    for (id, group) in &state.compounds {
        put_bytes(&mut w, id.as_bytes());
        put_group(&mut w, group);
    }
    let sum = Sha256::digest(&w);
    w.extend_from_slice(&sum);
    w
}

pub fn decode(bytes: &[u8]) -> Option<State<'_>> {
    let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(32)?)?;
    if Sha256::digest(body).as_slice() != sum {
        return None;
    }
    let mut r = Reader {
        bytes: body.strip_prefix(MAGIC)?,
    };
    let redirect_rules = usize::try_from(r.u64()?).ok()?;
    let rest = r.group()?;
    let mut compounds = BTreeMap::new();
    for _ in 0..r.u64()? {
        let id = r.str()?;
        compounds.insert(id, r.group()?);
    }
    r.bytes.is_empty().then_some(State {
        compounds,
        rest,
        redirect_rules,
    })
}

/// Lower-case hexadecimal, as the manifest writes hashes.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

pub fn unhex(s: &str) -> Option<Hash> {
    let mut out = [0u8; 32];
    if s.len() != 64 {
        return None;
    }
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

fn put_u64(w: &mut Vec<u8>, v: u64) {
    w.extend_from_slice(&v.to_le_bytes());
}

fn put_bytes(w: &mut Vec<u8>, b: &[u8]) {
    put_u64(w, b.len() as u64);
    w.extend_from_slice(b);
}

fn put_opt_str(w: &mut Vec<u8>, s: Option<&str>) {
    match s {
        None => w.push(0),
        Some(s) => {
            w.push(1);
            put_bytes(w, s.as_bytes());
        }
    }
}

fn put_group(w: &mut Vec<u8>, g: &Group<'_>) {
    w.extend_from_slice(&g.key);
    put_u64(w, g.files);
    put_u64(w, g.size);
    put_bytes(w, &g.manifest);
    put_bytes(w, &g.routes);
}

fn put_route(w: &mut Vec<u8>, r: &RouteMeta) {
    put_bytes(w, r.pattern.as_bytes());
    put_bytes(w, r.path.as_bytes());
    put_opt_str(w, r.query.as_deref());
    put_bytes(w, r.file.as_bytes());
    w.extend_from_slice(&r.status.to_le_bytes());
    w.push(cache_code(r.cache));
    put_opt_str(w, r.surrogate_key.as_deref());
}

/// Every cache policy, at its `cache_code`.
const CACHES: [Cache; 7] = [
    Cache::PublicCompound,
    Cache::Private,
    Cache::Reference,
    Cache::Badge,
    Cache::Integrity,
    Cache::NoStore,
    Cache::Freshness,
];

fn cache_code(c: Cache) -> u8 {
    // Exhaustive, so a new policy cannot be written without a code.
    match c {
        Cache::PublicCompound => 0,
        Cache::Private => 1,
        Cache::Reference => 2,
        Cache::Badge => 3,
        Cache::Integrity => 4,
        Cache::NoStore => 5,
        Cache::Freshness => 6,
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, tail) = self.bytes.split_at_checked(n)?;
        self.bytes = tail;
        Some(head)
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = usize::try_from(self.u64()?).ok()?;
        self.take(n)
    }

    fn str(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?.to_vec()).ok()
    }

    fn opt_str(&mut self) -> Option<Option<String>> {
        match self.take(1)? {
            [0] => Some(None),
            [1] => Some(Some(self.str()?)),
            _ => None,
        }
    }

    fn group(&mut self) -> Option<Group<'a>> {
        Some(Group {
            key: self.take(32)?.try_into().ok()?,
            files: self.u64()?,
            size: self.u64()?,
            manifest: Cow::Borrowed(self.bytes()?),
            routes: Cow::Borrowed(self.bytes()?),
        })
    }

    fn route(&mut self) -> Option<RouteMeta> {
        let name = self.bytes()?;
        Some(RouteMeta {
            pattern: PATTERNS.iter().find(|p| p.0.as_bytes() == name)?.0,
            path: self.str()?,
            query: self.opt_str()?,
            file: self.str()?,
            status: u16::from_le_bytes(self.take(2)?.try_into().ok()?),
            cache: *CACHES.get(usize::from(self.take(1)?[0]))?,
            surrogate_key: self.opt_str()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> Vec<FileEntry> {
        vec![
            FileEntry {
                path: "api/compound/hq-c-org-000001.json".into(),
                sha256: [1; 32],
                size: 42,
            },
            FileEntry {
                path: "api/compound/hq-c-org-000001/raw.json".into(),
                sha256: [0xab; 32],
                size: 7,
            },
        ]
    }

    fn routes() -> Vec<RouteMeta> {
        vec![RouteMeta {
            pattern: "compound_context",
            path: "/api/compound/hq-c-org-000001".into(),
            query: Some("context=pollinator".into()),
            file: "api/compound/hq-c-org-000001/context/pollinator.json".into(),
            status: 422,
            cache: Cache::Private,
            surrogate_key: None,
        }]
    }

    fn sample() -> State<'static> {
        State {
            compounds: [(
                "hq-c-org-000001".to_string(),
                Group::new([7; 32], &files(), &routes()),
            )]
            .into(),
            rest: Group::new([8; 32], &files()[..1], &[]),
            redirect_rules: 12,
        }
    }

    #[test]
    fn reads_back_what_it_writes() {
        let state = sample();
        let bytes = encode(&state);
        let read = decode(&bytes).unwrap();
        assert_eq!(read, state);
        let group = &read.compounds["hq-c-org-000001"];
        assert_eq!(group.file_entries().unwrap(), files());
        assert_eq!(group.route_entries().unwrap(), routes());
        assert_eq!((group.files, group.size), (2, 49));
        // Manifest entries are the manifest's JSON.
        let manifest: serde_json::Value =
            serde_json::from_slice(&[b"[", &group.manifest[..], b"]"].concat()).unwrap();
        assert_eq!(manifest[1]["sha256"], "ab".repeat(32));
    }

    #[test]
    fn anything_damaged_reads_as_no_state() {
        let bytes = encode(&sample());
        assert_eq!(decode(&bytes[..bytes.len() - 1]), None);
        assert_eq!(decode(b""), None);
        let mut flipped = bytes.clone();
        flipped[MAGIC.len() + 20] ^= 1;
        assert_eq!(decode(&flipped), None);
        let mut other = b"saferef build state 1\n".to_vec();
        other.extend_from_slice(&bytes[MAGIC.len()..bytes.len() - 32]);
        let sum = Sha256::digest(&other);
        other.extend_from_slice(&sum);
        assert_eq!(decode(&other), None);
    }
}
