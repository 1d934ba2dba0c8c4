//! The build state (`_data/build-state`): what the previous build made of each compound's,
//! material's and product's routes and of the rest (its manifest entries and routing entries),
//! keyed by a hash of the inputs they were rendered from, so a rebuild renders and hashes only what changed and
//! copies the rest of the manifest and of this file as bytes; and where in the snapshot each
//! compound file's parsed record is (`Records`), so the next load parses only changed files.
//!
//! A small binary format ending in a CRC-32 of everything before it. A group's manifest
//! entries are not repeated here: the state says where they are in the list of files that
//! ends `_data/manifest.json` (after its head, which holds the build time) and keeps that list's
//! length and CRC-32, so the two are written together (`encode`) and read together. A CRC-32,
//! not a SHA-256: it guards against a torn, truncated or mismatched file (the tree is the
//! build's alone), and it costs a rebuild a few milliseconds for the 25 MB manifest where
//! SHA-256 cost tens. A state
//! that is missing, of another format, truncated or corrupted, or beside another list of
//! files, reads as no state (everything is rendered).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::routes::{PATTERNS, RouteMeta};
use crate::render::Cache;

/// Where the state lives inside the site tree (under `_data/`, which the CDN does not serve).
pub const PATH: &str = "_data/build-state";

/// Changed whenever the layout below changes, so an older file reads as no state.
const MAGIC: &[u8] = b"saferef build state 5\n";

pub type Hash = [u8; 32];

/// One file of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    pub path: String,
    pub sha256: Hash,
    pub size: u64,
}

/// What one group of routes (a compound's, a material's, a product's, or the rest) produced from inputs hashed to `key`,
/// borrowed from the state file it was read from or owned when just rendered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Group<'a> {
    pub key: Hash,
    /// How many files, and their bytes.
    pub files: u64,
    pub size: u64,
    /// The files as `_data/manifest.json` lists them: JSON objects separated by commas.
    pub manifest: Cow<'a, [u8]>,
    /// The routing entries (`netlify::routing_entries`), encoded; kept for entities only,
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
        Group {
            key,
            files: files.len() as u64,
            size: files.iter().map(|f| f.size).sum(),
            manifest: Cow::Owned(manifest),
            routes: Cow::Owned(encode_routes(routes)),
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
    /// By entity id: compounds (`hq-c-`), materials (`hq-m-`) and products (`hq-p-`).
    pub groups: BTreeMap<String, Group<'a>>,
    /// Everything else: the pages and documents of no entity, the routing files, the snapshot.
    pub rest: Group<'a>,
    /// The number of `_redirects` rules (for the report when the rest is reused).
    pub redirect_rules: usize,
    /// The key of `_redirects` and `_headers`: a hash of every routing entry and of what else
    /// they are rendered from, so a rebuild that changes none (a compound's name) copies
    /// their entries instead of planning the exceptions again.
    pub routing: Hash,
    pub records: Records,
}

/// The compound records in the snapshot the build wrote, by the file each was loaded from:
/// what `load::RecordCache` answers from.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Records {
    /// The generator that parsed them (`generator_identity`): another may parse differently.
    pub identity: String,
    /// The dataset's `records_key` and `checks_key` then.
    pub records_key: Hash,
    pub checks_key: Hash,
    /// SHA-256 of the snapshot file the entries point into.
    pub snapshot: Hash,
    /// By file, relative to the data directory.
    pub files: BTreeMap<String, RecordEntry>,
    /// The snapshot file's zstd frames in order (`load::snapshot::encode_frames`): each one's
    /// key (a hash of what it compresses) and compressed length, so a rebuild copies the
    /// frames whose key is unchanged.
    pub frames: Vec<(Hash, u64)>,
}

/// One compound file: the SHA-256 of its bytes, and where the JSON of the record parsed from
/// it is in the decompressed snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordEntry {
    pub digest: Hash,
    pub start: u64,
    pub len: u64,
}

/// The state file and the manifest of the tree at `out`, if there are both (`decode` reads
/// them).
pub fn read(out: &Path) -> Option<(Vec<u8>, Vec<u8>)> {
    let state = std::fs::read(out.join(PATH)).ok()?;
    let manifest = std::fs::read(out.join(super::MANIFEST)).ok()?;
    Some((state, manifest))
}

/// The manifest (`head`, every group's entries, the entities' in id order then the rest's,
/// and the end of the list) and the state file that points into it.
pub fn encode(state: &State<'_>, head: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let groups = || state.groups.values().chain([&state.rest]);
    let mut manifest =
        Vec::with_capacity(head.len() + groups().map(|g| g.manifest.len() + 1).sum::<usize>() + 4);
    manifest.extend_from_slice(head);
    // Ranges are within the list (what follows the head), so the state does not depend on it.
    let mut ranges = Vec::with_capacity(state.groups.len() + 1);
    for g in groups() {
        if !g.manifest.is_empty() && manifest.len() > head.len() {
            manifest.push(b',');
        }
        ranges.push((
            (manifest.len() - head.len()) as u64,
            g.manifest.len() as u64,
        ));
        manifest.extend_from_slice(&g.manifest);
    }
    manifest.extend_from_slice(b"]}\n");
    let list = &manifest[head.len()..];

    let size: usize = state
        .groups
        .iter()
        .map(|(id, g)| id.len() + g.routes.len() + 100)
        .sum();
    let mut w = Vec::with_capacity(size + state.records.files.len() * 120 + 256);
    w.extend_from_slice(MAGIC);
    put_u64(&mut w, state.redirect_rules as u64);
    put_u64(&mut w, list.len() as u64);
    w.extend_from_slice(&checksum(list));
    w.extend_from_slice(&state.routing);
    let (rest, entities) = ranges.split_last().expect("the rest is a group");
    put_group(&mut w, &state.rest, *rest);
    put_u64(&mut w, state.groups.len() as u64);
    for ((id, group), range) in state.groups.iter().zip(entities) {
        put_bytes(&mut w, id.as_bytes());
        put_group(&mut w, group, *range);
    }
    let r = &state.records;
    put_bytes(&mut w, r.identity.as_bytes());
    for key in [&r.records_key, &r.checks_key, &r.snapshot] {
        w.extend_from_slice(key);
    }
    put_u64(&mut w, r.files.len() as u64);
    for (file, e) in &r.files {
        put_bytes(&mut w, file.as_bytes());
        w.extend_from_slice(&e.digest);
        put_u64(&mut w, e.start);
        put_u64(&mut w, e.len);
    }
    put_u64(&mut w, r.frames.len() as u64);
    for (key, len) in &r.frames {
        w.extend_from_slice(key);
        put_u64(&mut w, *len);
    }
    let sum = checksum(&w);
    w.extend_from_slice(&sum);
    (manifest, w)
}

/// Reads a state file and the manifest beside it, checking both sums.
pub fn decode<'a>(bytes: &'a [u8], manifest: &'a [u8]) -> Option<State<'a>> {
    decode_verified(verify(bytes, manifest)?, manifest)
}

/// The part of a state file its sum covers, if the sum holds and `manifest` ends with the
/// list of files written with it.
pub fn verify<'a>(bytes: &'a [u8], manifest: &[u8]) -> Option<&'a [u8]> {
    let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(SUM)?)?;
    if checksum(body) != sum {
        return None;
    }
    let mut r = Reader {
        bytes: body.strip_prefix(MAGIC)?,
    };
    r.u64()?;
    let list = list(manifest, r.u64()?)?;
    (checksum(list) == r.take(SUM)?).then_some(body)
}

/// How long a checksum is.
const SUM: usize = 4;

/// The CRC-32 of `bytes` (little-endian).
fn checksum(bytes: &[u8]) -> [u8; SUM] {
    let mut crc = flate2::Crc::new();
    crc.update(bytes);
    crc.sum().to_le_bytes()
}

/// The last `len` bytes of the manifest: its list of files.
fn list(manifest: &[u8], len: u64) -> Option<&[u8]> {
    manifest.get(manifest.len().checked_sub(usize::try_from(len).ok()?)?..)
}

/// Reads the part of a state file `verify` returned, its groups' entries from `manifest`.
pub fn decode_verified<'a>(body: &'a [u8], manifest: &'a [u8]) -> Option<State<'a>> {
    let mut r = Reader {
        bytes: body.strip_prefix(MAGIC)?,
    };
    let redirect_rules = usize::try_from(r.u64()?).ok()?;
    let manifest = list(manifest, r.u64()?)?;
    r.take(SUM)?;
    let routing = r.hash()?;
    let rest = r.group(manifest)?;
    let mut groups = BTreeMap::new();
    for _ in 0..r.u64()? {
        let id = r.str()?;
        groups.insert(id, r.group(manifest)?);
    }
    let mut records = Records {
        identity: r.str()?,
        records_key: r.hash()?,
        checks_key: r.hash()?,
        snapshot: r.hash()?,
        files: BTreeMap::new(),
        frames: Vec::new(),
    };
    for _ in 0..r.u64()? {
        let file = r.str()?;
        let entry = RecordEntry {
            digest: r.hash()?,
            start: r.u64()?,
            len: r.u64()?,
        };
        records.files.insert(file, entry);
    }
    for _ in 0..r.u64()? {
        records.frames.push((r.hash()?, r.u64()?));
    }
    r.bytes.is_empty().then_some(State {
        groups,
        rest,
        redirect_rules,
        routing,
        records,
    })
}

/// Routing entries as a group keeps them (`Group::route_entries` reads them back).
pub fn encode_routes(routes: &[RouteMeta]) -> Vec<u8> {
    let mut encoded = Vec::new();
    for r in routes {
        put_route(&mut encoded, r);
    }
    encoded
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

/// A group, its manifest entries as (start, length) in the manifest.
fn put_group(w: &mut Vec<u8>, g: &Group<'_>, (start, len): (u64, u64)) {
    w.extend_from_slice(&g.key);
    put_u64(w, g.files);
    put_u64(w, g.size);
    put_u64(w, start);
    put_u64(w, len);
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

    fn hash(&mut self) -> Option<Hash> {
        self.take(32)?.try_into().ok()
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

    fn group(&mut self, manifest: &'a [u8]) -> Option<Group<'a>> {
        let (key, files, size) = (self.hash()?, self.u64()?, self.u64()?);
        let start = usize::try_from(self.u64()?).ok()?;
        let len = usize::try_from(self.u64()?).ok()?;
        Some(Group {
            key,
            files,
            size,
            manifest: Cow::Borrowed(manifest.get(start..start.checked_add(len)?)?),
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
            groups: [(
                "hq-c-org-000001".to_string(),
                Group::new([7; 32], &files(), &routes()),
            )]
            .into(),
            rest: Group::new([8; 32], &files()[..1], &[]),
            redirect_rules: 12,
            routing: [9; 32],
            records: Records {
                identity: "0.1.0 42 7".into(),
                records_key: [1; 32],
                checks_key: [2; 32],
                snapshot: [3; 32],
                files: [(
                    "compounds/hq-c-org-000001.json".to_string(),
                    RecordEntry {
                        digest: [4; 32],
                        start: 100,
                        len: 2000,
                    },
                )]
                .into(),
                frames: vec![([5; 32], 1000), ([6; 32], 24)],
            },
        }
    }

    const HEAD: &[u8] = b"{\"built_at\":\"2026-11-21T10:00:00Z\",\"files\":[";

    #[test]
    fn reads_back_what_it_writes() {
        let state = sample();
        let (manifest, bytes) = encode(&state, HEAD);
        let read = decode(&bytes, &manifest).unwrap();
        assert_eq!(read, state);
        // The manifest is the head and every group's entries, compounds first.
        let listed: serde_json::Value = serde_json::from_slice(&manifest).unwrap();
        let paths: Vec<&str> = listed["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap())
            .collect();
        assert_eq!(
            paths,
            [
                "api/compound/hq-c-org-000001.json",
                "api/compound/hq-c-org-000001/raw.json",
                "api/compound/hq-c-org-000001.json",
            ]
        );
        let group = &read.groups["hq-c-org-000001"];
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
        let (manifest, bytes) = encode(&sample(), HEAD);
        assert_eq!(decode(&bytes[..bytes.len() - 1], &manifest), None);
        assert_eq!(decode(b"", &manifest), None);
        let mut flipped = bytes.clone();
        flipped[MAGIC.len() + 50] ^= 1;
        assert_eq!(decode(&flipped, &manifest), None);
        let mut other = b"saferef build state 2\n".to_vec();
        other.extend_from_slice(&bytes[MAGIC.len()..bytes.len() - SUM]);
        let sum = checksum(&other);
        other.extend_from_slice(&sum);
        assert_eq!(decode(&other, &manifest), None);
        // A manifest edited by hand.
        let edited = String::from_utf8(manifest.clone())
            .unwrap()
            .replace("raw.json", "raw.jsn")
            .into_bytes();
        assert_eq!(decode(&bytes, &edited), None);
    }

    #[test]
    fn the_state_does_not_depend_on_the_manifest_head() {
        let (manifest, bytes) = encode(&sample(), HEAD);
        let later_head = b"{\"dataset_version\":\"abc\",\"built_at\":\"tomorrow\",\"files\":[";
        let (later, same) = encode(&sample(), later_head);
        assert_eq!(same, bytes);
        assert_ne!(later, manifest);
        assert_eq!(decode(&bytes, &later).unwrap(), sample());
    }
}
