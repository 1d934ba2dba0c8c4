//! Paginated lists of the keyed endpoints: compounds (SPEC 4.2 `GET /api/compounds`),
//! materials and products (SPEC 4.3) and the compound filter (DESIGN.md `/api/filter`).
//!
//! Tiers come from a `RiskIndex` built once per dataset: assessing all compounds (and
//! synthesising all products) on every request would make each list cost as much as a build.
//!
//! Vocabularies (case-insensitive):
//! - `risk`: low, moderate, high, very_high, critical (the tier in `context`, default
//!   `human_adult`; aliases resolve).
//! - `hazard`: a hazard class of `HAZARD_CLASSES` (read from the record's hazard signals: GHS
//!   codes, IARC/NTP/Prop 65/SVHC listings, agency positions, environmental fate), a GHS
//!   hazard statement code (`h350` = `H350`, which also matches `H350i`; `H360` matches every
//!   H360 form; effect letters keep their case, since it carries the category: `H360Fd` is
//!   not `H360FD`), or a use class of `vocab::USE_CLASSES` (SPEC 4.2's examples herbicide,
//!   plasticizer, flame_retardant).
//! - `type_filter` and filter `type`: a use class, matched against the compound's `type`.
//! - `functional_use`: a use class, matched against `type` and every `use_classes[]` entry.
//! - `category_filter`: a category of `vocab::CATEGORIES` (matched against `category`), or a
//!   use class (SPEC 4.2's examples food_additive, dietary_supplement; matched like
//!   `functional_use`).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::RangeInclusive;

use rayon::prelude::*;
use serde::Serialize;

use super::{Cache, Rendered};
use crate::aggregate;
use crate::aggregate::signals::{self, Hazard};
use crate::aggregate::synthesis::{self, ProductRisk};
use crate::cas::{Cas, CasError};
use crate::load::Dataset;
use crate::model::material::{Material, Product};
use crate::model::record::CompoundRecord;
use crate::model::vocab::{self, RiskLevel, WatchClass};

/// The named hazard classes `hazard` accepts and the signals each stands for.
pub const HAZARD_CLASSES: &[(&str, &[Hazard])] = &[
    ("acute_dermal", &[Hazard::AcuteDermal]),
    ("acute_inhalation", &[Hazard::AcuteInhalation]),
    ("acute_oral", &[Hazard::AcuteOral]),
    (
        "acute_toxicity",
        &[
            Hazard::AcuteOral,
            Hazard::AcuteDermal,
            Hazard::AcuteInhalation,
        ],
    ),
    ("aquatic_acute", &[Hazard::AquaticAcute]),
    ("aquatic_chronic", &[Hazard::AquaticChronic]),
    (
        "aquatic_toxicity",
        &[Hazard::AquaticAcute, Hazard::AquaticChronic],
    ),
    ("aspiration", &[Hazard::Aspiration]),
    (
        "carcinogen",
        &[Hazard::Carcinogen, Hazard::CarcinogenInhalation],
    ),
    ("climate_forcing", &[Hazard::ClimateForcing]),
    ("corrosive", &[Hazard::Corrosive]),
    ("developmental", &[Hazard::Developmental]),
    (
        "endocrine_disruptor",
        &[Hazard::EndocrineHuman, Hazard::EndocrineEnvironment],
    ),
    ("endocrine_environment", &[Hazard::EndocrineEnvironment]),
    ("endocrine_human", &[Hazard::EndocrineHuman]),
    ("eye_damage", &[Hazard::EyeDamage]),
    ("eye_irritant", &[Hazard::EyeIrritant]),
    ("lactation", &[Hazard::Lactation]),
    ("mutagen", &[Hazard::Mutagen]),
    ("narcotic", &[Hazard::Narcotic]),
    ("organ_repeated", &[Hazard::OrganRepeated]),
    ("organ_single", &[Hazard::OrganSingle]),
    ("ozone_depleting", &[Hazard::OzoneDepleting]),
    (
        "persistent_bioaccumulative",
        &[Hazard::PersistentBioaccumulative],
    ),
    (
        "reproductive",
        &[Hazard::Reproductive, Hazard::Developmental],
    ),
    ("respiratory_irritation", &[Hazard::RespiratoryIrritation]),
    ("respiratory_sensitiser", &[Hazard::RespiratorySensitiser]),
    ("skin_irritant", &[Hazard::SkinIrritant]),
    ("skin_sensitiser", &[Hazard::SkinSensitiser]),
];

/// Default and largest page size of the lists (SPEC 4.2).
const DEFAULT_LIMIT: usize = 20;
const MAX_LIMIT: usize = 100;
/// Longest accepted `search` text, in characters.
const MAX_SEARCH: usize = 200;

/// What the index knows of one compound.
#[derive(Debug, Clone)]
struct Entry {
    tiers: BTreeMap<&'static str, RiskLevel>,
    /// Hazards of at least suspected strength (an evaluated "not classifiable" is none).
    hazards: Vec<Hazard>,
    /// Lowercased name, CAS and synonyms, for `search`.
    terms: Vec<String>,
}

impl Entry {
    fn of(record: &CompoundRecord) -> Entry {
        let tiers = aggregate::assess(record)
            .contexts
            .iter()
            .map(|c| (c.context, c.risk_level))
            .collect();
        let mut hazards: Vec<Hazard> = signals::signals(record)
            .into_iter()
            .filter(|s| s.strength >= 1)
            .map(|s| s.hazard)
            .collect();
        hazards.sort_unstable();
        hazards.dedup();
        let terms = [&record.name, &record.cas]
            .into_iter()
            .chain(&record.identity.synonyms)
            .map(|t| t.to_lowercase())
            .collect();
        Entry {
            tiers,
            hazards,
            terms,
        }
    }
}

/// Per compound its tier in every available context (with its hazards and search terms),
/// and per product its synthesised risk: built once from a dataset, read by every list.
#[derive(Debug, Default)]
pub struct RiskIndex {
    compounds: HashMap<String, Entry>,
    products: HashMap<String, Option<ProductRisk>>,
}

impl RiskIndex {
    pub fn build(dataset: &Dataset) -> RiskIndex {
        let compounds = dataset
            .compounds
            .par_iter()
            .map(|(id, r)| (id.clone(), Entry::of(r)))
            .collect();
        let products = dataset
            .products
            .par_iter()
            .map(|(id, p)| (id.clone(), synthesis::synthesize(dataset, p).0.risk_level))
            .collect();
        RiskIndex {
            compounds,
            products,
        }
    }

    /// The compound's entry; one the index lacks (an index of another dataset) is computed,
    /// so a stale index is slow rather than wrong.
    fn entry(&self, record: &CompoundRecord) -> Cow<'_, Entry> {
        match self.compounds.get(&record.hq_id) {
            Some(e) => Cow::Borrowed(e),
            None => Cow::Owned(Entry::of(record)),
        }
    }

    fn product_risk(&self, dataset: &Dataset, product: &Product) -> Option<ProductRisk> {
        match self.products.get(&product.id) {
            Some(r) => *r,
            None => synthesis::synthesize(dataset, product).0.risk_level,
        }
    }
}

/// A query value echoed in an error: debug-quoted and cut, so a hostile value cannot make
/// the error body large.
pub(crate) fn quoted(value: &str) -> String {
    const MAX: usize = 64;
    if value.chars().count() <= MAX {
        format!("{value:?}")
    } else {
        let cut: String = value.chars().take(MAX).collect();
        format!("{cut:?}...")
    }
}

/// A whole-number query parameter in `range`, `default` when absent.
pub(crate) fn number_param(
    name: &str,
    raw: Option<&str>,
    default: usize,
    range: RangeInclusive<usize>,
) -> Result<usize, Rendered> {
    let Some(raw) = raw else {
        return Ok(default);
    };
    match raw.parse::<usize>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ if *range.end() == usize::MAX => Err(Rendered::error(
            400,
            format!(
                "{name} must be a whole number of at least {}, not {}",
                range.start(),
                quoted(raw)
            ),
        )),
        _ => Err(Rendered::error(
            400,
            format!(
                "{name} must be a whole number from {} to {}, not {}",
                range.start(),
                range.end(),
                quoted(raw)
            ),
        )),
    }
}

/// Which page of a list.
#[derive(Clone, Copy)]
struct Paging {
    page: usize,
    limit: usize,
}

#[derive(Serialize)]
struct Pagination {
    page: usize,
    limit: usize,
    total: usize,
    total_pages: usize,
}

impl Paging {
    fn parse(page: Option<&str>, limit: Option<&str>) -> Result<Paging, Rendered> {
        Ok(Paging {
            page: number_param("page", page, 1, 1..=usize::MAX)?,
            limit: number_param("limit", limit, DEFAULT_LIMIT, 1..=MAX_LIMIT)?,
        })
    }

    /// The page's items; a page past the end is empty, not an error.
    fn slice<T>(self, items: &[T]) -> (&[T], Pagination) {
        let start = (self.page - 1).saturating_mul(self.limit).min(items.len());
        let end = start.saturating_add(self.limit).min(items.len());
        let pagination = Pagination {
            page: self.page,
            limit: self.limit,
            total: items.len(),
            total_pages: items.len().div_ceil(self.limit),
        };
        (&items[start..end], pagination)
    }
}

/// `search`: at least 2 characters once trimmed, lowercased for substring matching.
fn search_param(raw: Option<&str>) -> Result<Option<String>, Rendered> {
    let Some(raw) = raw else {
        return Ok(None);
    };
    let text = raw.trim();
    let chars = text.chars().count();
    if !(2..=MAX_SEARCH).contains(&chars) {
        return Err(Rendered::error(
            400,
            format!(
                "search must be 2 to {MAX_SEARCH} characters, not {}",
                quoted(raw)
            ),
        ));
    }
    Ok(Some(text.to_lowercase()))
}

fn contains_text<'a>(mut fields: impl Iterator<Item = &'a String>, needle: &str) -> bool {
    fields.any(|f| f.to_lowercase().contains(needle))
}

/// A value of a fixed vocabulary, case-insensitive, or the 400 naming the valid values.
fn vocab_param(
    name: &str,
    raw: &str,
    valid: &'static [&'static str],
) -> Result<&'static str, Rendered> {
    valid
        .iter()
        .find(|v| v.eq_ignore_ascii_case(raw))
        .copied()
        .ok_or_else(|| {
            Rendered::error(
                400,
                format!(
                    "unknown {name} {}; valid values: {}",
                    quoted(raw),
                    valid.join(", ")
                ),
            )
        })
}

fn risk_param(raw: &str) -> Result<RiskLevel, Rendered> {
    RiskLevel::ALL
        .into_iter()
        .find(|r| r.as_str().eq_ignore_ascii_case(raw))
        .ok_or_else(|| {
            Rendered::error(
                400,
                format!(
                    "unknown risk {}; valid values: {}",
                    quoted(raw),
                    RiskLevel::ALL.map(RiskLevel::as_str).join(", ")
                ),
            )
        })
}

/// The context `risk` is read in: the requested one (aliases resolve) or the default.
fn context_param(dataset: &Dataset, raw: Option<&str>) -> Result<String, Rendered> {
    match raw {
        None => Ok(dataset.contexts.default.clone()),
        Some(c) => dataset
            .contexts
            .resolve(c)
            .map(|c| c.name.clone())
            .map_err(|e| Rendered::error(400, e.to_string())),
    }
}

fn cas_param(raw: &str) -> Result<String, Rendered> {
    match Cas::parse(raw) {
        Ok(c) => Ok(c.as_str().to_string()),
        Err(e @ CasError::CheckDigit { .. }) => {
            Err(Rendered::error(400, format!("malformed CAS number: {e}")))
        }
        Err(CasError::Shape(_)) => Err(Rendered::error(
            400,
            format!(
                "malformed CAS number {}: expected digits-dd-d, e.g. 80-05-7",
                quoted(raw)
            ),
        )),
    }
}

/// What `hazard` asks for.
enum HazardQuery {
    Class(&'static str, &'static [Hazard]),
    /// A hazard statement code, its prefix upper case (`H360Fd` keeps its effect letters).
    Code(String),
    Use(&'static str),
}

impl HazardQuery {
    fn parse(raw: &str) -> Result<HazardQuery, Rendered> {
        if let Some((name, hazards)) = HAZARD_CLASSES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(raw))
        {
            return Ok(HazardQuery::Class(name, hazards));
        }
        let code = h_code(raw);
        if vocab::is_h_code(&code) {
            return Ok(HazardQuery::Code(code));
        }
        if let Some(class) = vocab::USE_CLASSES
            .iter()
            .find(|c| c.eq_ignore_ascii_case(raw))
        {
            return Ok(HazardQuery::Use(class));
        }
        let classes: Vec<&str> = HAZARD_CLASSES.iter().map(|(n, _)| *n).collect();
        Err(Rendered::error(
            400,
            format!(
                "unknown hazard {}; valid values: a hazard class ({}), a GHS hazard statement code (e.g. H350, H360FD, EUH059) or a use class ({})",
                quoted(raw),
                classes.join(", "),
                vocab::USE_CLASSES.join(", ")
            ),
        ))
    }

    /// The value as applied.
    fn name(&self) -> &str {
        match self {
            HazardQuery::Class(name, _) | HazardQuery::Use(name) => name,
            HazardQuery::Code(code) => code,
        }
    }

    fn matches(&self, record: &CompoundRecord, entry: &Entry) -> bool {
        match self {
            HazardQuery::Class(_, hazards) => hazards.iter().any(|h| entry.hazards.contains(h)),
            HazardQuery::Code(code) => record
                .safety
                .ghs
                .iter()
                .flat_map(|g| &g.h_codes)
                .any(|c| code_matches(code, c)),
            HazardQuery::Use(class) => has_use(record, class),
        }
    }
}

/// `h360fd` -> `H360fd`: the statement prefix and digits upper case, effect letters as given.
fn h_code(raw: &str) -> String {
    let end = raw.find(|c: char| c.is_ascii_digit()).map(|i| i + 3);
    match end.and_then(|e| Some((raw.get(..e)?, raw.get(e..)?))) {
        Some((head, tail)) => format!("{}{tail}", head.to_ascii_uppercase()),
        None => raw.to_string(),
    }
}

/// A bare code (`H350`, `H360`) matches its lettered forms (`H350i`, `H360FD`); a lettered
/// code matches exactly, since the letters' case carries the category.
fn code_matches(query: &str, code: &str) -> bool {
    let bare = query.bytes().last().is_some_and(|b| b.is_ascii_digit());
    code == query
        || (bare
            && code
                .strip_prefix(query)
                .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_alphabetic())))
}

fn has_use(record: &CompoundRecord, class: &str) -> bool {
    record.kind.as_deref() == Some(class) || record.use_classes.iter().any(|u| u.class == class)
}

/// What `category_filter` asks for.
#[derive(Clone, Copy)]
enum CategoryQuery {
    Category(&'static str),
    Use(&'static str),
}

impl CategoryQuery {
    fn parse(raw: &str) -> Result<CategoryQuery, Rendered> {
        if let Some(c) = vocab::CATEGORIES
            .iter()
            .find(|c| c.eq_ignore_ascii_case(raw))
        {
            return Ok(CategoryQuery::Category(c));
        }
        if let Some(c) = vocab::USE_CLASSES
            .iter()
            .find(|c| c.eq_ignore_ascii_case(raw))
        {
            return Ok(CategoryQuery::Use(c));
        }
        Err(Rendered::error(
            400,
            format!(
                "unknown category_filter {}; valid values: a category ({}) or a use class ({})",
                quoted(raw),
                vocab::CATEGORIES.join(", "),
                vocab::USE_CLASSES.join(", ")
            ),
        ))
    }

    fn matches(self, record: &CompoundRecord) -> bool {
        match self {
            CategoryQuery::Category(c) => record.category.as_deref() == Some(c),
            CategoryQuery::Use(c) => has_use(record, c),
        }
    }
}

/// The classification filters of `/api/filter`: one classification must satisfy all.
struct ClassificationQuery {
    agency: Option<String>,
    /// Classification years; an open end is `i32::MIN` or `i32::MAX`.
    years: Option<RangeInclusive<i32>>,
}

impl ClassificationQuery {
    fn matches(&self, record: &CompoundRecord) -> bool {
        record.regulatory.classifications.iter().any(|c| {
            self.agency.as_ref().is_none_or(|a| *a == c.agency)
                && self
                    .years
                    .as_ref()
                    .is_none_or(|y| c.year.is_some_and(|year| y.contains(&year)))
        })
    }
}

/// A parsed compound filter: every part given must match (AND).
#[derive(Default)]
struct CompoundFilter {
    search: Option<String>,
    cas: Option<String>,
    cas_prefix: Option<String>,
    /// The tier and the context it is read in.
    risk: Option<(RiskLevel, String)>,
    hazard: Option<HazardQuery>,
    kind: Option<&'static str>,
    category: Option<CategoryQuery>,
    functional_use: Option<&'static str>,
    exposure: Option<String>,
    classification: Option<ClassificationQuery>,
}

impl CompoundFilter {
    fn matches(&self, record: &CompoundRecord, entry: &Entry) -> bool {
        self.search
            .as_ref()
            .is_none_or(|s| entry.terms.iter().any(|t| t.contains(s.as_str())))
            && self.cas.as_ref().is_none_or(|c| *c == record.cas)
            && self
                .cas_prefix
                .as_ref()
                .is_none_or(|p| record.cas.starts_with(p.as_str()))
            && self
                .risk
                .as_ref()
                .is_none_or(|(r, ctx)| entry.tiers.get(ctx.as_str()) == Some(r))
            && self
                .hazard
                .as_ref()
                .is_none_or(|h| h.matches(record, entry))
            && self.kind.is_none_or(|k| record.kind.as_deref() == Some(k))
            && self.category.is_none_or(|c| c.matches(record))
            && self.functional_use.is_none_or(|u| has_use(record, u))
            && self
                .exposure
                .as_ref()
                .is_none_or(|e| record.found_in.iter().any(|f| f.category == *e))
            && self
                .classification
                .as_ref()
                .is_none_or(|c| c.matches(record))
    }
}

/// The compounds whose records are served, in id order: critical-threat records are refused
/// everywhere, so no list, count or search shows them.
pub(crate) fn served(dataset: &Dataset) -> impl Iterator<Item = &CompoundRecord> {
    dataset
        .compounds
        .values()
        .filter(|r| r.watch_class != WatchClass::CriticalThreat)
}

/// The served compounds the filter keeps, in id order.
fn matching<'d, 'i>(
    dataset: &'d Dataset,
    index: &'i RiskIndex,
    filter: &CompoundFilter,
) -> Vec<(&'d CompoundRecord, Cow<'i, Entry>)> {
    served(dataset)
        .map(|r| (r, index.entry(r)))
        .filter(|(r, e)| filter.matches(r, e))
        .collect()
}

#[derive(Serialize)]
struct CompoundItem<'a> {
    hq_id: &'a str,
    name: &'a str,
    cas: &'a str,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<&'a str>,
    /// The tier in every available context.
    risk_levels: &'a BTreeMap<&'static str, RiskLevel>,
}

fn compound_items<'a>(page: &'a [(&'a CompoundRecord, Cow<'_, Entry>)]) -> Vec<CompoundItem<'a>> {
    page.iter()
        .map(|(r, e)| CompoundItem {
            hq_id: &r.hq_id,
            name: &r.name,
            cas: &r.cas,
            kind: r.kind.as_deref(),
            category: r.category.as_deref(),
            risk_levels: &e.tiers,
        })
        .collect()
}

/// Raw query values of `GET /api/compounds`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CompoundsQuery<'a> {
    pub page: Option<&'a str>,
    pub limit: Option<&'a str>,
    pub search: Option<&'a str>,
    pub risk: Option<&'a str>,
    /// The context `risk` is read in (default `human_adult`); used only with `risk`.
    pub context: Option<&'a str>,
    pub hazard: Option<&'a str>,
    pub cas: Option<&'a str>,
    pub type_filter: Option<&'a str>,
    pub category_filter: Option<&'a str>,
}

impl CompoundsQuery<'_> {
    fn filter(&self, dataset: &Dataset) -> Result<CompoundFilter, Rendered> {
        // A malformed context is a 400 even without `risk`: the caller asked for something.
        let context = context_param(dataset, self.context)?;
        Ok(CompoundFilter {
            search: search_param(self.search)?,
            cas: self.cas.map(cas_param).transpose()?,
            risk: self
                .risk
                .map(|r| risk_param(r).map(|r| (r, context)))
                .transpose()?,
            hazard: self.hazard.map(HazardQuery::parse).transpose()?,
            kind: self
                .type_filter
                .map(|t| vocab_param("type_filter", t, vocab::USE_CLASSES))
                .transpose()?,
            category: self.category_filter.map(CategoryQuery::parse).transpose()?,
            ..CompoundFilter::default()
        })
    }
}

#[derive(Serialize)]
struct CompoundsBody<'a> {
    compounds: Vec<CompoundItem<'a>>,
    pagination: Pagination,
}

/// `GET /api/compounds` (keyed): one page of the served compounds the filters keep.
pub fn compounds(dataset: &Dataset, index: &RiskIndex, q: &CompoundsQuery) -> Rendered {
    let (paging, filter) =
        match Paging::parse(q.page, q.limit).and_then(|p| q.filter(dataset).map(|f| (p, f))) {
            Ok(v) => v,
            Err(e) => return e,
        };
    let found = matching(dataset, index, &filter);
    let (page, pagination) = paging.slice(&found);
    let body = CompoundsBody {
        compounds: compound_items(page),
        pagination,
    };
    Rendered::json(200, &body, Cache::Private)
}

/// Raw query values of `GET /api/filter` (DESIGN.md).
#[derive(Debug, Clone, Copy, Default)]
pub struct FilterQuery<'a> {
    pub risk: Option<&'a str>,
    pub context: Option<&'a str>,
    /// `type`: the compound's primary use class.
    pub kind: Option<&'a str>,
    pub agency: Option<&'a str>,
    pub hazard: Option<&'a str>,
    pub cas_prefix: Option<&'a str>,
    /// A found-in category.
    pub exposure: Option<&'a str>,
    /// Any of the compound's use classes.
    pub functional_use: Option<&'a str>,
    pub year: Option<&'a str>,
    pub year_min: Option<&'a str>,
    pub year_max: Option<&'a str>,
    pub page: Option<&'a str>,
    pub limit: Option<&'a str>,
}

fn year_param(name: &str, raw: Option<&str>) -> Result<Option<i32>, Rendered> {
    raw.map(|y| match y.parse::<i32>() {
        Ok(n) if (1000..=9999).contains(&n) => Ok(n),
        _ => Err(Rendered::error(
            400,
            format!("{name} must be a four-digit year, not {}", quoted(y)),
        )),
    })
    .transpose()
}

fn cas_prefix_param(raw: &str) -> Result<String, Rendered> {
    let ok = (1..=12).contains(&raw.len()) && raw.bytes().all(|b| b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(raw.to_string())
    } else {
        Err(Rendered::error(
            400,
            format!(
                "cas_prefix must be the start of a CAS number (digits and hyphens, e.g. 80-05), not {}",
                quoted(raw)
            ),
        ))
    }
}

/// `exposure`: a found-in category of the corpus, case-insensitive.
fn exposure_param(dataset: &Dataset, raw: &str) -> Result<String, Rendered> {
    let known: BTreeSet<&str> = served(dataset)
        .flat_map(|r| r.found_in.iter().map(|f| f.category.as_str()))
        .collect();
    known
        .iter()
        .find(|k| k.eq_ignore_ascii_case(raw))
        .map(|k| k.to_string())
        .ok_or_else(|| {
            Rendered::error(
                400,
                format!(
                    "unknown exposure {}; valid values (found-in categories): {}",
                    quoted(raw),
                    known.into_iter().collect::<Vec<_>>().join(", ")
                ),
            )
        })
}

fn agency_param(dataset: &Dataset, raw: &str) -> Result<String, Rendered> {
    super::regulatory::find_agency(dataset, raw)
        .map(|a| a.name.clone())
        .ok_or_else(|| {
            Rendered::error(
                400,
                format!(
                    "unknown agency {}; valid values: {}",
                    quoted(raw),
                    super::regulatory::agency_names(dataset)
                ),
            )
        })
}

impl FilterQuery<'_> {
    fn years(&self) -> Result<Option<RangeInclusive<i32>>, Rendered> {
        let year = year_param("year", self.year)?;
        let min = year_param("year_min", self.year_min)?;
        let max = year_param("year_max", self.year_max)?;
        match (year, min, max) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => Err(Rendered::error(
                400,
                "year cannot be combined with year_min or year_max",
            )),
            (Some(y), None, None) => Ok(Some(y..=y)),
            (None, Some(lo), Some(hi)) if lo > hi => Err(Rendered::error(
                400,
                format!("year_min {lo} is after year_max {hi}"),
            )),
            (None, None, None) => Ok(None),
            (None, lo, hi) => Ok(Some(lo.unwrap_or(i32::MIN)..=hi.unwrap_or(i32::MAX))),
        }
    }

    fn filter(&self, dataset: &Dataset) -> Result<CompoundFilter, Rendered> {
        let context = context_param(dataset, self.context)?;
        let agency = self.agency.map(|a| agency_param(dataset, a)).transpose()?;
        let years = self.years()?;
        let classification =
            (agency.is_some() || years.is_some()).then_some(ClassificationQuery { agency, years });
        Ok(CompoundFilter {
            risk: self
                .risk
                .map(|r| risk_param(r).map(|r| (r, context)))
                .transpose()?,
            kind: self
                .kind
                .map(|t| vocab_param("type", t, vocab::USE_CLASSES))
                .transpose()?,
            hazard: self.hazard.map(HazardQuery::parse).transpose()?,
            cas_prefix: self.cas_prefix.map(cas_prefix_param).transpose()?,
            exposure: self
                .exposure
                .map(|e| exposure_param(dataset, e))
                .transpose()?,
            functional_use: self
                .functional_use
                .map(|u| vocab_param("functional_use", u, vocab::USE_CLASSES))
                .transpose()?,
            classification,
            ..CompoundFilter::default()
        })
    }
}

/// The filters as applied (names resolved, aliases and case normalized).
#[derive(Serialize)]
struct Applied<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    risk: Option<RiskLevel>,
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<&'a str>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agency: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hazard: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cas_prefix: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exposure: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    functional_use: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    year_min: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    year_max: Option<i32>,
}

fn applied(f: &CompoundFilter) -> Applied<'_> {
    let years = f.classification.as_ref().and_then(|c| c.years.as_ref());
    let bound = |y: i32| (y != i32::MIN && y != i32::MAX).then_some(y);
    Applied {
        risk: f.risk.as_ref().map(|(r, _)| *r),
        context: f.risk.as_ref().map(|(_, c)| c.as_str()),
        kind: f.kind,
        agency: f.classification.as_ref().and_then(|c| c.agency.as_deref()),
        hazard: f.hazard.as_ref().map(HazardQuery::name),
        cas_prefix: f.cas_prefix.as_deref(),
        exposure: f.exposure.as_deref(),
        functional_use: f.functional_use,
        year_min: years.and_then(|y| bound(*y.start())),
        year_max: years.and_then(|y| bound(*y.end())),
    }
}

#[derive(Serialize)]
struct FilterBody<'a> {
    filters: Applied<'a>,
    compounds: Vec<CompoundItem<'a>>,
    pagination: Pagination,
}

/// `GET /api/filter` (keyed, DESIGN.md): the AND of the given compound filters, paginated.
/// `agency` and the year filters must hold for one and the same classification.
pub fn filter(dataset: &Dataset, index: &RiskIndex, q: &FilterQuery) -> Rendered {
    let (paging, filter) =
        match Paging::parse(q.page, q.limit).and_then(|p| q.filter(dataset).map(|f| (p, f))) {
            Ok(v) => v,
            Err(e) => return e,
        };
    let found = matching(dataset, index, &filter);
    let (page, pagination) = paging.slice(&found);
    let body = FilterBody {
        filters: applied(&filter),
        compounds: compound_items(page),
        pagination,
    };
    Rendered::json(200, &body, Cache::Private)
}

#[derive(Serialize)]
struct MaterialItem<'a> {
    id: &'a str,
    name: &'a str,
    slug: &'a str,
    family: &'a str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    synonyms: &'a [String],
    safety_summary: &'a str,
    /// Compounds named in the composition (base, additives, contaminants).
    compound_count: usize,
    alternative_count: usize,
}

impl<'a> MaterialItem<'a> {
    fn of(m: &'a Material) -> MaterialItem<'a> {
        let c = &m.composition;
        MaterialItem {
            id: &m.id,
            name: &m.name,
            slug: &m.slug,
            family: &m.family,
            synonyms: &m.synonyms,
            safety_summary: &m.safety_summary.text,
            compound_count: c.base.len() + c.additives.len() + c.contaminants.len(),
            alternative_count: m.alternatives.len(),
        }
    }
}

#[derive(Serialize)]
struct MaterialsBody<'a> {
    materials: Vec<MaterialItem<'a>>,
    pagination: Pagination,
}

/// `GET /api/materials` (keyed): `search` matches the name and synonyms.
pub fn materials(
    dataset: &Dataset,
    page: Option<&str>,
    limit: Option<&str>,
    search: Option<&str>,
) -> Rendered {
    let (paging, search) =
        match Paging::parse(page, limit).and_then(|p| search_param(search).map(|s| (p, s))) {
            Ok(v) => v,
            Err(e) => return e,
        };
    let found: Vec<&Material> = dataset
        .materials
        .values()
        .filter(|m| {
            search
                .as_ref()
                .is_none_or(|s| contains_text(std::iter::once(&m.name).chain(&m.synonyms), s))
        })
        .collect();
    let (page, pagination) = paging.slice(&found);
    let body = MaterialsBody {
        materials: page.iter().map(|m| MaterialItem::of(m)).collect(),
        pagination,
    };
    Rendered::json(200, &body, Cache::Private)
}

/// Raw query values of `GET /api/products`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProductsQuery<'a> {
    pub page: Option<&'a str>,
    pub limit: Option<&'a str>,
    /// Name, categories, tags and common names.
    pub search: Option<&'a str>,
    /// A product risk level (SPEC 2.6).
    pub risk: Option<&'a str>,
    /// A product tier code (SPEC 2.1), case-insensitive.
    pub tier: Option<&'a str>,
    /// One of the products' categories, case-insensitive.
    pub category_filter: Option<&'a str>,
}

/// A parsed product filter: every part given must match.
struct ProductFilter {
    search: Option<String>,
    risk: Option<ProductRisk>,
    tier: Option<&'static str>,
    category: Option<String>,
}

fn product_risk_param(raw: &str) -> Result<ProductRisk, Rendered> {
    ProductRisk::ALL
        .into_iter()
        .find(|r| r.as_str().eq_ignore_ascii_case(raw))
        .ok_or_else(|| {
            let valid: Vec<&str> = ProductRisk::ALL.iter().rev().map(|r| r.as_str()).collect();
            Rendered::error(
                400,
                format!(
                    "unknown risk {}; valid values: {}",
                    quoted(raw),
                    valid.join(", ")
                ),
            )
        })
}

fn product_category_param(dataset: &Dataset, raw: &str) -> Result<String, Rendered> {
    let known: BTreeSet<&str> = dataset
        .products
        .values()
        .flat_map(|p| p.categories.iter().map(String::as_str))
        .collect();
    known
        .iter()
        .find(|k| k.eq_ignore_ascii_case(raw))
        .map(|k| k.to_string())
        .ok_or_else(|| {
            Rendered::error(
                400,
                format!(
                    "unknown category_filter {}; valid values: {}",
                    quoted(raw),
                    known.into_iter().collect::<Vec<_>>().join(", ")
                ),
            )
        })
}

impl ProductsQuery<'_> {
    fn filter(&self, dataset: &Dataset) -> Result<ProductFilter, Rendered> {
        Ok(ProductFilter {
            search: search_param(self.search)?,
            risk: self.risk.map(product_risk_param).transpose()?,
            tier: self
                .tier
                .map(|t| vocab_param("tier", t, vocab::PRODUCT_TIERS))
                .transpose()?,
            category: self
                .category_filter
                .map(|c| product_category_param(dataset, c))
                .transpose()?,
        })
    }
}

impl ProductFilter {
    /// Everything but `risk`, which needs the index.
    fn matches(&self, p: &Product) -> bool {
        self.search.as_ref().is_none_or(|s| {
            contains_text(
                std::iter::once(&p.name)
                    .chain(&p.categories)
                    .chain(&p.tags)
                    .chain(&p.common_names),
                s,
            )
        }) && self.tier.is_none_or(|t| p.tier == t)
            && self
                .category
                .as_ref()
                .is_none_or(|c| p.categories.contains(c))
    }
}

#[derive(Serialize)]
struct ProductItem<'a> {
    id: &'a str,
    name: &'a str,
    tier: &'a str,
    categories: &'a [String],
    risk_level: Option<ProductRisk>,
}

#[derive(Serialize)]
struct ProductsBody<'a, 'b> {
    products: &'b [ProductItem<'a>],
    pagination: Pagination,
}

/// `GET /api/products` (keyed): `risk` is the synthesised product risk (SPEC 2.6), as the
/// product profile reports it.
pub fn products(dataset: &Dataset, index: &RiskIndex, q: &ProductsQuery) -> Rendered {
    let (paging, filter) =
        match Paging::parse(q.page, q.limit).and_then(|p| q.filter(dataset).map(|f| (p, f))) {
            Ok(v) => v,
            Err(e) => return e,
        };
    let found: Vec<ProductItem<'_>> = dataset
        .products
        .values()
        .filter(|p| filter.matches(p))
        .map(|p| ProductItem {
            id: &p.id,
            name: &p.name,
            tier: &p.tier,
            categories: &p.categories,
            risk_level: index.product_risk(dataset, p),
        })
        .filter(|item| filter.risk.is_none_or(|r| item.risk_level == Some(r)))
        .collect();
    let (page, pagination) = paging.slice(&found);
    let body = ProductsBody {
        products: page,
        pagination,
    };
    Rendered::json(200, &body, Cache::Private)
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use serde_json::Value;

    use super::*;
    use crate::render::test_data::{dataset, risk_index};

    fn json(r: &Rendered) -> Value {
        assert_eq!(r.content_type, "application/json");
        serde_json::from_slice(&r.body).unwrap()
    }

    fn list(q: CompoundsQuery) -> Value {
        let r = compounds(dataset(), risk_index(), &q);
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        assert_eq!(r.cache, Cache::Private);
        json(&r)
    }

    /// Every compound the filtered list holds (all pages).
    fn all(q: CompoundsQuery) -> Vec<Value> {
        let mut out = Vec::new();
        for page in 1.. {
            let p = page.to_string();
            let v = list(CompoundsQuery {
                page: Some(&p),
                limit: Some("100"),
                ..q
            });
            let items = v["compounds"].as_array().unwrap().clone();
            if items.is_empty() {
                break;
            }
            out.extend(items);
        }
        out
    }

    fn ids(items: &[Value]) -> Vec<&str> {
        items.iter().map(|i| i["hq_id"].as_str().unwrap()).collect()
    }

    fn status(q: CompoundsQuery) -> u16 {
        compounds(dataset(), risk_index(), &q).status
    }

    fn error(r: &Rendered) -> String {
        json(r)["error"].as_str().unwrap().to_string()
    }

    fn bpa() -> &'static CompoundRecord {
        dataset().by_cas("80-05-7").unwrap()
    }

    fn served_count() -> usize {
        served(dataset()).count()
    }

    #[test]
    fn risk_index_build_time() {
        let started = Instant::now();
        let index = RiskIndex::build(dataset());
        let took = started.elapsed();
        println!(
            "RiskIndex::build: {} compounds, {} products in {took:?}",
            index.compounds.len(),
            index.products.len()
        );
        assert_eq!(index.compounds.len(), dataset().compounds.len());
        assert_eq!(index.products.len(), dataset().products.len());
        // What the index buys: a list request over the whole corpus.
        let q = CompoundsQuery {
            search: Some("chloro"),
            risk: Some("high"),
            ..Default::default()
        };
        let started = Instant::now();
        for _ in 0..20 {
            assert_eq!(compounds(dataset(), &index, &q).status, 200);
        }
        println!(
            "compounds(search, risk): {:?} per request",
            started.elapsed() / 20
        );
    }

    #[test]
    fn the_default_page_and_its_arithmetic() {
        let total = served_count();
        assert!(total > 1800 && total < dataset().compounds.len());
        let v = list(CompoundsQuery::default());
        assert_eq!(v["pagination"]["page"], 1);
        assert_eq!(v["pagination"]["limit"], 20);
        assert_eq!(v["pagination"]["total"], total);
        assert_eq!(v["pagination"]["total_pages"], total.div_ceil(20));
        let items = v["compounds"].as_array().unwrap();
        assert_eq!(items.len(), 20);
        let first = dataset()
            .compounds
            .get(items[0]["hq_id"].as_str().unwrap())
            .unwrap();
        let tiers: BTreeMap<String, String> = aggregate::assess(first)
            .contexts
            .iter()
            .map(|c| (c.context.to_string(), c.risk_level.as_str().to_string()))
            .collect();
        assert_eq!(
            items[0]["risk_levels"],
            serde_json::to_value(&tiers).unwrap()
        );
        assert_eq!(items[0]["cas"], first.cas.as_str());

        let v = list(CompoundsQuery {
            limit: Some("7"),
            page: Some(&total.div_ceil(7).to_string()),
            ..Default::default()
        });
        assert_eq!(v["pagination"]["total_pages"], total.div_ceil(7));
        let last = (total - 1) % 7 + 1;
        assert_eq!(v["compounds"].as_array().unwrap().len(), last);
        let past = list(CompoundsQuery {
            page: Some("18446744073709551615"),
            limit: Some("100"),
            ..Default::default()
        });
        assert!(past["compounds"].as_array().unwrap().is_empty());
        assert_eq!(past["pagination"]["total"], total);
    }

    #[test]
    fn hostile_paging_is_400() {
        for bad in [
            "0",
            "-1",
            "",
            "abc",
            "1e2",
            "1.0",
            "٣",
            "99999999999999999999999",
            " 1",
        ] {
            assert_eq!(
                status(CompoundsQuery {
                    page: Some(bad),
                    ..Default::default()
                }),
                400,
                "page {bad:?}"
            );
        }
        for bad in ["0", "101", "-20", "", "1000000", "²"] {
            assert_eq!(
                status(CompoundsQuery {
                    limit: Some(bad),
                    ..Default::default()
                }),
                400,
                "limit {bad:?}"
            );
        }
        let r = compounds(
            dataset(),
            risk_index(),
            &CompoundsQuery {
                limit: Some("500"),
                ..Default::default()
            },
        );
        assert!(error(&r).contains("from 1 to 100"));
        assert_eq!(
            status(CompoundsQuery {
                limit: Some("100"),
                ..Default::default()
            }),
            200
        );
    }

    #[test]
    fn search_matches_name_cas_and_synonyms_case_insensitively() {
        let bpa = bpa();
        let synonym = bpa
            .identity
            .synonyms
            .iter()
            .find(|s| !s.eq_ignore_ascii_case(&bpa.name))
            .unwrap();
        for text in [
            "BISPHENOL A",
            "80-05-7",
            &synonym.to_uppercase(),
            "  bisphenol a ",
        ] {
            let found = all(CompoundsQuery {
                search: Some(text),
                ..Default::default()
            });
            assert!(ids(&found).contains(&bpa.hq_id.as_str()), "{text}");
            assert!(found.len() < served_count());
        }
        for bad in ["a", "  a  ", "", "ä", &"x".repeat(201)] {
            let r = compounds(
                dataset(),
                risk_index(),
                &CompoundsQuery {
                    search: Some(bad),
                    ..Default::default()
                },
            );
            assert_eq!(r.status, 400, "{bad:?}");
            assert!(r.body.len() < 400);
        }
        assert!(
            all(CompoundsQuery {
                search: Some("日本語のテキスト"),
                ..Default::default()
            })
            .is_empty()
        );
    }

    #[test]
    fn risk_filters_on_the_tier_in_the_context() {
        let high = all(CompoundsQuery {
            risk: Some("high"),
            ..Default::default()
        });
        assert!(!high.is_empty() && high.len() < served_count());
        assert!(
            high.iter()
                .all(|i| i["risk_levels"]["human_adult"] == "high")
        );
        let child = all(CompoundsQuery {
            risk: Some("VERY_HIGH"),
            context: Some("children"),
            ..Default::default()
        });
        assert!(!child.is_empty());
        assert!(
            child
                .iter()
                .all(|i| i["risk_levels"]["human_child"] == "very_high")
        );
        // Without `risk` the context filters nothing.
        let v = list(CompoundsQuery {
            context: Some("bees"),
            ..Default::default()
        });
        assert_eq!(v["pagination"]["total"], served_count());
        let r = compounds(
            dataset(),
            risk_index(),
            &CompoundsQuery {
                risk: Some("extreme"),
                ..Default::default()
            },
        );
        assert_eq!(r.status, 400);
        assert!(error(&r).contains("low, moderate, high, very_high, critical"));
        for bad in ["Martian", "", "pollinators_on_mars", "ü"] {
            assert_eq!(
                status(CompoundsQuery {
                    risk: Some("low"),
                    context: Some(bad),
                    ..Default::default()
                }),
                400,
                "{bad}"
            );
        }
    }

    #[test]
    fn hazard_accepts_classes_codes_and_use_classes() {
        let benzene = dataset().by_cas("71-43-2").unwrap();
        let carcinogens = all(CompoundsQuery {
            hazard: Some("Carcinogen"),
            ..Default::default()
        });
        assert!(ids(&carcinogens).contains(&benzene.hq_id.as_str()));
        assert!(carcinogens.len() < served_count());
        let h350 = all(CompoundsQuery {
            hazard: Some("h350"),
            ..Default::default()
        });
        let beryllium = dataset().by_cas("7440-41-7").unwrap();
        assert!(ids(&h350).contains(&benzene.hq_id.as_str()));
        assert!(
            ids(&h350).contains(&beryllium.hq_id.as_str()),
            "H350 matches H350i"
        );
        let h350i = all(CompoundsQuery {
            hazard: Some("H350i"),
            ..Default::default()
        });
        assert!(ids(&h350i).contains(&beryllium.hq_id.as_str()));
        assert!(!ids(&h350i).contains(&benzene.hq_id.as_str()));
        let herbicides = all(CompoundsQuery {
            hazard: Some("herbicide"),
            ..Default::default()
        });
        assert!(!herbicides.is_empty());
        let r = compounds(
            dataset(),
            risk_index(),
            &CompoundsQuery {
                hazard: Some("spicy"),
                ..Default::default()
            },
        );
        assert_eq!(r.status, 400);
        let message = error(&r);
        assert!(
            message.contains("carcinogen")
                && message.contains("H350")
                && message.contains("herbicide")
        );
        for bad in ["", "H35", "H3500", "350", "H35٠", "💥"] {
            assert_eq!(
                status(CompoundsQuery {
                    hazard: Some(bad),
                    ..Default::default()
                }),
                400,
                "{bad}"
            );
        }
    }

    #[test]
    fn cas_is_exact_and_checked() {
        let found = all(CompoundsQuery {
            cas: Some("80-05-7"),
            ..Default::default()
        });
        assert_eq!(ids(&found), [bpa().hq_id.as_str()]);
        let r = compounds(
            dataset(),
            risk_index(),
            &CompoundsQuery {
                cas: Some("80-05-8"),
                ..Default::default()
            },
        );
        assert_eq!(r.status, 400);
        assert!(error(&r).contains("check digit"));
        for bad in ["", "80-5-7", "abc", "80-05-7 ", "٨٠-٠٥-٧"] {
            assert_eq!(
                status(CompoundsQuery {
                    cas: Some(bad),
                    ..Default::default()
                }),
                400,
                "{bad}"
            );
        }
    }

    #[test]
    fn type_and_category_filters() {
        let pharma = all(CompoundsQuery {
            type_filter: Some("Pharmaceutical"),
            ..Default::default()
        });
        assert!(pharma.len() > 100);
        assert!(pharma.iter().all(|i| i["type"] == "pharmaceutical"));
        let pesticides = all(CompoundsQuery {
            category_filter: Some("pesticide"),
            ..Default::default()
        });
        assert!(pesticides.len() > 100);
        assert!(pesticides.iter().all(|i| i["category"] == "pesticide"));
        let additives = all(CompoundsQuery {
            category_filter: Some("food_additive"),
            ..Default::default()
        });
        assert!(!additives.is_empty());
        let r = compounds(
            dataset(),
            risk_index(),
            &CompoundsQuery {
                type_filter: Some("spaceship"),
                ..Default::default()
            },
        );
        assert_eq!(r.status, 400);
        assert!(error(&r).contains("uv_filter"));
        let r = compounds(
            dataset(),
            risk_index(),
            &CompoundsQuery {
                category_filter: Some("spaceship"),
                ..Default::default()
            },
        );
        assert!(error(&r).contains("environmental_contaminant"));
    }

    #[test]
    fn filters_combine_with_and() {
        let pesticides = all(CompoundsQuery {
            category_filter: Some("pesticide"),
            ..Default::default()
        });
        let both = all(CompoundsQuery {
            category_filter: Some("pesticide"),
            risk: Some("high"),
            ..Default::default()
        });
        assert!(!both.is_empty() && both.len() < pesticides.len());
        let pesticide_ids = ids(&pesticides);
        assert!(ids(&both).iter().all(|id| pesticide_ids.contains(id)));
    }

    #[test]
    fn critical_threats_are_never_listed() {
        let d = dataset();
        let watched: Vec<&CompoundRecord> = d
            .compounds
            .values()
            .filter(|r| r.watch_class == WatchClass::CriticalThreat)
            .collect();
        assert!(!watched.is_empty());
        let everything = all(CompoundsQuery::default());
        let listed = ids(&everything);
        assert_eq!(listed.len(), served_count());
        for w in watched {
            assert!(!listed.contains(&w.hq_id.as_str()));
            assert!(
                all(CompoundsQuery {
                    cas: Some(&w.cas),
                    ..Default::default()
                })
                .is_empty()
            );
        }
    }

    #[test]
    fn a_stale_index_is_slow_not_wrong() {
        let q = CompoundsQuery {
            type_filter: Some("phthalate"),
            risk: Some("high"),
            ..Default::default()
        };
        let empty = RiskIndex::default();
        assert_eq!(
            compounds(dataset(), &empty, &q),
            compounds(dataset(), risk_index(), &q)
        );
        let p = ProductsQuery {
            tier: Some("chd"),
            limit: Some("5"),
            ..Default::default()
        };
        assert_eq!(
            products(dataset(), &empty, &p),
            products(dataset(), risk_index(), &p)
        );
    }

    fn filtered(q: FilterQuery) -> Value {
        let r = filter(dataset(), risk_index(), &q);
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        json(&r)
    }

    /// Every compound id the filter keeps (all pages).
    fn filter_ids(q: FilterQuery) -> Vec<String> {
        let mut out = Vec::new();
        for page in 1.. {
            let p = page.to_string();
            let v = filtered(FilterQuery {
                page: Some(&p),
                limit: Some("100"),
                ..q
            });
            let items = v["compounds"].as_array().unwrap();
            if items.is_empty() {
                break;
            }
            out.extend(
                items
                    .iter()
                    .map(|i| i["hq_id"].as_str().unwrap().to_string()),
            );
        }
        out
    }

    #[test]
    fn filter_agency_and_year_hold_for_one_classification() {
        let id = bpa().hq_id.clone();
        // BPA: ECHA SVHC 2017, OEHHA 2015 and 2020.
        assert!(
            filter_ids(FilterQuery {
                agency: Some("echa"),
                year: Some("2017"),
                ..Default::default()
            })
            .contains(&id)
        );
        assert!(
            !filter_ids(FilterQuery {
                agency: Some("ECHA"),
                year_min: Some("2018"),
                ..Default::default()
            })
            .contains(&id)
        );
        assert!(
            filter_ids(FilterQuery {
                agency: Some("OEHHA"),
                year_min: Some("2018"),
                year_max: Some("2020"),
                cas_prefix: Some("80-"),
                ..Default::default()
            })
            .contains(&id)
        );
        let v = filtered(FilterQuery {
            agency: Some("us-epa"),
            year_min: Some("2000"),
            ..Default::default()
        });
        assert_eq!(v["filters"]["agency"], "US EPA");
        assert_eq!(v["filters"]["year_min"], 2000);
        assert!(v["filters"].get("year_max").is_none());
    }

    #[test]
    fn filter_exposure_use_prefix_and_risk() {
        let id = bpa().hq_id.clone();
        let ids = filter_ids(FilterQuery {
            exposure: Some("Food_Contact_Materials"),
            cas_prefix: Some("80-05"),
            functional_use: Some("bisphenol"),
            ..Default::default()
        });
        assert_eq!(ids, [id.as_str()]);
        let tier = risk_index().compounds[&id].tiers["human_pregnant"];
        let v = filtered(FilterQuery {
            cas_prefix: Some("80-05-7"),
            risk: Some(tier.as_str()),
            context: Some("pregnancy"),
            kind: Some("bisphenol"),
            ..Default::default()
        });
        assert_eq!(v["pagination"]["total"], 1);
        assert_eq!(v["filters"]["context"], "human_pregnant");
        assert_eq!(v["filters"]["type"], "bisphenol");
        let v = filtered(FilterQuery {
            hazard: Some("H360fd"),
            ..Default::default()
        });
        assert_eq!(v["filters"]["hazard"], "H360fd");
    }

    #[test]
    fn filter_narrows_as_filters_are_added() {
        let total = |q: FilterQuery| filtered(q)["pagination"]["total"].as_u64().unwrap();
        let none = total(FilterQuery::default());
        let one = total(FilterQuery {
            agency: Some("IARC"),
            ..Default::default()
        });
        let two = total(FilterQuery {
            agency: Some("IARC"),
            hazard: Some("carcinogen"),
            ..Default::default()
        });
        let three = total(FilterQuery {
            agency: Some("IARC"),
            hazard: Some("carcinogen"),
            risk: Some("very_high"),
            ..Default::default()
        });
        assert_eq!(none as usize, served_count());
        assert!(
            none > one && one > two && two > three && three > 0,
            "{none} {one} {two} {three}"
        );
    }

    #[test]
    fn filter_rejects_bad_values() {
        let bad = |q: FilterQuery| {
            let r = filter(dataset(), risk_index(), &q);
            assert_eq!(r.status, 400, "{q:?}");
            error(&r)
        };
        assert!(
            bad(FilterQuery {
                year: Some("twenty"),
                ..Default::default()
            })
            .contains("year")
        );
        assert!(
            bad(FilterQuery {
                year_min: Some("2020"),
                year_max: Some("2010"),
                ..Default::default()
            })
            .contains("after")
        );
        bad(FilterQuery {
            year: Some("2020"),
            year_min: Some("2010"),
            ..Default::default()
        });
        bad(FilterQuery {
            year_max: Some("-2020"),
            ..Default::default()
        });
        bad(FilterQuery {
            year: Some("99999999999"),
            ..Default::default()
        });
        assert!(
            bad(FilterQuery {
                agency: Some("Ministry of Magic"),
                ..Default::default()
            })
            .contains("IARC")
        );
        assert!(
            bad(FilterQuery {
                exposure: Some("the moon"),
                ..Default::default()
            })
            .contains("food_contact_materials")
        );
        bad(FilterQuery {
            cas_prefix: Some("80a"),
            ..Default::default()
        });
        bad(FilterQuery {
            cas_prefix: Some(""),
            ..Default::default()
        });
        bad(FilterQuery {
            functional_use: Some("levitation"),
            ..Default::default()
        });
        bad(FilterQuery {
            kind: Some(""),
            ..Default::default()
        });
        bad(FilterQuery {
            risk: Some("severe"),
            ..Default::default()
        });
        bad(FilterQuery {
            page: Some("0"),
            ..Default::default()
        });
    }

    fn materials_json(page: Option<&str>, limit: Option<&str>, search: Option<&str>) -> Value {
        let r = materials(dataset(), page, limit, search);
        assert_eq!(r.status, 200);
        json(&r)
    }

    #[test]
    fn materials_page_and_search() {
        let total = dataset().materials.len();
        let v = materials_json(None, Some("100"), None);
        assert_eq!(v["pagination"]["total"], total);
        assert_eq!(v["pagination"]["total_pages"], total.div_ceil(100));
        let first = &v["materials"][0];
        let m = &dataset().materials[first["id"].as_str().unwrap()];
        assert_eq!(first["family"], m.family.as_str());
        assert!(first["compound_count"].as_u64().unwrap() > 0);
        let poly = materials_json(None, Some("100"), Some("POLY"));
        let n = poly["pagination"]["total"].as_u64().unwrap();
        assert!(n > 0 && (n as usize) < total);
        assert!(poly["materials"].as_array().unwrap().iter().all(|m| {
            let stored = &dataset().materials[m["id"].as_str().unwrap()];
            std::iter::once(&stored.name)
                .chain(&stored.synonyms)
                .any(|s| s.to_lowercase().contains("poly"))
        }));
        for (page, limit, search) in [
            (Some("0"), None, None),
            (None, Some("101"), None),
            (None, None, Some("p")),
            (Some("x"), None, None),
        ] {
            assert_eq!(materials(dataset(), page, limit, search).status, 400);
        }
    }

    fn products_json(q: ProductsQuery) -> Value {
        let r = products(dataset(), risk_index(), &q);
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        json(&r)
    }

    #[test]
    fn products_filter_by_tier_risk_category_and_search() {
        let total = dataset().products.len();
        let v = products_json(ProductsQuery::default());
        assert_eq!(v["pagination"]["total"], total);
        let chd = products_json(ProductsQuery {
            tier: Some("chd"),
            limit: Some("100"),
            ..Default::default()
        });
        assert!(
            chd["products"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["tier"] == "CHD")
        );
        assert!(chd["pagination"]["total"].as_u64().unwrap() > 0);
        // The list's risk is the profile's.
        let item = &chd["products"][0];
        let profile = super::super::entities::product(
            dataset(),
            item["id"].as_str().unwrap(),
            super::super::compound::Access::Public,
        );
        assert_eq!(json(&profile)["risk_level"], item["risk_level"]);
        let level = item["risk_level"].as_str().unwrap();
        let same = products_json(ProductsQuery {
            risk: Some(&level.to_uppercase()),
            limit: Some("100"),
            ..Default::default()
        });
        assert!(
            same["products"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["risk_level"] == level)
        );
        let children = products_json(ProductsQuery {
            category_filter: Some("CHILDREN"),
            limit: Some("100"),
            ..Default::default()
        });
        assert!(children["products"].as_array().unwrap().iter().all(|p| {
            p["categories"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c == "children")
        }));
        let n = children["pagination"]["total"].as_u64().unwrap();
        assert!(n > 0 && (n as usize) < total);
        let searched = products_json(ProductsQuery {
            search: Some("Toy"),
            ..Default::default()
        });
        let m = searched["pagination"]["total"].as_u64().unwrap();
        assert!(m > 0 && (m as usize) < total);
    }

    #[test]
    fn products_reject_bad_values() {
        for q in [
            ProductsQuery {
                tier: Some("XYZ"),
                ..Default::default()
            },
            ProductsQuery {
                tier: Some(""),
                ..Default::default()
            },
            ProductsQuery {
                risk: Some("very_high"),
                ..Default::default()
            },
            ProductsQuery {
                category_filter: Some("asteroids"),
                ..Default::default()
            },
            ProductsQuery {
                search: Some("x"),
                ..Default::default()
            },
            ProductsQuery {
                limit: Some("-1"),
                ..Default::default()
            },
        ] {
            let r = products(dataset(), risk_index(), &q);
            assert_eq!(r.status, 400, "{q:?}");
        }
        let r = products(
            dataset(),
            risk_index(),
            &ProductsQuery {
                risk: Some("bad"),
                ..Default::default()
            },
        );
        assert!(
            error(&r)
                .contains("extreme, severe, high, moderate_to_high, moderate, low, negligible")
        );
        let r = products(
            dataset(),
            risk_index(),
            &ProductsQuery {
                tier: Some("bad"),
                ..Default::default()
            },
        );
        assert!(error(&r).contains("CHD"));
    }

    #[test]
    fn quoting_cuts_long_values() {
        assert_eq!(quoted("ab"), "\"ab\"");
        let long = quoted(&"é".repeat(1000));
        assert!(long.ends_with("...") && long.chars().count() < 80);
        assert_eq!(h_code("h360fd"), "H360fd");
        assert_eq!(h_code("euh059"), "EUH059");
        assert_eq!(h_code("h3é"), "H3é");
        assert_eq!(h_code("h35é"), "h35é");
        assert_eq!(h_code("é"), "é");
        assert!(code_matches("H350", "H350i"));
        assert!(!code_matches("H350i", "H350"));
        assert!(!code_matches("H36", "H360"));
    }
}
