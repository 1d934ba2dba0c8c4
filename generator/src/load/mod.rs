//! Loads the whole `data/` tree into an immutable `Dataset`: compound files are read and
//! parsed in parallel (walkdir + rayon), curated overlays are merged over them, and every
//! problem met on the way is collected with its file and JSON path rather than stopping.
//!
//! `load_with` reuses what an earlier load parsed (`RecordCache`, kept by the build): a
//! compound file whose bytes and shared inputs are unchanged is read and hashed, not parsed,
//! and one whose stamp (`FileStamp`: length, times, inode) is the one the earlier load read it
//! with is not even read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rayon::prelude::*;
use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::model::aliases::AliasFile;
use crate::model::alternate_cas::{AlternateCas, FILE as ALTERNATES};
use crate::model::catalog::Catalog;
use crate::model::documents::MarkdownFile;
use crate::model::file_stamp::FileStamp;
use crate::model::group_rows::{FILE as GROUP_ROWS, GroupRows};
use crate::model::ids::{CompoundId, IdRegistry};
use crate::model::material::{Material, Product};
use crate::model::merge::{merge, order_by_source, referenced_sources};
use crate::model::record::{CompoundRecord, StatedRoute};
use crate::model::retired::{FILE as RETIRED, Retired};
use crate::model::{
    AgencyFile, CuratedEntry, CuratedFile, Dataset, Ended, Hash, Problem, RouteStatement,
};

mod cache;
pub mod changelog;
mod dates;
pub mod fragrance;
mod lifecycle;
pub mod regulatory_status;
pub mod snapshot;

pub use cache::RecordCache;

/// Loads `data_dir`. Fails only if it is not a dataset directory at all.
pub fn load(data_dir: &Path) -> anyhow::Result<(Dataset, Vec<Problem>)> {
    load_with(data_dir, None)
}

/// As `load`, taking from `cache` every record whose file and shared inputs are unchanged.
/// The stages: the small files every record is read against, the compound records (in
/// parallel), then materials, products, documents and each feature's folder.
pub fn load_with(
    data_dir: &Path,
    cache: Option<&dyn RecordCache>,
) -> anyhow::Result<(Dataset, Vec<Problem>)> {
    let compounds_dir = data_dir.join("compounds");
    if !compounds_dir.is_dir() {
        anyhow::bail!(
            "{} has no compounds/ folder: is it a saferef data directory?",
            data_dir.display()
        );
    }
    let mut problems = Vec::new();
    let mut dataset = Dataset {
        dir: data_dir.to_path_buf(),
        ..Dataset::default()
    };
    load_shared_files(data_dir, &mut dataset, &mut problems);
    let mut hasher = Sha256::new();
    load_compounds(data_dir, cache, &mut dataset, &mut hasher, &mut problems);
    load_entities_and_features(data_dir, &mut dataset, &mut hasher, &mut problems);
    dataset.fingerprint = hasher
        .finalize()
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((dataset, problems))
}

/// The files every record is read or checked against: the id registry, agencies, contexts,
/// aliases, the source catalogue and the curated overlays.
fn load_shared_files(data_dir: &Path, dataset: &mut Dataset, problems: &mut Vec<Problem>) {
    let shown = |p: &Path| p.display().to_string();
    match IdRegistry::read(&data_dir.join("ids.tsv")) {
        Ok(ids) => dataset.ids = ids,
        Err(e) => problems.push(Problem::new(
            shown(&data_dir.join("ids.tsv")),
            "",
            e.to_string(),
        )),
    }
    let agencies_path = data_dir.join("agencies.json");
    match read_json::<AgencyFile>(&agencies_path) {
        Ok(f) => dataset.agencies = f.agencies,
        Err(p) => problems.push(p),
    }
    match read_json::<crate::model::contexts::Contexts>(&data_dir.join("contexts.json")) {
        Ok(c) => dataset.contexts = c,
        Err(p) => problems.push(p),
    }
    // Optional: a dataset without curated aliases (a test corpus) simply has none.
    let aliases_path = data_dir.join("aliases.json");
    if aliases_path.is_file() {
        match read_json::<AliasFile>(&aliases_path) {
            Ok(f) => dataset.aliases = f.aliases,
            Err(p) => problems.push(p),
        }
    }
    match Catalog::read(&data_dir.join("sources.json")) {
        Ok(c) => dataset.catalog = Some(c),
        Err(e) => problems.push(Problem::new(
            shown(&data_dir.join("sources.json")),
            "",
            format!("{e:#}"),
        )),
    }
    for path in json_files(&data_dir.join("curated")) {
        match read_json::<CuratedFile>(&path) {
            Ok(f) => dataset.curated.push((shown(&path), f)),
            Err(p) => problems.push(p),
        }
    }
    match GroupRows::read(data_dir) {
        Ok(rows) => dataset.group_rows = rows,
        Err(e) => problems.push(Problem::new(shown(&data_dir.join(GROUP_ROWS)), "", e)),
    }
    match AlternateCas::read(data_dir) {
        Ok(alternates) => {
            for (cas, id) in dataset.ids.with_alternates(&alternates) {
                problems.push(Problem::new(
                    shown(&data_dir.join("ids.tsv")),
                    "",
                    format!(
                        "{cas} is an alternate number in {ALTERNATES} and still holds {id}: \
                         mark the line retired"
                    ),
                ));
            }
        }
        Err(e) => problems.push(Problem::new(shown(&data_dir.join(ALTERNATES)), "", e)),
    }
}

/// Every compound record, in parallel, overlays applied; the record and check keys that let a
/// later load and `check` reuse their work; the fingerprint fed with each file.
fn load_compounds(
    data_dir: &Path,
    cache: Option<&dyn RecordCache>,
    dataset: &mut Dataset,
    hasher: &mut Sha256,
    problems: &mut Vec<Problem>,
) {
    let overlays = overlays_by_cas(&dataset.curated);
    let catalog = dataset.catalog.clone();
    let rank = move |s: &str| catalog.as_ref().map_or(0, |c| c.rank(s));
    let mut records_key = Sha256::new();
    records_key.update(std::fs::read(data_dir.join("sources.json")).unwrap_or_default());
    for (path, _) in &dataset.curated {
        let bytes = std::fs::read(path).unwrap_or_default();
        for h in [&mut *hasher, &mut records_key] {
            h.update(relative(path, data_dir));
            h.update(&bytes);
        }
    }
    dataset.records_key = records_key.finalize().into();
    let reuse = cache.map(|c| (c, &dataset.records_key, data_dir));
    let read_at = SystemTime::now();
    let loaded: Vec<Read> = json_files(&data_dir.join("compounds"))
        .par_iter()
        .map(|path| load_compound(path, &overlays, &rank, reuse, read_at))
        .collect();
    let mut checks_key = Sha256::new();
    for f in ["ids.tsv", "agencies.json"] {
        checks_key.update(std::fs::read(data_dir.join(f)).unwrap_or_default());
    }
    for (item, found) in loaded {
        problems.extend(found);
        match item {
            Ok((id, file, record, digest, stamp)) => {
                hasher.update(relative(&file, data_dir));
                hasher.update(digest);
                let text = id.to_string();
                for part in [text.as_bytes(), relative(&file, data_dir)] {
                    checks_key.update((part.len() as u64).to_le_bytes());
                    checks_key.update(part);
                }
                if let Some(first) = dataset.files.insert(id, file.clone()) {
                    problems.push(Problem::new(
                        file,
                        "hq_id",
                        format!("{id} is also the id in {first}"),
                    ));
                }
                dataset.digests.insert(id, digest);
                if let Some(stamp) = stamp {
                    dataset.stamps.insert(id, stamp);
                }
                dataset.compounds.insert(id, record);
            }
            Err(names) => dataset.unread.extend(names),
        }
    }
    dataset.checks_key = checks_key.finalize().into();
}

/// `materials/index.tsv` as id -> slug. An id or a slug registered twice is a problem on the
/// later line, and the first registration stands: a map would keep the last one silently.
fn material_index(text: &str, file: &str, problems: &mut Vec<Problem>) -> BTreeMap<String, String> {
    let mut index = BTreeMap::new();
    let mut first_line: BTreeMap<&str, usize> = BTreeMap::new();
    let mut slug_owner: BTreeMap<&str, &str> = BTreeMap::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        let (line_no, cols) = (n + 1, line.split('\t').collect::<Vec<_>>());
        let [id, slug, ..] = cols[..] else { continue };
        if let Some(first) = first_line.get(id) {
            problems.push(
                Problem::new(
                    file,
                    id,
                    format!(
                        "{id} is registered twice (first on line {first}): an id is registered once"
                    ),
                )
                .at_line(line_no),
            );
            continue;
        }
        if let Some(owner) = slug_owner.get(slug) {
            problems.push(
                Problem::new(
                    file,
                    id,
                    format!(
                        "slug {slug:?} is registered for {owner} already: a slug names one material"
                    ),
                )
                .at_line(line_no),
            );
            continue;
        }
        first_line.insert(id, line_no);
        slug_owner.insert(slug, id);
        index.insert(id.to_string(), slug.to_string());
    }
    index
}

/// Materials (with their id registry), products, documents, and the fragrance,
/// regulatory-status and changelog folders.
fn load_entities_and_features(
    data_dir: &Path,
    dataset: &mut Dataset,
    hasher: &mut Sha256,
    problems: &mut Vec<Problem>,
) {
    let index = data_dir.join("materials/index.tsv");
    if let Ok(text) = std::fs::read_to_string(&index) {
        dataset.material_index = material_index(&text, &index.display().to_string(), problems);
    }
    // Optional: a dataset that never retired an id (a test corpus) has no file.
    let retired = data_dir.join(RETIRED);
    if let Ok(text) = std::fs::read_to_string(&retired) {
        hasher.update(RETIRED.as_bytes());
        hasher.update(text.as_bytes());
        let (registry, found) = Retired::parse(&text, &retired.display().to_string());
        dataset.retired = registry;
        problems.extend(found);
    }
    let mut entity_files = BTreeMap::new();
    dataset.materials = load_entities(
        &data_dir.join("materials"),
        |m: &Material| &m.id,
        &mut entity_files,
        hasher,
        problems,
    );
    dataset.products = load_entities(
        &data_dir.join("products"),
        |p: &Product| &p.id,
        &mut entity_files,
        hasher,
        problems,
    );
    dataset.entity_files = entity_files;
    load_documents(data_dir, dataset, hasher, problems);
    let (fragrance, fragrance_problems) = fragrance::load(data_dir);
    dataset.fragrance = fragrance;
    problems.extend(fragrance_problems);
    let (status, status_problems) = regulatory_status::load(data_dir);
    problems.extend(status_problems);
    dataset.regulatory_status = status;
    let (changelog, changelog_problems) =
        changelog::read(&data_dir.join(crate::model::changelog::FILE));
    dataset.changelog = changelog;
    problems.extend(changelog_problems);
}

/// Reads `documents/`, `release-notes/` and the minijinja templates beside `data/`.
fn load_documents(
    data_dir: &Path,
    dataset: &mut Dataset,
    hasher: &mut Sha256,
    problems: &mut Vec<Problem>,
) {
    // The release notes describe the data, as the changelog does, and `diff` writes them:
    // like the changelog they stay out of the fingerprint a release is named after.
    let documents = read_markdown(data_dir, "documents", Some(&mut *hasher), problems);
    let mut notes = read_markdown(data_dir, "release-notes", None, problems);
    for doc in documents {
        let name = doc
            .source_file
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .trim_end_matches(".md")
            .to_string();
        dataset.documents.insert(name, doc);
    }
    notes.sort_by(|a, b| b.front.get("date").cmp(&a.front.get("date")));
    dataset.release_notes = notes;
    if let Some(dir) = data_dir.parent().map(|p| p.join("templates"))
        && dir.is_dir()
    {
        load_templates(&dir, dataset, hasher, problems);
    }
}

/// The Markdown files of `data/<dir>`, in name order; `hasher`, when given, takes each one's
/// path and text.
fn read_markdown(
    data_dir: &Path,
    dir: &str,
    mut hasher: Option<&mut Sha256>,
    problems: &mut Vec<Problem>,
) -> Vec<MarkdownFile> {
    let folder = data_dir.join(dir);
    // A missing folder is `check`'s to report (validate_documents), once per document.
    if !folder.is_dir() {
        return Vec::new();
    }
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(&folder)
        .min_depth(1)
        .max_depth(1)
        .into_iter()
        .filter_map(Result::ok)
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let shown = path.display().to_string();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if let Some(hasher) = hasher.as_deref_mut() {
            hasher.update(relative(&shown, data_dir));
            hasher.update(text.as_bytes());
        }
        match MarkdownFile::parse(&format!("data/{dir}/{name}"), &text) {
            Ok(f) => out.push(f),
            Err(m) => problems.push(Problem::new(shown, "", m)),
        }
    }
    out
}

/// The page templates (`templates/*.j2`) beside the data directory, fingerprinted.
fn load_templates(
    dir: &Path,
    dataset: &mut Dataset,
    hasher: &mut Sha256,
    problems: &mut Vec<Problem>,
) {
    for entry in walkdir::WalkDir::new(dir)
        .min_depth(1)
        .max_depth(1)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "j2"))
    {
        let name = entry.file_name().to_string_lossy().to_string();
        match std::fs::read_to_string(entry.path()) {
            Ok(text) => {
                hasher.update(name.as_bytes());
                hasher.update(text.as_bytes());
                dataset.templates.insert(name, text);
            }
            Err(e) => problems.push(Problem::new(
                entry.path().display().to_string(),
                "",
                e.to_string(),
            )),
        }
    }
}

/// A file's path below the data directory, so the fingerprint does not depend on where the
/// dataset is.
fn relative<'a>(file: &'a str, data_dir: &Path) -> &'a [u8] {
    Path::new(file)
        .strip_prefix(data_dir)
        .ok()
        .and_then(Path::to_str)
        .unwrap_or(file)
        .as_bytes()
}

/// A loaded compound: id, file, record, the SHA-256 of the file's bytes, and the file's stamp
/// when it can be trusted.
type Loaded = (
    CompoundId,
    String,
    CompoundRecord,
    [u8; 32],
    Option<FileStamp>,
);

/// Loads every `*.json` entity of a folder in parallel: by id, each checked against its file
/// name, the bytes hashed into the dataset fingerprint in path order.
fn load_entities<T: for<'de> Deserialize<'de> + Send>(
    dir: &Path,
    id_of: fn(&T) -> &String,
    files: &mut BTreeMap<String, String>,
    hasher: &mut Sha256,
    problems: &mut Vec<Problem>,
) -> BTreeMap<String, T> {
    let parsed: Vec<(String, Vec<u8>, Result<T, Problem>)> = json_files(dir)
        .par_iter()
        .map(|path| {
            let file = path.display().to_string();
            let bytes = std::fs::read(path).unwrap_or_default();
            let entity = parse_json::<T>(&file, &bytes);
            let entity = entity.and_then(|e| {
                let stem = path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default();
                if id_of(&e) == stem {
                    Ok(e)
                } else {
                    Err(Problem::new(
                        &file,
                        "id",
                        format!("{} is stored in a file named {stem:?}", id_of(&e)),
                    ))
                }
            });
            (file, bytes, entity)
        })
        .collect();
    let mut out = BTreeMap::new();
    for (file, bytes, entity) in parsed {
        hasher.update(relative(&file, dir.parent().unwrap_or(dir)));
        hasher.update(&bytes);
        match entity {
            Ok(e) => {
                files.insert(id_of(&e).clone(), file);
                out.insert(id_of(&e).clone(), e);
            }
            Err(p) => problems.push(p),
        }
    }
    out
}

/// A curated entry that applies to a record: its file, the file, its index there, the entry.
type Overlay<'a> = (&'a str, &'a CuratedFile, usize, &'a CuratedEntry);
type Overlays<'a> = BTreeMap<&'a str, Vec<Overlay<'a>>>;

fn overlays_by_cas(curated: &[(String, CuratedFile)]) -> Overlays<'_> {
    let mut map: Overlays<'_> = BTreeMap::new();
    for (path, file) in curated {
        for (i, entry) in file.entries.iter().enumerate() {
            map.entry(entry.cas.as_str())
                .or_default()
                .push((path, file, i, entry));
        }
    }
    map
}

/// A cache to reuse records from, the current `records_key` and the data directory.
type Reuse<'a> = Option<(&'a dyn RecordCache, &'a Hash, &'a Path)>;

/// A compound file's record (or, when the file itself is unusable, what names it: its file
/// stem and the CAS it gives, so references to it are not reported again) and its problems.
type Read = (Result<Loaded, Unread>, Vec<Problem>);

/// The id (file stem) and the CAS a compound file that did not load would have served.
type Unread = Vec<String>;

/// A compound file's record: from `reuse` when the file is unchanged (its stamp, or else its
/// bytes' digest, is the one the earlier load recorded), else parsed with its overlays.
fn load_compound(
    path: &Path,
    overlays: &Overlays<'_>,
    rank: &(dyn Fn(&str) -> usize + Sync),
    reuse: Reuse<'_>,
    read_at: SystemTime,
) -> Read {
    let file = path.display().to_string();
    let names: Unread = path
        .file_stem()
        .and_then(|s| s.to_str())
        .map(str::to_string)
        .into_iter()
        .collect();
    // Taken before the bytes are read: a write after that gives the file another stamp.
    let stamp = std::fs::metadata(path)
        .ok()
        .and_then(|meta| FileStamp::of(&meta, read_at));
    let cached = reuse.and_then(|(cache, records_key, data_dir)| {
        let rel = path.strip_prefix(data_dir).ok().and_then(Path::to_str)?;
        Some((cache, records_key, rel))
    });
    if let Some((cache, _, rel)) = cached
        && let Some(stamp) = stamp
        && let Some(digest) = cache.digest(rel, &stamp)
        && let Some(record) = cached_record(cached, &digest)
    {
        let id = record.hq_id;
        return (Ok((id, file, record, digest, Some(stamp))), Vec::new());
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return (Err(names), vec![Problem::new(&file, "", e.to_string())]),
    };
    let digest: [u8; 32] = Sha256::digest(&bytes).into();
    if let Some(record) = cached_record(cached, &digest) {
        return (Ok((record.hq_id, file, record, digest, stamp)), Vec::new());
    }
    match parse_compound(bytes, &file, names, overlays, rank) {
        (Ok(record), problems) => (Ok((record.hq_id, file, record, digest, stamp)), problems),
        (Err(names), problems) => (Err(names), problems),
    }
}

/// Where a record may be reused from: the cache, the current `records_key` and the file's
/// path relative to the data directory.
type Cached<'a> = (&'a dyn RecordCache, &'a Hash, &'a str);

/// The cached record of a file whose bytes hashed to `digest`, when the cache holds one that
/// deserialises.
fn cached_record(cached: Option<Cached<'_>>, digest: &Hash) -> Option<CompoundRecord> {
    let (cache, records_key, rel) = cached?;
    serde_json::from_slice(cache.record(records_key, rel, digest)?).ok()
}

/// A compound file's bytes parsed, with the curated entries for its CAS merged over them and
/// its lifecycle and dates resolved; or, when the file is unusable, its id and CAS (`names`,
/// with the CAS added when the file gives one) and why.
fn parse_compound(
    bytes: Vec<u8>,
    file: &str,
    mut names: Unread,
    overlays: &Overlays<'_>,
    rank: &(dyn Fn(&str) -> usize + Sync),
) -> (Result<CompoundRecord, Unread>, Vec<Problem>) {
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let p = Problem::new(file, "", format!("not UTF-8: {e}"));
            return (Err(names), vec![p]);
        }
    };
    let stored: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            let p = Problem::new(file, "", format!("not valid JSON: {e}")).at_line(e.line());
            return (Err(names), vec![p]);
        }
    };
    let cas = stored
        .get("cas")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    names.push(cas.clone());
    let applying = overlays.get(cas.as_str()).map(Vec::as_slice).unwrap_or(&[]);
    let mut problems = Vec::new();
    let Some((value, mut record)) =
        with_overlays(&stored, &text, file, applying, rank, &mut problems)
    else {
        return (Err(names), problems);
    };
    // A curated value fills a gap the ingest recorded.
    record
        .data_gaps
        .retain(|g| !field_present(&value, &g.field));
    lifecycle::resolve(&mut record);
    dates::resolve(&mut record);
    (Ok(record), problems)
}

/// The stored record with the curated entries that apply merged over it, ordered and
/// deserialised, or `None` when the stored file itself does not deserialise; every problem met
/// is added to `problems`.
fn with_overlays(
    stored: &Value,
    text: &str,
    file: &str,
    applying: &[Overlay<'_>],
    rank: &(dyn Fn(&str) -> usize + Sync),
    problems: &mut Vec<Problem>,
) -> Option<(Value, CompoundRecord)> {
    // An entry that does not fit is reported against the curated file and line the person
    // edited, and the record is loaded without it: the compound stays in the corpus, so
    // nothing that names it fails as well (data/README.md "What `check` enforces").
    let mut left_out = vec![false; applying.len()];
    loop {
        let mut value = stored.clone();
        let mut failed = None;
        for (i, (curated_path, curated, index, entry)) in applying.iter().enumerate() {
            if left_out[i] {
                continue;
            }
            if let Err(m) = apply_overlay(&mut value, curated, entry, rank) {
                failed = Some((
                    i,
                    Problem::new(*curated_path, format!("entries[{index}]"), m),
                ));
                break;
            }
        }
        if let Some((i, p)) = failed {
            problems.push(p);
            left_out[i] = true;
            continue;
        }
        // Ingested files are already in order; only overlays add out of place. (Ordering a
        // file without overlays would make problem paths point at the wrong element.)
        if left_out.iter().any(|l| !l) {
            order_by_source(&mut value, &|s: &str| rank(s));
        }
        match deserialize(&value) {
            Ok(record) => return Some((value, record)),
            Err((at, message)) => {
                let culprit = applying
                    .iter()
                    .enumerate()
                    .find(|(i, (.., entry))| !left_out[*i] && holds(&entry.set, &at));
                let Some((i, (curated_path, _, index, entry))) = culprit else {
                    let line = locate(text, None, &at);
                    problems.push(Problem::new(file, at, message).at_line(line));
                    return None;
                };
                let line = std::fs::read_to_string(curated_path)
                    .ok()
                    .and_then(|t| locate(&t, Some(entry.cas.as_str()), &format!("set.{at}")));
                problems.push(
                    Problem::new(*curated_path, format!("entries[{index}].set.{at}"), message)
                        .at_line(line),
                );
                left_out[i] = true;
            }
        }
    }
}

/// The keys of a `serde_path_to_error` path (`regulatory.classifications[3].agency` ->
/// `regulatory`, `classifications`, `agency`): array positions are left out, since a merged
/// array's positions are not the overlay's.
fn keys(path: &str) -> impl Iterator<Item = &str> + Clone {
    path.split(['.', '['])
        .filter(|k| !k.is_empty() && !k.ends_with(']'))
}

/// Whether a curated `set` gives the value at `path` of the merged record (inside an array,
/// any of the set's elements).
fn holds(set: &Value, path: &str) -> bool {
    fn walk<'a>(v: &Value, mut keys: impl Iterator<Item = &'a str> + Clone) -> bool {
        match v {
            Value::Array(items) => items.iter().any(|item| walk(item, keys.clone())),
            Value::Object(map) => match keys.next() {
                Some(k) => map.get(k).is_some_and(|child| walk(child, keys)),
                None => true,
            },
            _ => keys.next().is_none(),
        }
    }
    !path.is_empty() && walk(set, keys(path))
}

/// The line of `path` in a JSON file's text, found by reading forward key by key (after the
/// entry naming `cas`, for a curated file): the first line that holds the last key, or the
/// nearest one found before it.
fn locate(text: &str, cas: Option<&str>, path: &str) -> Option<usize> {
    let mut at = match cas {
        Some(cas) => text.find(&format!("\"cas\": \"{cas}\""))?,
        None => 0,
    };
    for key in keys(path) {
        match text[at..].find(&format!("\"{key}\"")) {
            Some(i) => at += i,
            None => break,
        }
    }
    Some(text[..at].matches('\n').count() + 1)
}

/// Whether the dotted field path (`identity.smiles`) holds a value in the tree.
fn field_present(value: &Value, field: &str) -> bool {
    value
        .pointer(&format!("/{}", field.replace('.', "/")))
        .is_some_and(|v| !v.is_null())
}

/// Lays a curated entry over the record and adds the sources it cites.
fn apply_overlay(
    value: &mut Value,
    curated: &CuratedFile,
    entry: &CuratedEntry,
    rank: &(dyn Fn(&str) -> usize + Sync),
) -> Result<(), String> {
    if !entry.set.is_object() {
        return Err("`set` must be an object (a partial record)".into());
    }
    merge(value, entry.set.clone(), &|s: &str| rank(s));
    let mut cited = referenced_sources(&entry.set);
    for ended in &entry.ended {
        end_values(value, ended)?;
        cited.insert(ended.by.clone());
    }
    for stated in &entry.stated_routes {
        state_route(value, stated)?;
        cited.insert(stated.by.clone());
    }
    let sources = value
        .get_mut("sources")
        .and_then(Value::as_array_mut)
        .ok_or("the record has no sources[] array")?;
    for id in cited {
        let Some(source) = curated.sources.iter().find(|s| s.id == id) else {
            return Err(format!(
                "cites source {id:?}, which the file's sources[] does not define"
            ));
        };
        let json = serde_json::to_value(source).map_err(|e| e.to_string())?;
        if !sources
            .iter()
            .any(|s| s.get("id").and_then(Value::as_str) == Some(&id))
        {
            sources.push(json);
        }
    }
    Ok(())
}

/// Marks the values an instrument ended (`CuratedEntry::ended`).
fn end_values(value: &mut Value, ended: &Ended) -> Result<(), String> {
    let (pointer, kind) = match (ended.field.as_str(), ended.kind) {
        ("safety.ghs", None) => ("/safety/ghs", None),
        ("dose_response", Some(kind)) => (
            "/dose_response",
            Some(serde_json::to_value(kind).map_err(|e| e.to_string())?),
        ),
        ("dose_response", None) => return Err("ended: dose_response needs a `kind`".into()),
        ("safety.ghs", Some(_)) => return Err("ended: `kind` is only for dose_response".into()),
        (field, _) => {
            return Err(format!(
                "ended: field {field:?} is not supported (only safety.ghs and dose_response)"
            ));
        }
    };
    let entries = value
        .pointer_mut(pointer)
        .and_then(Value::as_array_mut)
        .ok_or_else(|| format!("ended: the record has no {} entries", ended.field))?;
    let status = serde_json::to_value(ended.status).map_err(|e| e.to_string())?;
    let mut found = false;
    for g in entries.iter_mut().filter_map(Value::as_object_mut) {
        let of_source = g.get("source").and_then(Value::as_str) == Some(ended.source.as_str());
        let of_kind = kind.as_ref().is_none_or(|k| g.get("kind") == Some(k));
        if of_source && of_kind {
            g.insert("status".into(), status.clone());
            g.insert("superseded_by".into(), Value::String(ended.by.clone()));
            if let Some(until) = &ended.effective_until {
                g.insert("effective_until".into(), Value::String(until.clone()));
            }
            found = true;
        }
    }
    if found {
        Ok(())
    } else {
        Err(format!(
            "ended: the record has no {} entry of source {:?}{}",
            ended.field,
            ended.source,
            ended
                .kind
                .map(|k| format!(" and kind {k:?}"))
                .unwrap_or_default()
        ))
    }
}

/// Adds the route a curated document states (`CuratedEntry::stated_routes`) to each GHS entry
/// of the named source that gives the code without stating a route for it.
fn state_route(value: &mut Value, stated: &RouteStatement) -> Result<(), String> {
    let route = serde_json::to_value(StatedRoute {
        code: stated.code.clone(),
        routes: stated.routes.clone(),
        words: stated.words.clone(),
        source: Some(stated.by.clone()),
    })
    .map_err(|e| e.to_string())?;
    let entries = value
        .pointer_mut("/safety/ghs")
        .and_then(Value::as_array_mut)
        .ok_or("stated_routes: the record has no safety.ghs entries")?;
    let mut found = false;
    for g in entries.iter_mut().filter_map(Value::as_object_mut) {
        let of_source = g.get("source").and_then(Value::as_str) == Some(stated.source.as_str());
        let gives = g
            .get("h_codes")
            .and_then(Value::as_array)
            .is_some_and(|codes| codes.iter().any(|c| c.as_str() == Some(&stated.code)));
        if !(of_source && gives) {
            continue;
        }
        let routes = g
            .entry("routes")
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .ok_or("stated_routes: the entry's routes are not a list")?;
        if routes
            .iter()
            .any(|r| r.get("code").and_then(Value::as_str) == Some(&stated.code))
        {
            return Err(format!(
                "stated_routes: the {} entry already states a route for {}",
                stated.source, stated.code
            ));
        }
        routes.push(route.clone());
        found = true;
    }
    if found {
        Ok(())
    } else {
        Err(format!(
            "stated_routes: the record has no safety.ghs entry of source {:?} giving {}",
            stated.source, stated.code
        ))
    }
}

/// Deserializes a record, reporting the JSON path of the first field that does not fit.
pub fn deserialize(value: &Value) -> Result<CompoundRecord, (String, String)> {
    let text = value.to_string();
    let de = &mut serde_json::Deserializer::from_str(&text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        // The position refers to re-serialized text, not the file: the path says where.
        let message = e.inner().to_string();
        let message = match message.find(" at line ") {
            Some(i) => message[..i].to_string(),
            None => message,
        };
        (if path == "." { String::new() } else { path }, message)
    })
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, Problem> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| Problem::new(&file, "", e.to_string()))?;
    parse_json(&file, &bytes)
}

/// Deserializes JSON bytes, reporting the JSON path of the first field that does not fit.
pub(crate) fn parse_json<T: for<'de> Deserialize<'de>>(
    file: &str,
    bytes: &[u8],
) -> Result<T, Problem> {
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let p = e.path().to_string();
        Problem::new(
            file,
            if p == "." { String::new() } else { p },
            e.inner().to_string(),
        )
    })
}

/// `*.json` files directly in `dir`, sorted (so problem order and fingerprints are stable).
pub(crate) fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .max_depth(1)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::record::Lifecycle;
    use crate::model::vocab::DoseKind;
    use serde_json::json;

    fn ended(field: &str, kind: Option<DoseKind>) -> Ended {
        Ended {
            field: field.into(),
            source: "efsa-openfoodtox-2023".into(),
            kind,
            status: Lifecycle::Superseded,
            by: "efsa-2024-iron-ul".into(),
            effective_until: None,
        }
    }

    /// Iron as OpenFoodTox gives it: an ADI and a UL of the same source.
    fn iron() -> Value {
        json!({"dose_response": [
            {"kind": "adi", "value": 0.8, "source": "efsa-openfoodtox-2023"},
            {"kind": "ul", "value": 45.0, "source": "efsa-openfoodtox-2023"},
        ]})
    }

    #[test]
    fn an_opinion_ends_only_the_dose_values_of_its_kind() {
        let mut v = iron();
        end_values(&mut v, &ended("dose_response", Some(DoseKind::Ul))).unwrap();
        assert_eq!(v["dose_response"][1]["status"], "superseded");
        assert_eq!(v["dose_response"][1]["superseded_by"], "efsa-2024-iron-ul");
        assert!(v["dose_response"][0].get("status").is_none());
    }

    #[test]
    fn ending_dose_values_needs_a_kind_that_the_record_has() {
        let mut v = iron();
        let e = end_values(&mut v, &ended("dose_response", None)).unwrap_err();
        assert!(e.contains("needs a `kind`"), "{e}");
        let e = end_values(&mut v, &ended("dose_response", Some(DoseKind::Arfd))).unwrap_err();
        assert!(e.contains("no dose_response entry"), "{e}");
        let e = end_values(&mut v, &ended("safety.ghs", Some(DoseKind::Ul))).unwrap_err();
        assert!(e.contains("only for dose_response"), "{e}");
        assert_eq!(v, iron());
    }

    fn lungs_if_inhaled() -> RouteStatement {
        RouteStatement {
            source: "eu-clp-atp17".into(),
            code: "H372".into(),
            routes: vec![crate::model::vocab::ExposureRoute::Inhalation],
            words: "Causes damage to the lungs through prolonged or repeated exposure if inhaled"
                .into(),
            by: "ilo-icsc-0014".into(),
        }
    }

    /// Chrysotile as the ATP17 table gives it, beside a Safe Work Australia entry.
    fn chrysotile() -> Value {
        json!({"safety": {"ghs": [
            {"jurisdiction": "EU", "h_codes": ["H350", "H372"], "source": "eu-clp-atp17"},
            {"jurisdiction": "AU", "h_codes": ["H350", "H372"], "source": "swa-hcis-2021"},
        ]}})
    }

    #[test]
    fn a_stated_route_reaches_only_the_entries_of_its_source_that_give_the_code() {
        let mut v = chrysotile();
        state_route(&mut v, &lungs_if_inhaled()).unwrap();
        assert_eq!(
            v["safety"]["ghs"][0]["routes"],
            json!([{"code": "H372", "routes": ["inhalation"],
                "words": "Causes damage to the lungs through prolonged or repeated exposure if inhaled",
                "source": "ilo-icsc-0014"}])
        );
        assert!(v["safety"]["ghs"][1].get("routes").is_none());
    }

    #[test]
    fn a_stated_route_needs_an_entry_giving_the_code_without_a_route_of_its_own() {
        let mut v = chrysotile();
        let other_code = RouteStatement {
            code: "H373".into(),
            ..lungs_if_inhaled()
        };
        let e = state_route(&mut v, &other_code).unwrap_err();
        assert!(e.contains("no safety.ghs entry"), "{e}");
        state_route(&mut v, &lungs_if_inhaled()).unwrap();
        let e = state_route(&mut v, &lungs_if_inhaled()).unwrap_err();
        assert!(e.contains("already states a route"), "{e}");
    }
}
