//! The loaded dataset (`Dataset`), immutable once loaded and shared read-only by the build and
//! the runtime, and the small files it carries beside the records (agencies, curation files).

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::aliases::Alias;
use crate::model::catalog::Catalog;
use crate::model::documents::MarkdownFile;
use crate::model::ids::{CompoundId, IdRegistry};
use crate::model::material::{Material, Product};
use crate::model::record::{CompoundRecord, SourceRef};

/// An agency of record and the attribution strings that name it (`data/agencies.json`).
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Agency {
    pub id: String,
    pub name: String,
    pub full_name: String,
    pub jurisdiction: String,
    pub url: String,
    pub attributions: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgencyFile {
    pub agencies: Vec<Agency>,
}

/// A curation file in `data/curated/`: cited facts laid over ingested records.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CuratedFile {
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub sources: Vec<SourceRef>,
    pub entries: Vec<CuratedEntry>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CuratedEntry {
    pub cas: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub set: Value,
    /// Values of the record that an instrument ended (a court annulled a classification):
    /// marked with their status rather than removed, so they stay visible as history.
    #[serde(default)]
    pub ended: Vec<Ended>,
    /// Routes of exposure a cited document states for a class that the record's GHS entries
    /// of another source give without one: added to those entries, naming the document.
    #[serde(default)]
    pub stated_routes: Vec<RouteStatement>,
}

/// "The `safety.ghs` entries of source S give code C without a route; document B states it
/// for routes R in these words" (asbestos's STOT RE 1: Annex VI writes "H372 **", a route
/// its translation from Directive 67/548/EEC could not keep; data/README.md "Routes stated
/// beside a class").
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteStatement {
    /// The source whose GHS entries give the code.
    pub source: String,
    pub code: String,
    pub routes: Vec<crate::model::vocab::ExposureRoute>,
    /// The document's own words.
    pub words: String,
    /// The source (of the curated file) that states the route.
    pub by: String,
}

/// "The `safety.ghs` entries of source S are `annulled` by source B", or "the `dose_response`
/// values of kind K from source S are `superseded` by source B" (an opinion that replaced a
/// value the table still carries with no value of the same kind: EFSA's 2024 iron opinion).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ended {
    /// The record section: `safety.ghs` or `dose_response`.
    pub field: String,
    /// The source whose values in that section ended.
    pub source: String,
    /// For `dose_response`, the kind of value that ended (required there, refused elsewhere).
    #[serde(default)]
    pub kind: Option<crate::model::vocab::DoseKind>,
    pub status: crate::model::record::Lifecycle,
    /// The source (of the curated file) that ended them.
    pub by: String,
    /// The day the values stopped being in force (a judgment annulling a regulation takes
    /// effect once the appeals against it are dismissed: data/README.md "Dates").
    #[serde(default)]
    pub effective_until: Option<String>,
}

pub type Hash = [u8; 32];

/// The loaded dataset. Immutable once built; shared read-only by the generator and runtime.
#[derive(Debug, Default)]
pub struct Dataset {
    /// Records by `hq_id`, overlays applied.
    pub compounds: BTreeMap<CompoundId, CompoundRecord>,
    /// Where each compound record was read from (for problem reports).
    pub files: BTreeMap<CompoundId, String>,
    /// Where each material and product was read from, by its id.
    pub entity_files: BTreeMap<String, String>,
    /// The ids (file stems) and CAS numbers of compound files that did not load: their
    /// problem is reported once, against the file, and a reference to them is not a second
    /// problem.
    pub unread: std::collections::BTreeSet<String>,
    pub ids: IdRegistry,
    pub agencies: Vec<Agency>,
    pub catalog: Option<Catalog>,
    /// Curation files by path, for validation.
    pub curated: Vec<(String, CuratedFile)>,
    /// Content fingerprint of the loaded files (first 12 hex digits of a SHA-256 over each
    /// compound and curation file in path order): changes whenever the data changes.
    pub fingerprint: String,
    /// The directory the dataset was loaded from.
    pub dir: PathBuf,
    pub contexts: crate::model::contexts::Contexts,
    /// `aliases.json`: search abbreviations; none when the file is absent.
    pub aliases: Vec<Alias>,
    /// Materials by id, and the file each came from.
    pub materials: BTreeMap<String, Material>,
    /// Products by id.
    pub products: BTreeMap<String, Product>,
    /// `materials/index.tsv`: the material id registry (id -> slug); ids are never reused.
    pub material_index: BTreeMap<String, String>,
    /// `retired.tsv`: the material and product ids taken out of service, each forwarded to
    /// its replacement.
    pub retired: crate::model::retired::Retired,
    /// `documents/*.md` by name (disclaimer, terms, privacy).
    pub documents: BTreeMap<String, MarkdownFile>,
    /// `release-notes/*.md`, newest first. Not in the fingerprint, like the changelog:
    /// `saferef-generate diff` writes them from the release they describe.
    pub release_notes: Vec<MarkdownFile>,
    /// minijinja templates by file name, from `templates/` beside `data/` when it exists.
    pub templates: BTreeMap<String, String>,
    /// `fragrance/`: fragrance ingredients and their classes (issue 11).
    pub fragrance: crate::model::fragrance::Fragrance,
    /// `curated/group-rows.tsv`: table rows naming a group or a qualified agent, placed.
    pub group_rows: crate::model::group_rows::GroupRows,
    /// `regulatory-status/`: limits per analyte, matrix and jurisdiction over time.
    pub regulatory_status: crate::model::regulatory_status::RegulatoryStatus,
    /// `changelog.jsonl`: the entries `saferef-generate diff` wrote, in file order (empty
    /// when the file is absent). Not in the fingerprint: it describes the data, and a diff
    /// names its release after the fingerprint of the data it describes.
    pub changelog: Vec<crate::model::changelog::Entry>,
    /// The public origin the site is published under (`saferef-generate build --site-origin`,
    /// e.g. `https://saferef.example`, no trailing slash), kept in the release's snapshot:
    /// canonical links, the sitemap, robots.txt and the OpenAPI `servers` name it. `None`
    /// (a preview, a local build): those addresses are root-relative.
    pub site_origin: Option<String>,
    /// SHA-256 of each compound's file, by id.
    pub digests: BTreeMap<CompoundId, Hash>,
    /// Each compound file's stamp when it was read, by id, where it can be trusted
    /// (`FileStamp::of`): the build keeps it beside the digest, so the next load need not
    /// read the file while its stamp is the same.
    pub stamps: BTreeMap<CompoundId, crate::model::file_stamp::FileStamp>,
    /// SHA-256 over what shapes every record beside its own file (`sources.json`, whose ranks
    /// order merged values, and the curated overlays): a record parsed from the same file
    /// bytes under the same key is the same record.
    pub records_key: Hash,
    /// SHA-256 over what `validate` checks a record against beside the record itself
    /// (`ids.tsv`, `agencies.json`, which compound is in which file): an unchanged record
    /// checked clean under the same key is still clean.
    pub checks_key: Hash,
    /// Where each compound is found through the materials and products (`exposure::derived`),
    /// worked out at its first use.
    pub derived_found_in: std::sync::OnceLock<crate::model::exposure::DerivedFoundIn>,
}

impl Dataset {
    /// The dataset's release time: the newest review date of any record, at midnight UTC.
    /// Derived from the data, so the responses that report it stay deterministic.
    pub fn release_date(&self) -> String {
        let newest = self
            .compounds
            .values()
            .map(|r| r.meta.last_reviewed.as_str())
            .chain(
                self.materials
                    .values()
                    .map(|m| m.meta.last_reviewed.as_str()),
            )
            .chain(
                self.products
                    .values()
                    .map(|p| p.meta.last_reviewed.as_str()),
            )
            .max()
            .unwrap_or("1970-01-01");
        format!("{newest}T00:00:00Z")
    }

    /// The file compound `id` was read from, for a problem report: its id when it has none
    /// (a dataset built in a test).
    pub fn file_of(&self, id: &CompoundId) -> std::borrow::Cow<'_, str> {
        self.files
            .get(id)
            .map_or_else(|| id.to_string().into(), |f| f.as_str().into())
    }

    /// The record of an id that arrives as text (a URL, a query, a curated file): a text
    /// that is not a well-formed id names no record.
    pub fn compound(&self, id: &str) -> Option<&CompoundRecord> {
        self.compounds.get(&CompoundId::parse(id)?)
    }

    pub fn by_cas(&self, cas: &str) -> Option<&CompoundRecord> {
        let cas = crate::model::cas::Cas::parse(cas).ok()?;
        self.compounds.get(self.ids.get(&cas)?)
    }
}
