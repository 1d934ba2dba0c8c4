//! The fragrance responses (keyed, Developer+): `GET /api/fragrance`
//! (the ingredients, paginated, filtered by `class`), `GET /api/fragrance/classes` (the two
//! vocabularies with member counts) and `GET /api/fragrance/search?q=` (by name, synonym,
//! CAS or class, relevance ordered). Pure functions of the data; wire types live here.
//!
//! Items come in the order of `ingredients.json` (EU Annex III entry order, then the other
//! ingredients), so pages are stable. Every value names its `source`, and each response lists
//! the sources its page cites.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::{Cache, Rendered};
use crate::aggregate;
use crate::api::{Op, Query};
use crate::model::Dataset;
use crate::model::fragrance::{
    ClassDef, ClassFamily, EuAllergen, EuRegulation, Fragrance, IfraStatus, Ingredient,
    IngredientKind,
};
use crate::model::ids::CompoundId;
use crate::model::record::{CompoundRecord, SourceRef};
use crate::model::vocab::RiskLevel;
use crate::render::declared;
use crate::render::error::ApiError;
use crate::render::paging::{Pagination, Paging};

/// Longest query value echoed in an error, so a hostile value cannot make the body large.
const MAX_ECHO: usize = 64;

/// A query value echoed in an error: debug-quoted and cut.
fn quoted(value: &str) -> String {
    if value.chars().count() <= MAX_ECHO {
        format!("{value:?}")
    } else {
        let cut: String = value.chars().take(MAX_ECHO).collect();
        format!("{cut:?}...")
    }
}

#[derive(Serialize, schemars::JsonSchema)]
struct Links {
    compound: String,
}

#[derive(Serialize, schemars::JsonSchema)]
struct ItemClasses<'a> {
    odour_families: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    odour_source: Option<&'a str>,
    chemical_classes: &'a [String],
}

/// An EU labelling obligation: named in the ingredient list above the thresholds.
#[derive(Serialize, schemars::JsonSchema)]
struct EuStatus<'a> {
    regulation: &'static str,
    /// Annex III entry number of Regulation (EC) No 1223/2009 as amended.
    entry: &'a str,
    leave_on_threshold_pct: f64,
    rinse_off_threshold_pct: f64,
    applies_from: &'a str,
    source: &'a str,
}

impl<'a> EuStatus<'a> {
    fn of(a: &'a EuAllergen) -> EuStatus<'a> {
        EuStatus {
            regulation: match a.regulation {
                EuRegulation::Annex26 => "Regulation (EC) No 1223/2009, Annex III",
                EuRegulation::Amendment2023 => "Regulation (EU) 2023/1545",
            },
            entry: &a.entry,
            leave_on_threshold_pct: a.leave_on_threshold_pct,
            rinse_off_threshold_pct: a.rinse_off_threshold_pct,
            applies_from: &a.applies_from,
            source: &a.source,
        }
    }
}

#[derive(Serialize, schemars::JsonSchema)]
struct IfraItem<'a> {
    status: IfraStatus,
    standard: &'a str,
    source: &'a str,
}

/// The tiers of the two contexts that matter for fragrance: skin contact, how fragrance
/// reaches people, and adults, the primary context. `null` where a context is unavailable.
#[derive(Serialize, schemars::JsonSchema)]
struct Tiers {
    exposure_dermal: Option<RiskLevel>,
    human_adult: Option<RiskLevel>,
}

impl Tiers {
    fn of(record: Option<&CompoundRecord>) -> Tiers {
        let Some(record) = record else {
            return Tiers {
                exposure_dermal: None,
                human_adult: None,
            };
        };
        let assessed = aggregate::assess(record);
        let tier = |context: &str| assessed.get(context).map(|c| c.risk_level);
        Tiers {
            exposure_dermal: tier("exposure_dermal"),
            human_adult: tier("human_adult"),
        }
    }
}

#[derive(Serialize, schemars::JsonSchema)]
struct Constituent<'a> {
    cas: &'a str,
    id: Option<CompoundId>,
    hq_id: Option<CompoundId>,
    name: Option<&'a str>,
}

/// One ingredient as the list and search return it.
#[derive(Serialize, schemars::JsonSchema)]
struct Item<'a> {
    /// The compound's `hq_id`; `null` only if the data names a CAS outside the corpus,
    /// which `check` reports.
    id: Option<&'a CompoundId>,
    hq_id: Option<&'a CompoundId>,
    name: &'a str,
    cas: &'a str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    other_cas: &'a [String],
    kind: IngredientKind,
    classes: ItemClasses<'a>,
    /// Labelling status per jurisdiction (the data holds the EU's); empty where the
    /// ingredient is not a labelled allergen.
    allergen_status: BTreeMap<&'static str, EuStatus<'a>>,
    /// The IFRA Standard that applies; `null` where none was found (not a safety statement).
    ifra: Option<IfraItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    constituents: Vec<Constituent<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    constituents_source: Option<&'a str>,
    risk_tiers: Tiers,
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    _links: Option<Links>,
}

fn item<'a>(f: &'a Fragrance, dataset: &'a Dataset, entry: &'a Ingredient) -> Item<'a> {
    let record = dataset.by_cas(&entry.cas);
    let constituents = entry
        .constituents
        .iter()
        .map(|cas| {
            let record = dataset.by_cas(cas);
            // The constituent's labelling name when it is an entry itself, else the corpus name.
            let name = f
                .ingredients
                .entries
                .iter()
                .find(|e| &e.cas == cas)
                .map(|e| e.name.as_str())
                .or(record.map(|r| r.name.as_str()));
            Constituent {
                cas,
                id: record.map(|r| r.hq_id),
                hq_id: record.map(|r| r.hq_id),
                name,
            }
        })
        .collect();
    Item {
        id: record.map(|r| &r.hq_id),
        hq_id: record.map(|r| &r.hq_id),
        name: &entry.name,
        cas: &entry.cas,
        other_cas: &entry.other_cas,
        kind: entry.kind,
        classes: ItemClasses {
            odour_families: &entry.odour_families,
            odour_source: entry.odour_source.as_deref(),
            chemical_classes: &entry.chemical_classes,
        },
        allergen_status: entry
            .eu_allergen
            .iter()
            .map(|a| ("EU", EuStatus::of(a)))
            .collect(),
        ifra: entry.ifra.as_ref().map(|i| IfraItem {
            status: i.status,
            standard: &i.standard,
            source: &i.source,
        }),
        constituents,
        constituents_source: entry.constituents_source.as_deref(),
        risk_tiers: Tiers::of(record),
        source: &entry.source,
        _links: record.map(|r| Links {
            compound: format!("/api/compound/{}", r.hq_id),
        }),
    }
}

/// The sources the entries cite, in the order of the file's `sources[]`.
fn cited_sources<'a>(f: &'a Fragrance, entries: &[&Ingredient]) -> Vec<&'a SourceRef> {
    let mut ids: BTreeSet<&str> = BTreeSet::new();
    for e in entries {
        ids.insert(&e.source);
        ids.extend(e.eu_allergen.as_ref().map(|a| a.source.as_str()));
        ids.extend(e.ifra.as_ref().map(|i| i.source.as_str()));
        ids.extend(e.odour_source.as_deref());
        ids.extend(e.constituents_source.as_deref());
    }
    f.ingredients
        .sources
        .iter()
        .filter(|s| ids.contains(s.id.as_str()))
        .collect()
}

#[derive(Serialize, schemars::JsonSchema)]
struct Filters<'a> {
    class: Option<&'a str>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct ListBody<'a> {
    ingredients: Vec<Item<'a>>,
    pagination: Pagination,
    filters: Filters<'a>,
    sources: Vec<&'a SourceRef>,
}

/// `class`: the id of an odour family or chemical class, case-insensitive.
fn class_param<'a>(f: &'a Fragrance, raw: &str) -> Result<&'a ClassDef, ApiError> {
    let wanted = raw.trim().to_ascii_lowercase();
    if let Some((_, class)) = f.class(&wanted) {
        return Ok(class);
    }
    let ids = |family: ClassFamily| {
        f.all_classes()
            .filter(|(fam, _)| *fam == family)
            .map(|(_, c)| c.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    Err(ApiError::bad_request(format!(
        "class must be an odour family ({}) or a chemical class ({}), not {} (GET /api/fragrance/classes describes them)",
        ids(ClassFamily::Odour),
        ids(ClassFamily::Chemical),
        quoted(raw)
    )))
}

fn has_class(entry: &Ingredient, id: &str) -> bool {
    entry.odour_families.iter().any(|c| c == id) || entry.chemical_classes.iter().any(|c| c == id)
}

/// What `GET /api/fragrance` is asked for, parsed once: the page and `class`.
#[derive(Debug)]
pub struct ListQuery<'f> {
    pub paging: Paging,
    class: Option<&'f ClassDef>,
}

impl<'f> ListQuery<'f> {
    pub fn parse(f: &'f Fragrance, q: &dyn Query) -> Result<ListQuery<'f>, ApiError> {
        Ok(ListQuery {
            paging: Paging::parse(Op::Fragrance, q)?,
            class: q.get("class").map(|c| class_param(f, c)).transpose()?,
        })
    }
}

/// `GET /api/fragrance?limit=&offset=&class=`: one page of the ingredients.
///
/// The tiers of a page's compounds (at most 100) are assessed here, per request.
pub fn list(f: &Fragrance, dataset: &Dataset, q: &ListQuery<'_>) -> Rendered {
    let class = q.class;
    let found: Vec<&Ingredient> = f
        .ingredients
        .entries
        .iter()
        .filter(|e| class.is_none_or(|c| has_class(e, &c.id)))
        .collect();
    let (items, pagination) = q.paging.slice(&found);
    let body = ListBody {
        ingredients: items.iter().map(|e| item(f, dataset, e)).collect(),
        pagination,
        filters: Filters {
            class: class.map(|c| c.id.as_str()),
        },
        sources: cited_sources(f, items),
    };
    Rendered::json(200, &body, Cache::Private)
}

#[derive(Serialize, schemars::JsonSchema)]
struct ClassLinks {
    ingredients: String,
}

#[derive(Serialize, schemars::JsonSchema)]
struct ClassItem<'a> {
    id: &'a str,
    name: &'a str,
    description: &'a str,
    source: &'a str,
    /// How many ingredients carry the class (the `total` of `/api/fragrance?class=<id>`).
    members: usize,
    _links: ClassLinks,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct ClassesBody<'a> {
    odour_families: Vec<ClassItem<'a>>,
    chemical_classes: Vec<ClassItem<'a>>,
    total: usize,
    sources: &'a [SourceRef],
}

fn class_items<'a>(f: &'a Fragrance, list: &'a [ClassDef]) -> Vec<ClassItem<'a>> {
    list.iter()
        .map(|c| ClassItem {
            id: &c.id,
            name: &c.name,
            description: &c.description,
            source: &c.source,
            members: f
                .ingredients
                .entries
                .iter()
                .filter(|e| has_class(e, &c.id))
                .count(),
            _links: ClassLinks {
                ingredients: format!("/api/fragrance?class={}", c.id),
            },
        })
        .collect()
}

/// `GET /api/fragrance/classes`: both vocabularies with their member counts.
pub fn classes(f: &Fragrance) -> Rendered {
    let body = ClassesBody {
        odour_families: class_items(f, &f.classes.odour_families),
        chemical_classes: class_items(f, &f.classes.chemical_classes),
        total: f.classes.odour_families.len() + f.classes.chemical_classes.len(),
        sources: &f.classes.sources,
    };
    Rendered::json(200, &body, Cache::Private)
}

/// Which field of an ingredient a query matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Field {
    Name,
    Cas,
    /// The corpus name or a PubChem synonym of the compound.
    Synonym,
    /// The id or name of one of its odour families or chemical classes.
    Class,
}

/// How a query met a field, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Match {
    Exact,
    Prefix,
    Substring,
}

/// Scores order results by how the query matched (every exact match above every prefix
/// match, every prefix above every substring), then by the field: the name identifies an
/// ingredient best, a class matches many ingredients alike. `None` for a CAS substring: a
/// fragment inside a CAS number is not a reference to it.
fn score(field: Field, how: Match) -> Option<u8> {
    let base = match how {
        Match::Exact => 90,
        Match::Prefix => 60,
        Match::Substring => 30,
    };
    let bonus = match (field, how) {
        (Field::Cas, Match::Substring) => return None,
        (Field::Name | Field::Cas, _) => 10,
        (Field::Synonym, _) => 5,
        (Field::Class, _) => 0,
    };
    Some(base + bonus)
}

fn how(text: &str, query: &str) -> Option<Match> {
    let text = text.to_lowercase();
    if text == query {
        Some(Match::Exact)
    } else if text.starts_with(query) {
        Some(Match::Prefix)
    } else if text.contains(query) {
        Some(Match::Substring)
    } else {
        None
    }
}

#[derive(Serialize, schemars::JsonSchema)]
struct Matched<'a> {
    field: Field,
    value: &'a str,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Hit<'a> {
    #[serde(flatten)]
    item: Item<'a>,
    score: u8,
    matched: Matched<'a>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct SearchBody<'a> {
    query: &'a str,
    results: Vec<Hit<'a>>,
    pagination: Pagination,
    sources: Vec<&'a SourceRef>,
}

/// The best match of `query` (lowercased) on one ingredient, with the text it matched.
fn best_match<'a>(
    f: &'a Fragrance,
    dataset: &'a Dataset,
    entry: &'a Ingredient,
    query: &str,
) -> Option<(u8, Matched<'a>)> {
    let record = dataset.by_cas(&entry.cas);
    let names = [(Field::Name, entry.name.as_str())].into_iter();
    let cas = std::iter::once(&entry.cas)
        .chain(&entry.other_cas)
        .map(|c| (Field::Cas, c.as_str()));
    let synonyms = record
        .into_iter()
        .flat_map(|r| std::iter::once(&r.name).chain(&r.identity.synonyms))
        .map(|s| (Field::Synonym, s.as_str()));
    let classes = entry
        .odour_families
        .iter()
        .chain(&entry.chemical_classes)
        .filter_map(|id| f.class(id))
        .flat_map(|(_, c)| [c.id.as_str(), c.name.as_str()])
        .map(|t| (Field::Class, t));
    names
        .chain(cas)
        .chain(synonyms)
        .chain(classes)
        .filter_map(|(field, value)| {
            let s = score(field, how(value, query)?)?;
            Some((s, Matched { field, value }))
        })
        // The first of equal scores wins: fields come strongest first.
        .fold(None, |best: Option<(u8, Matched<'a>)>, next| match best {
            Some(b) if b.0 >= next.0 => Some(b),
            _ => Some(next),
        })
}

/// What `GET /api/fragrance/search` is asked for, parsed once: `q` and the page.
#[derive(Debug)]
pub struct SearchQuery<'q> {
    text: &'q str,
    pub paging: Paging,
}

impl<'q> SearchQuery<'q> {
    pub fn parse(q: &'q dyn Query) -> Result<SearchQuery<'q>, ApiError> {
        let Some(text) = declared::text(Op::FragranceSearch, "q", q)? else {
            return Err(ApiError::bad_request(
                "q is required: a name, synonym, CAS number or class",
            ));
        };
        Ok(SearchQuery {
            text,
            paging: Paging::parse(Op::FragranceSearch, q)?,
        })
    }
}

/// `GET /api/fragrance/search?q=&limit=&offset=`: ingredients whose name, synonyms, CAS
/// numbers or classes match `q` (case-insensitive, at least 2 characters once trimmed),
/// best first: exact, then prefix, then substring matches; ties by name.
pub fn search(f: &Fragrance, dataset: &Dataset, q: &SearchQuery<'_>) -> Rendered {
    let query = q.text;
    let lowered = query.to_lowercase();
    let mut found: Vec<(u8, Matched<'_>, &Ingredient)> = f
        .ingredients
        .entries
        .iter()
        .filter_map(|e| best_match(f, dataset, e, &lowered).map(|(s, m)| (s, m, e)))
        .collect();
    found.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then_with(|| a.2.name.to_lowercase().cmp(&b.2.name.to_lowercase()))
            .then_with(|| a.2.cas.cmp(&b.2.cas))
    });
    let (range, pagination) = q.paging.range(found.len());
    let entries: Vec<&Ingredient> = found[range.clone()].iter().map(|h| h.2).collect();
    let sources = cited_sources(f, &entries);
    let results = found
        .drain(range)
        .map(|(score, matched, e)| Hit {
            item: item(f, dataset, e),
            score,
            matched,
        })
        .collect();
    let body = SearchBody {
        query,
        results,
        pagination,
        sources,
    };
    Rendered::json(200, &body, Cache::Private)
}

#[cfg(test)]
mod tests;
