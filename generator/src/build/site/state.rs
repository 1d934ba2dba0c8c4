//! The build state (`_data/build-state` and its shards): what the previous build made of each compound's,
//! material's and product's routes and of the rest (its manifest entries and routing entries),
//! keyed by a hash of the inputs they were rendered from, so a rebuild renders and hashes only what changed and
//! copies the rest of the manifest and of this file as bytes; and where in the snapshot each
//! compound file's parsed record is, with the file's digest and stamp (`Records`), so the next
//! load reads only files whose stamp changed and parses only those whose bytes did.
//!
//! Sharded: the entities fall into `SHARDS` shards by a CRC-32 of their id, and each shard's
//! manifest entries (`_data/manifest/NN.json`, a JSON list) and state (`_data/build-state.d/NN`)
//! are files of their own, which a rebuild writes only when an entity of the shard was rendered
//! again, came or went. The head (`_data/build-state`, beside `_data/manifest.json`, which lists
//! the shards and the rest's files) holds the rest, the records, the snapshot's frames, and each
//! shard's lengths and CRC-32s, so a shard that is not the one the head was written with reads as
//! no state. Both heads are written on every build and moved in last (`output::Staged::commit`):
//! a build that stops before leaves no head, which reads as no state. A rebuild reads the heads
//! and the shards' state files (`read_heads`), and of the shards' manifest files (four fifths of
//! the bytes) only those of the shards it writes again (`read_manifest_shard`); the others are
//! checked by their length.
//!
//! A small binary format; the head ends in a CRC-32 of everything before it. A group's manifest
//! entries are not repeated here: the state says where they are in its shard's manifest file
//! (the rest's: in the list of files that ends `_data/manifest.json`, after its head, which holds
//! the build time) and keeps that list's length and CRC-32, so the two are written together
//! (`encode`) and read together. A CRC-32, not a SHA-256: it guards against a torn, truncated or
//! mismatched file (the tree is the build's alone), and it costs a rebuild a few milliseconds
//! where SHA-256 cost tens. A state that is missing, of another format, truncated or corrupted,
//! or beside other manifest files, reads as no state (everything is rendered).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::routes::{PATTERNS, RouteMeta};
use crate::model::file_stamp::FileStamp;
use crate::render::Cache;

/// Where the state lives inside the site tree (under `_data/`, which the CDN does not serve).
pub const PATH: &str = "_data/build-state";

/// Changed whenever the layout below changes, so an older file reads as no state.
const MAGIC: &[u8] = b"saferef build state 7\n";

/// How many shards the entities fall into: a one-compound rebuild writes the few its compound,
/// and the materials and products naming it, are in (about 1/64 of 31 MB each).
pub const SHARDS: usize = 64;

/// The shard an entity's manifest entries and state are in.
pub fn shard_of(id: &str) -> usize {
    u32::from_le_bytes(checksum(id.as_bytes())) as usize % SHARDS
}

/// Shard `i`'s manifest entries, a JSON list of files.
pub fn manifest_shard(i: usize) -> String {
    format!("_data/manifest/{i:02}.json")
}

/// Shard `i`'s state.
pub fn state_shard(i: usize) -> String {
    format!("_data/build-state.d/{i:02}")
}

/// A shard's two files as the head records them: each one's length and CRC-32 (an absent,
/// empty shard: zero and the CRC-32 of nothing).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sums {
    pub manifest: (u64, [u8; SUM]),
    pub state: (u64, [u8; SUM]),
}

impl Sums {
    fn of(manifest: &[u8], state: &[u8]) -> Sums {
        Sums {
            manifest: (manifest.len() as u64, checksum(manifest)),
            state: (state.len() as u64, checksum(state)),
        }
    }

    /// Whether the shard has any file.
    pub fn present(&self) -> bool {
        self.manifest.0 > 0
    }
}

/// The files a state is read from: the head, the manifest, each shard's state (empty when
/// absent) and each shard's manifest.
#[derive(Debug, Default)]
pub struct Files {
    pub state: Vec<u8>,
    pub manifest: Vec<u8>,
    pub shards: Vec<Vec<u8>>,
    pub manifests: Vec<ShardManifest>,
}

/// A shard's manifest file as read: its bytes (empty when absent), or, when a rebuild does not
/// need them (`read_heads`), only its length on disk (zero when absent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardManifest {
    Read(Vec<u8>),
    Length(u64),
}

impl Files {
    /// Shard `i`'s manifest file, when it was read.
    pub fn manifest_of(&self, i: usize) -> Option<&[u8]> {
        match self.manifests.get(i)? {
            ShardManifest::Read(bytes) => Some(bytes),
            ShardManifest::Length(_) => None,
        }
    }
}

/// What `encode` writes: the manifest, the head, the shards it encoded (index, manifest,
/// state; the others are as the state read said), and the shards that are now empty.
#[derive(Debug, Default)]
pub struct Encoded {
    pub manifest: Vec<u8>,
    pub state: Vec<u8>,
    pub shards: Vec<(usize, Vec<u8>, Vec<u8>)>,
    pub empty: Vec<usize>,
}

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
    /// Each shard's sums as the state read had them (`SHARDS` of them), or none: `encode`
    /// writes every shard then.
    pub shards: Vec<Sums>,
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

/// One compound file: the SHA-256 of its bytes, where the JSON of the record parsed from it is
/// in the decompressed snapshot, and the file's stamp when it was read (when it could be
/// trusted: `FileStamp::of`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordEntry {
    pub digest: Hash,
    pub start: u64,
    pub len: u64,
    pub stamp: Option<FileStamp>,
}

/// The state's files and the manifest of the tree at `out`, every shard's read, if there are
/// the two heads (`verify` and `decode` read them; an absent shard reads as empty).
pub fn read(out: &Path) -> Option<Files> {
    read_with(out, |path| {
        ShardManifest::Read(std::fs::read(path).unwrap_or_default())
    })
}

/// As `read`, but of the shards' manifests (four fifths of the bytes) only their lengths: a
/// rebuild reads those of the shards it writes again (`read_manifest_shard`), and the others'
/// lengths are checked against the head, as every other file of the tree is trusted to be
/// the one the build wrote.
pub fn read_heads(out: &Path) -> Option<Files> {
    read_with(out, |path| {
        ShardManifest::Length(std::fs::metadata(path).map_or(0, |m| m.len()))
    })
}

fn read_with(out: &Path, manifest: impl Fn(&Path) -> ShardManifest) -> Option<Files> {
    let state = std::fs::read(out.join(PATH)).ok()?;
    let head = std::fs::read(out.join(super::MANIFEST)).ok()?;
    let shards = (0..SHARDS)
        .map(|i| std::fs::read(out.join(state_shard(i))).unwrap_or_default())
        .collect();
    let manifests = (0..SHARDS)
        .map(|i| manifest(&out.join(manifest_shard(i))))
        .collect();
    Some(Files {
        state,
        manifest: head,
        shards,
        manifests,
    })
}

/// Shard `i`'s manifest file at `out` (empty when absent), when it is the one `sums` describes.
pub fn read_manifest_shard(out: &Path, i: usize, sums: &Sums) -> Option<Vec<u8>> {
    let bytes = std::fs::read(out.join(manifest_shard(i))).unwrap_or_default();
    ((bytes.len() as u64, checksum(&bytes)) == sums.manifest).then_some(bytes)
}

/// The manifest's head up to its lists: `start` (`{"dataset_version":..,"built_at":..`), then the
/// shards present and the start of the rest's list of files.
fn manifest_head(start: &[u8], shards: &[Sums]) -> Vec<u8> {
    let mut head = start.to_vec();
    head.extend_from_slice(b",\"shards\":[");
    let present = shards.iter().enumerate().filter(|(_, s)| s.present());
    for (n, (i, _)) in present.enumerate() {
        if n > 0 {
            head.push(b',');
        }
        head.extend_from_slice(format!("\"{}\"", manifest_shard(i)).as_bytes());
    }
    head.extend_from_slice(b"],\"files\":[");
    head
}

/// Entries of groups joined into `out`, each group's (start, length) in it.
fn join_entries<'g>(out: &mut Vec<u8>, groups: impl Iterator<Item = &'g [u8]>) -> Vec<(u64, u64)> {
    let first = out.len();
    groups
        .map(|entries| {
            if !entries.is_empty() && out.len() > first {
                out.push(b',');
            }
            let range = (out.len() as u64, entries.len() as u64);
            out.extend_from_slice(entries);
            range
        })
        .collect()
}

/// The manifest (`start`, the shards present, the rest's entries and the end of the list), the
/// head of the state, and the shards that `touched` names or that `state.shards` does not
/// describe (each one's manifest entries, the entities' in id order, and its state).
pub fn encode(state: &State<'_>, start: &[u8], touched: &dyn Fn(usize) -> bool) -> Encoded {
    let mut by_shard: Vec<Vec<(&String, &Group<'_>)>> = vec![Vec::new(); SHARDS];
    for (id, g) in &state.groups {
        by_shard[shard_of(id)].push((id, g));
    }
    let mut sums = Vec::with_capacity(SHARDS);
    let mut shards = Vec::new();
    let mut empty = Vec::new();
    for (i, groups) in by_shard.iter().enumerate() {
        match state.shards.get(i) {
            Some(kept) if !touched(i) => sums.push(*kept),
            _ if groups.is_empty() => {
                sums.push(Sums::of(b"", b""));
                empty.push(i);
            }
            _ => {
                let (manifest, shard) = encode_shard(groups);
                sums.push(Sums::of(&manifest, &shard));
                shards.push((i, manifest, shard));
            }
        }
    }

    let head = manifest_head(start, &sums);
    let mut manifest = Vec::with_capacity(head.len() + state.rest.manifest.len() + 4);
    manifest.extend_from_slice(&head);
    let rest = join_entries(&mut manifest, [&state.rest.manifest[..]].into_iter())[0];
    // Ranges are within the list (what follows the head), so the state does not depend on it.
    let rest = (rest.0 - head.len() as u64, rest.1);
    manifest.extend_from_slice(b"]}\n");
    let list = &manifest[head.len()..];

    let mut w = Vec::with_capacity(state.records.files.len() * 120 + SHARDS * 24 + 256);
    w.extend_from_slice(MAGIC);
    put_u64(&mut w, state.redirect_rules as u64);
    put_u64(&mut w, list.len() as u64);
    w.extend_from_slice(&checksum(list));
    w.extend_from_slice(&state.routing);
    put_group(&mut w, &state.rest, rest);
    for s in &sums {
        for (len, sum) in [s.manifest, s.state] {
            put_u64(&mut w, len);
            w.extend_from_slice(&sum);
        }
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
        put_stamp(&mut w, e.stamp.as_ref());
    }
    put_u64(&mut w, r.frames.len() as u64);
    for (key, len) in &r.frames {
        w.extend_from_slice(key);
        put_u64(&mut w, *len);
    }
    let sum = checksum(&w);
    w.extend_from_slice(&sum);
    Encoded {
        manifest,
        state: w,
        shards,
        empty,
    }
}

/// One shard's manifest file (a JSON list of its groups' entries) and state file.
fn encode_shard(groups: &[(&String, &Group<'_>)]) -> (Vec<u8>, Vec<u8>) {
    let size: usize = groups.iter().map(|(_, g)| g.manifest.len() + 1).sum();
    let mut manifest = Vec::with_capacity(size + 2);
    manifest.push(b'[');
    let ranges = join_entries(&mut manifest, groups.iter().map(|(_, g)| &g.manifest[..]));
    manifest.extend_from_slice(b"]\n");
    let size: usize = groups
        .iter()
        .map(|(id, g)| id.len() + g.routes.len() + 100)
        .sum();
    let mut w = Vec::with_capacity(size + 8);
    put_u64(&mut w, groups.len() as u64);
    for ((id, group), range) in groups.iter().zip(ranges) {
        put_bytes(&mut w, id.as_bytes());
        put_group(&mut w, group, range);
    }
    (manifest, w)
}

/// Reads a state and the manifest beside it, checking every sum; the groups of a shard whose
/// manifest was not read have no manifest entries.
pub fn decode(files: &Files) -> Option<State<'_>> {
    if !verify(files) {
        return None;
    }
    decode_verified(files, &|i| files.manifest_of(i))
}

/// Whether the head's sum holds, the manifest ends with the list of files written with it, and
/// every shard is the one the head was written with (of a shard's manifest not read, its
/// length).
pub fn verify(files: &Files) -> bool {
    verified(files).is_some()
}

fn verified(files: &Files) -> Option<()> {
    let bytes = &files.state;
    let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(SUM)?)?;
    if checksum(body) != sum {
        return None;
    }
    let mut r = Reader {
        bytes: body.strip_prefix(MAGIC)?,
    };
    r.u64()?;
    let list = list(&files.manifest, r.u64()?)?;
    if checksum(list) != r.take(SUM)? {
        return None;
    }
    r.hash()?;
    r.group(Some(list))?;
    for i in 0..SHARDS {
        let (state, manifest) = (files.shards.get(i)?, files.manifests.get(i)?);
        let sums = r.sums()?;
        let (len, sum) = sums.manifest;
        let manifest_holds = match manifest {
            ShardManifest::Read(bytes) => (bytes.len() as u64, checksum(bytes)) == (len, sum),
            ShardManifest::Length(on_disk) => *on_disk == len,
        };
        if !manifest_holds || (state.len() as u64, checksum(state)) != sums.state {
            return None;
        }
    }
    Some(())
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

/// Reads a state `verify` accepted, its groups' entries from the manifest and, of the shards
/// `manifest` gives the manifest file of, from that file (the others' groups have none).
pub fn decode_verified<'a>(
    files: &'a Files,
    manifest: &dyn Fn(usize) -> Option<&'a [u8]>,
) -> Option<State<'a>> {
    let body = files.state.get(..files.state.len().checked_sub(SUM)?)?;
    let mut r = Reader {
        bytes: body.strip_prefix(MAGIC)?,
    };
    let redirect_rules = usize::try_from(r.u64()?).ok()?;
    let list = list(&files.manifest, r.u64()?)?;
    r.take(SUM)?;
    let routing = r.hash()?;
    let rest = r.group(Some(list))?;
    let mut shards = Vec::with_capacity(SHARDS);
    for _ in 0..SHARDS {
        shards.push(r.sums()?);
    }
    let mut groups = BTreeMap::new();
    for (i, state) in files.shards.iter().take(SHARDS).enumerate() {
        if state.is_empty() {
            continue;
        }
        let mut s = Reader { bytes: state };
        let entries = manifest(i);
        for _ in 0..s.u64()? {
            let id = s.str()?;
            groups.insert(id, s.group(entries)?);
        }
        if !s.bytes.is_empty() {
            return None;
        }
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
            stamp: r.stamp()?,
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
        shards,
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

fn put_stamp(w: &mut Vec<u8>, stamp: Option<&FileStamp>) {
    let Some(s) = stamp else {
        w.push(0);
        return;
    };
    w.push(1);
    for v in [s.len, s.dev, s.ino] {
        put_u64(w, v);
    }
    for v in [s.mtime.0, s.mtime.1, s.ctime.0, s.ctime.1] {
        w.extend_from_slice(&v.to_le_bytes());
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

    fn sums(&mut self) -> Option<Sums> {
        let mut half = || -> Option<(u64, [u8; SUM])> {
            Some((self.u64()?, self.take(SUM)?.try_into().ok()?))
        };
        Some(Sums {
            manifest: half()?,
            state: half()?,
        })
    }

    fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn stamp(&mut self) -> Option<Option<FileStamp>> {
        match self.take(1)? {
            [0] => Some(None),
            [1] => Some(Some(FileStamp {
                len: self.u64()?,
                dev: self.u64()?,
                ino: self.u64()?,
                mtime: (self.i64()?, self.i64()?),
                ctime: (self.i64()?, self.i64()?),
            })),
            _ => None,
        }
    }

    fn opt_str(&mut self) -> Option<Option<String>> {
        match self.take(1)? {
            [0] => Some(None),
            [1] => Some(Some(self.str()?)),
            _ => None,
        }
    }

    /// A group, its manifest entries taken from `manifest` (none when it is not given).
    fn group(&mut self, manifest: Option<&'a [u8]>) -> Option<Group<'a>> {
        let (key, files, size) = (self.hash()?, self.u64()?, self.u64()?);
        let start = usize::try_from(self.u64()?).ok()?;
        let len = usize::try_from(self.u64()?).ok()?;
        let entries = match manifest {
            Some(m) => m.get(start..start.checked_add(len)?)?,
            None => &[],
        };
        Some(Group {
            key,
            files,
            size,
            manifest: Cow::Borrowed(entries),
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
                        stamp: Some(FileStamp {
                            len: 2000,
                            mtime: (1_700_000_000, 5),
                            ctime: (1_700_000_001, 999_999_999),
                            dev: 64769,
                            ino: 123_456,
                        }),
                    },
                )]
                .into(),
                frames: vec![([5; 32], 1000), ([6; 32], 24)],
            },
            shards: Vec::new(),
        }
    }

    /// The files `encode` wrote, as `read` reads them back.
    fn files_of(e: &Encoded) -> Files {
        let mut shards = vec![Vec::new(); SHARDS];
        let mut manifests = vec![ShardManifest::Read(Vec::new()); SHARDS];
        for (i, manifest, state) in &e.shards {
            shards[*i] = state.clone();
            manifests[*i] = ShardManifest::Read(manifest.clone());
        }
        Files {
            state: e.state.clone(),
            manifest: e.manifest.clone(),
            shards,
            manifests,
        }
    }

    /// Shard `i`'s manifest file in `files`.
    fn manifest_bytes(files: &mut Files, i: usize) -> &mut Vec<u8> {
        match &mut files.manifests[i] {
            ShardManifest::Read(bytes) => bytes,
            ShardManifest::Length(_) => panic!("shard {i}'s manifest was not read"),
        }
    }

    /// `decode` without the shards' sums, which `sample` leaves to `encode`.
    fn decoded(files: &Files) -> Option<State<'_>> {
        let mut read = decode(files)?;
        assert_eq!(read.shards.len(), SHARDS);
        read.shards.clear();
        Some(read)
    }

    const HEAD: &[u8] = b"{\"built_at\":\"2026-11-21T10:00:00Z\"";

    #[test]
    fn reads_back_what_it_writes() {
        let state = sample();
        let encoded = encode(&state, HEAD, &|_| true);
        let written = files_of(&encoded);
        let read = decoded(&written).unwrap();
        assert_eq!(read, state);
        // The manifest lists the shard the compound is in and the rest's files; the shard, the
        // compound's.
        let shard = shard_of("hq-c-org-000001");
        assert_eq!(encoded.shards.len(), 1);
        assert_eq!(encoded.empty.len(), SHARDS - 1);
        let listed: serde_json::Value = serde_json::from_slice(&encoded.manifest).unwrap();
        assert_eq!(listed["shards"], serde_json::json!([manifest_shard(shard)]));
        let paths = |list: &serde_json::Value| -> Vec<String> {
            list.as_array()
                .unwrap()
                .iter()
                .map(|f| f["path"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(
            paths(&listed["files"]),
            ["api/compound/hq-c-org-000001.json"]
        );
        let in_shard: serde_json::Value =
            serde_json::from_slice(written.manifest_of(shard).unwrap()).unwrap();
        assert_eq!(
            paths(&in_shard),
            [
                "api/compound/hq-c-org-000001.json",
                "api/compound/hq-c-org-000001/raw.json",
            ]
        );
        let group = &read.groups["hq-c-org-000001"];
        assert_eq!(group.file_entries().unwrap(), files());
        assert_eq!(group.route_entries().unwrap(), routes());
        assert_eq!((group.files, group.size), (2, 49));
        assert_eq!(in_shard[1]["sha256"], "ab".repeat(32));
    }

    #[test]
    fn only_the_shards_touched_are_encoded_again() {
        let encoded = encode(&sample(), HEAD, &|_| true);
        let files = files_of(&encoded);
        let read = decode(&files).unwrap();
        let shard = shard_of("hq-c-org-000001");
        // Nothing touched: no shard is encoded, and the head still describes the one on disk.
        let again = encode(&read, HEAD, &|_| false);
        assert!(again.shards.is_empty() && again.empty.is_empty());
        assert_eq!(again.state, encoded.state);
        assert_eq!(
            decoded(&files_of(&again)),
            None,
            "its shard is not in `again`"
        );
        let mut kept = files_of(&again);
        kept.shards[shard] = files.shards[shard].clone();
        kept.manifests[shard] = files.manifests[shard].clone();
        assert_eq!(decoded(&kept).unwrap(), sample());
        // Its shard touched: that one alone.
        let touched = encode(&read, HEAD, &|i| i == shard);
        assert_eq!(touched.shards.len(), 1);
        assert_eq!(touched.shards[0].0, shard);
        assert_eq!(touched.state, encoded.state);
    }

    #[test]
    fn anything_damaged_reads_as_no_state() {
        let encoded = encode(&sample(), HEAD, &|_| true);
        let good = files_of(&encoded);
        assert!(decode(&good).is_some());
        let with = |edit: &dyn Fn(&mut Files)| {
            let mut f = files_of(&encoded);
            edit(&mut f);
            decode(&f).is_none()
        };
        assert!(with(&|f| {
            f.state.pop();
        }));
        assert!(with(&|f| f.state.clear()));
        assert!(with(&|f| f.state[MAGIC.len() + 50] ^= 1));
        assert!(with(&|f| {
            let mut other = b"saferef build state 5\n".to_vec();
            other.extend_from_slice(&f.state[MAGIC.len()..f.state.len() - SUM]);
            let sum = checksum(&other);
            other.extend_from_slice(&sum);
            f.state = other;
        }));
        // A manifest, or a shard's manifest or state, edited by hand or missing.
        let shard = shard_of("hq-c-org-000001");
        let edit = |bytes: &mut Vec<u8>| {
            *bytes = String::from_utf8(bytes.clone())
                .unwrap()
                .replace("raw.json", "raw.jsn")
                .replace(".json", ".jsn")
                .into_bytes();
        };
        assert!(with(&|f| edit(&mut f.manifest)));
        assert!(with(&|f| edit(manifest_bytes(f, shard))));
        assert!(with(&|f| f.shards[shard][20] ^= 1));
        assert!(with(&|f| f.shards[shard].clear()));
        assert!(with(
            &|f| *manifest_bytes(f, (shard + 1) % SHARDS) = b"[]\n".to_vec()
        ));
    }

    #[test]
    fn a_shard_manifest_not_read_is_checked_by_its_length_and_read_when_needed() {
        let encoded = encode(&sample(), HEAD, &|_| true);
        let shard = shard_of("hq-c-org-000001");
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, bytes: &[u8]| {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        };
        write(PATH, &encoded.state);
        write(super::super::MANIFEST, &encoded.manifest);
        let (_, manifest, state) = &encoded.shards[0];
        write(&manifest_shard(shard), manifest);
        write(&state_shard(shard), state);

        let heads = read_heads(dir.path()).unwrap();
        assert_eq!(
            heads.manifests[shard],
            ShardManifest::Length(manifest.len() as u64)
        );
        let read = decode(&heads).unwrap();
        let group = &read.groups["hq-c-org-000001"];
        assert!(
            group.manifest.is_empty(),
            "its shard's manifest is not read"
        );
        assert_eq!(group.route_entries().unwrap(), routes());
        // Read when needed, and taken only when it is the file the head describes.
        let sums = read.shards[shard];
        assert_eq!(
            read_manifest_shard(dir.path(), shard, &sums).as_ref(),
            Some(manifest)
        );
        let with = decode_verified(&heads, &|i| (i == shard).then_some(&manifest[..])).unwrap();
        assert_eq!(
            with.groups["hq-c-org-000001"].file_entries().unwrap(),
            files()
        );
        let mut edited = manifest.clone();
        edited[10] ^= 1;
        write(&manifest_shard(shard), &edited);
        assert_eq!(read_manifest_shard(dir.path(), shard, &sums), None);
        // One of another length (torn, truncated, grown) makes the whole state no state.
        write(&manifest_shard(shard), &manifest[..manifest.len() - 1]);
        assert!(decode(&read_heads(dir.path()).unwrap()).is_none());
        write(&manifest_shard((shard + 1) % SHARDS), b"[]\n");
        write(&manifest_shard(shard), manifest);
        assert!(decode(&read_heads(dir.path()).unwrap()).is_none());
    }

    #[test]
    fn the_state_does_not_depend_on_the_manifest_head() {
        let encoded = encode(&sample(), HEAD, &|_| true);
        let later_head = b"{\"dataset_version\":\"abc\",\"built_at\":\"tomorrow\"";
        let later = encode(&sample(), later_head, &|_| true);
        assert_eq!(later.state, encoded.state);
        assert_ne!(later.manifest, encoded.manifest);
        let mut files = files_of(&encoded);
        files.manifest = later.manifest;
        assert_eq!(decoded(&files).unwrap(), sample());
    }
}
