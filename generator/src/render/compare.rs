//! Compound comparison (SPEC 4.2.2): 2 to 5 compounds side by side in one context (tiers,
//! regulatory matrix, dose-response values, hazard profiles, environmental fate, exposure
//! sources and a summary), or across 2 to 5 contexts as a risk matrix. Everything is read from
//! the records and their assessment (`aggregate::assess`); a value no record holds is null,
//! never estimated.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::{Cache, Rendered};
use crate::aggregate::rules::RULES;
use crate::aggregate::signals::fmt_num;
use crate::aggregate::{self, Assessment, ContextResult};
use crate::cas::Cas;
use crate::ids::CompoundId;
use crate::load::Dataset;
use crate::model::record::{CompoundRecord, DoseValue, Measured};
use crate::model::vocab::{DoseKind, RiskLevel, WatchClass};

/// Compounds per comparison, and contexts per multi-context comparison (SPEC 8).
const MIN: usize = 2;
const MAX: usize = 5;
/// The context of a comparison that names none (SPEC 4.2).
const DEFAULT_CONTEXT: &str = "human_adult";

/// A map that serializes in the order its entries were made (the request's order of
/// compounds and contexts) rather than sorted.
struct InOrder<K, V>(Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for InOrder<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// One compared compound with its assessment.
struct Compared<'d> {
    record: &'d CompoundRecord,
    assessment: Assessment,
}

impl<'d> Compared<'d> {
    fn id(&self) -> &'d str {
        &self.record.hq_id
    }

    fn name(&self) -> &'d str {
        &self.record.name
    }

    fn result(&self, context: &str) -> Option<&ContextResult> {
        self.assessment.get(context)
    }

    /// A value per compound, keyed by id in request order.
    fn each<'a, V>(
        all: &'a [Compared<'d>],
        f: impl Fn(&'a Compared<'d>) -> V,
    ) -> InOrder<&'d str, V> {
        InOrder(all.iter().map(|c| (c.id(), f(c))).collect())
    }
}

/// Tier rank: low 1 to critical 5.
fn rank(level: RiskLevel) -> i8 {
    match level {
        RiskLevel::Low => 1,
        RiskLevel::Moderate => 2,
        RiskLevel::High => 3,
        RiskLevel::VeryHigh => 4,
        RiskLevel::Critical => 5,
    }
}

/// A user-supplied value in a message: quoted, and cut short if it is long.
fn shown(input: &str) -> String {
    const MAX_SHOWN: usize = 60;
    match input.char_indices().nth(MAX_SHOWN) {
        Some((cut, _)) => format!("{:?}...", &input[..cut]),
        None => format!("{input:?}"),
    }
}

/// The compound an input names (an id, or a CAS number through the registry), or the
/// 400 / 404 / 403 response naming it.
fn resolve<'d>(dataset: &'d Dataset, input: &str) -> Result<&'d CompoundRecord, Rendered> {
    let id = if CompoundId::parse(input).is_some() {
        input.to_string()
    } else if let Ok(cas) = Cas::parse(input) {
        match dataset.ids.get(&cas) {
            Some(id) => id.to_string(),
            None => {
                return Err(Rendered::error(
                    404,
                    format!("compound not found: no compound with CAS {input}"),
                ));
            }
        }
    } else {
        return Err(Rendered::error(
            400,
            format!(
                "malformed compound {}: expected a compound id (hq-c-org-000001) or a CAS number with a valid check digit (80-05-7)",
                shown(input)
            ),
        ));
    };
    let record = dataset
        .compounds
        .get(&id)
        .ok_or_else(|| Rendered::error(404, format!("compound not found: {id}")))?;
    if record.watch_class == WatchClass::CriticalThreat {
        return Err(Rendered::error(
            403,
            format!(
                "compound {id} is on the critical-threat watch list (e.g. Chemical Weapons Convention Schedule 1); it is not compared"
            ),
        ));
    }
    Ok(record)
}

/// The distinct non-empty items of a comma-separated list, in order; more than `MAX` is an
/// error as soon as it is certain.
fn distinct_items<'a>(raw: &'a str, what: &str) -> Result<Vec<&'a str>, Rendered> {
    let mut items: Vec<&str> = Vec::new();
    for item in raw.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        if !items.contains(&item) {
            items.push(item);
            if items.len() > MAX {
                return Err(count_error(what, "more than 5"));
            }
        }
    }
    Ok(items)
}

fn count_error(what: &str, got: &str) -> Rendered {
    Rendered::error(
        400,
        format!(
            "compare takes 2 to 5 distinct {what} (comma-separated; duplicates are removed), not {got}"
        ),
    )
}

fn compounds<'d>(dataset: &'d Dataset, raw: &str) -> Result<Vec<Compared<'d>>, Rendered> {
    let inputs = distinct_items(raw, "compounds")?;
    if inputs.len() < MIN {
        return Err(count_error("compounds", &inputs.len().to_string()));
    }
    let mut records: Vec<&CompoundRecord> = Vec::new();
    for input in inputs {
        let record = resolve(dataset, input)?;
        // An id and a CAS number may name the same compound.
        if !records.iter().any(|r| r.hq_id == record.hq_id) {
            records.push(record);
        }
    }
    if records.len() < MIN {
        return Err(count_error("compounds", "one compound named twice"));
    }
    Ok(records
        .into_iter()
        .map(|record| Compared {
            record,
            assessment: aggregate::assess(record),
        })
        .collect())
}

fn contexts<'d>(dataset: &'d Dataset, raw: &str) -> Result<Vec<&'d str>, Rendered> {
    let mut names: Vec<&str> = Vec::new();
    for item in distinct_items(raw, "contexts")? {
        let c = dataset
            .contexts
            .resolve(item)
            .map_err(|e| Rendered::error(400, e.to_string()))?;
        // An alias and its context name are one context.
        if !names.contains(&c.name.as_str()) {
            names.push(&c.name);
        }
    }
    if names.len() < MIN {
        return Err(count_error("contexts", &names.len().to_string()));
    }
    Ok(names)
}

#[derive(Serialize)]
struct Ident<'a> {
    id: &'a str,
    name: &'a str,
    cas: &'a str,
}

fn idents<'a>(all: &[Compared<'a>]) -> Vec<Ident<'a>> {
    all.iter()
        .map(|c| Ident {
            id: c.id(),
            name: c.name(),
            cas: &c.record.cas,
        })
        .collect()
}

#[derive(Serialize)]
struct Meta<'a> {
    compared: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contexts: Option<Vec<&'a str>>,
    generated_from: &'static str,
}

#[derive(Serialize)]
struct Body<'a, C> {
    comparison: C,
    meta: Meta<'a>,
}

/// `GET /api/compounds/compare?ids=&context=` or `?ids=&contexts=` (Developer+).
pub fn compare(
    dataset: &Dataset,
    ids: Option<&str>,
    context: Option<&str>,
    contexts: Option<&str>,
) -> Rendered {
    match respond(dataset, ids, context, contexts) {
        Ok(r) | Err(r) => r,
    }
}

fn respond(
    dataset: &Dataset,
    ids: Option<&str>,
    context: Option<&str>,
    several: Option<&str>,
) -> Result<Rendered, Rendered> {
    let Some(ids) = ids else {
        return Err(Rendered::error(
            400,
            "ids is required: 2 to 5 comma-separated compound ids or CAS numbers",
        ));
    };
    if context.is_some() && several.is_some() {
        return Err(Rendered::error(
            400,
            "use either context (one context) or contexts (2 to 5), not both",
        ));
    }
    if let Some(raw) = several {
        let names = contexts(dataset, raw)?;
        let all = compounds(dataset, ids)?;
        let body = Body {
            meta: Meta {
                compared: all.len(),
                context: None,
                contexts: Some(names.clone()),
                generated_from: "dataset",
            },
            comparison: across_contexts(dataset, &all, &names),
        };
        return Ok(Rendered::json(200, &body, Cache::Private));
    }
    let name = match context {
        None => DEFAULT_CONTEXT,
        Some(c) => dataset
            .contexts
            .resolve(c)
            .map_err(|e| Rendered::error(400, e.to_string()))?
            .name
            .as_str(),
    };
    let all = compounds(dataset, ids)?;
    let body = Body {
        meta: Meta {
            compared: all.len(),
            context: Some(name),
            contexts: None,
            generated_from: "dataset",
        },
        comparison: in_context(dataset, &all, name),
    };
    Ok(Rendered::json(200, &body, Cache::Private))
}

fn label<'d>(dataset: &'d Dataset, context: &'d str) -> &'d str {
    dataset
        .contexts
        .get(context)
        .map_or(context, |c| c.label.as_str())
}

// ---- One context ----------------------------------------------------------------------------

#[derive(Serialize)]
struct TierCell<'a> {
    risk_level: RiskLevel,
    tier_rank: i8,
    confidence: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<&'a str>,
}

fn cell(r: &ContextResult, with_summary: bool) -> TierCell<'_> {
    TierCell {
        risk_level: r.risk_level,
        tier_rank: rank(r.risk_level),
        confidence: r.confidence,
        summary: with_summary.then_some(r.summary.as_str()),
    }
}

/// Tier-rank difference of a pair: positive when the first is the higher tier; null when
/// either has no tier in the context.
#[derive(Serialize)]
struct Delta<'a> {
    first: &'a str,
    second: &'a str,
    tier_difference: Option<i8>,
}

#[derive(Serialize)]
struct RiskProfiles<'a> {
    /// Per compound: its tier in the context, or null when the context has no evidence.
    profiles: InOrder<&'a str, Option<TierCell<'a>>>,
    deltas: Vec<Delta<'a>>,
}

#[derive(Serialize)]
struct Classified<'a> {
    attribution: &'a str,
    classification: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    year: Option<i32>,
}

#[derive(Serialize)]
struct Partial<'a> {
    agency: &'a str,
    compounds: Vec<&'a str>,
}

#[derive(Serialize)]
struct Agreement<'a> {
    /// Agencies with a classification of every compared compound.
    classify_all: Vec<&'a str>,
    /// Agencies that classify some of them, and which.
    classify_some: Vec<Partial<'a>>,
}

#[derive(Serialize)]
struct RegulatoryComparison<'a> {
    /// Agency -> compound -> its classifications, or null where the agency has none.
    matrix: BTreeMap<&'a str, InOrder<&'a str, Option<Vec<Classified<'a>>>>>,
    agreement: Agreement<'a>,
}

#[derive(Serialize)]
struct Dose<'a> {
    kind: DoseKind,
    value: f64,
    unit: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    qualifier: Option<&'a str>,
    agency: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    year: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    species: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    route: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    population: Option<&'a str>,
    source: &'a str,
}

impl<'a> Dose<'a> {
    fn of(d: &'a DoseValue) -> Dose<'a> {
        Dose {
            kind: d.kind,
            value: d.value,
            unit: &d.unit,
            qualifier: d.qualifier.as_deref(),
            agency: &d.agency,
            year: d.year,
            species: d.species.as_deref(),
            route: d.route.as_deref(),
            population: d.population.as_deref(),
            source: &d.source,
        }
    }
}

/// The first compound's value over the second's, for the same species and unit (the lowest
/// value of each, the most sensitive result).
#[derive(Serialize)]
struct Ratio<'a> {
    first: &'a str,
    second: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    species: Option<&'a str>,
    unit: &'a str,
    ratio: f64,
}

type DoseTable<'a> = InOrder<&'a str, Option<Vec<Dose<'a>>>>;

#[derive(Serialize)]
struct DoseComparison<'a> {
    ld50_oral: DoseTable<'a>,
    ld50_ratios: Option<Vec<Ratio<'a>>>,
    noael: DoseTable<'a>,
    noael_ratios: Option<Vec<Ratio<'a>>>,
    rfd: DoseTable<'a>,
    /// Oral health-based guidance values (ADI, TDI, TWI, ARfD): each agency's latest of each.
    guidance_values: DoseTable<'a>,
}

#[derive(Serialize)]
struct Carcinogenicity {
    iarc_group: Option<&'static str>,
    iarc_description: Option<&'static str>,
    ntp: Option<&'static str>,
}

#[derive(Serialize)]
struct HazardProfile<'a> {
    /// The rule of the decisive evidence in the context, and its words.
    hazard_class: Option<&'static str>,
    hazard_label: Option<&'static str>,
    risk_level: Option<RiskLevel>,
    decisive_findings: Vec<&'a str>,
    carcinogenicity: Option<Carcinogenicity>,
    h_codes: Vec<&'a str>,
}

#[derive(Serialize)]
struct Shared<'a> {
    shared: Vec<&'a str>,
    unique: InOrder<&'a str, Vec<&'a str>>,
}

#[derive(Serialize)]
struct HazardComparison<'a> {
    profiles: InOrder<&'a str, HazardProfile<'a>>,
    ghs: Shared<'a>,
}

#[derive(Serialize)]
struct Quantity<'a> {
    value: f64,
    unit: &'a str,
    source: &'a str,
}

fn quantity(m: Option<&Measured>) -> Option<Quantity<'_>> {
    m.map(|m| Quantity {
        value: m.value,
        unit: &m.unit,
        source: &m.source,
    })
}

#[derive(Serialize)]
struct Flag<'a> {
    value: bool,
    source: &'a str,
}

#[derive(Serialize)]
struct Bioaccumulation<'a> {
    log_kow: Option<Quantity<'a>>,
    bcf: Option<Quantity<'a>>,
}

#[derive(Serialize)]
struct Persistence<'a> {
    persistent_bioaccumulative: Option<Flag<'a>>,
    atmospheric_lifetime: Option<Quantity<'a>>,
}

#[derive(Serialize)]
struct Fate<'a> {
    bioaccumulation: Bioaccumulation<'a>,
    persistence: Persistence<'a>,
    soil_mobility: Option<Quantity<'a>>,
}

#[derive(Serialize)]
struct ExposureSources<'a> {
    categories: InOrder<&'a str, Vec<&'a str>>,
    shared: Vec<&'a str>,
    unique: InOrder<&'a str, Vec<&'a str>>,
}

#[derive(Serialize)]
struct Summary {
    key_differences: Vec<String>,
    shared_traits: Vec<String>,
}

#[derive(Serialize)]
struct InContext<'a> {
    compounds: Vec<Ident<'a>>,
    context: &'a str,
    risk_profiles: RiskProfiles<'a>,
    regulatory: RegulatoryComparison<'a>,
    dose_response: DoseComparison<'a>,
    hazard_profiles: HazardComparison<'a>,
    environmental_fate: InOrder<&'a str, Fate<'a>>,
    exposure_sources: ExposureSources<'a>,
    summary: Summary,
}

/// Every unordered pair, in request order.
fn pairs<T>(items: &[T]) -> impl Iterator<Item = (&T, &T)> {
    items
        .iter()
        .enumerate()
        .flat_map(move |(i, a)| items[i + 1..].iter().map(move |b| (a, b)))
}

/// What every set holds, and what only one of them does.
fn split<'a>(sets: &[BTreeSet<&'a str>]) -> (Vec<&'a str>, Vec<Vec<&'a str>>) {
    let shared = sets
        .first()
        .map(|first| {
            first
                .iter()
                .filter(|x| sets.iter().all(|s| s.contains(*x)))
                .copied()
                .collect()
        })
        .unwrap_or_default();
    let unique = sets
        .iter()
        .enumerate()
        .map(|(i, set)| {
            set.iter()
                .filter(|x| {
                    sets.iter()
                        .enumerate()
                        .all(|(j, s)| j == i || !s.contains(*x))
                })
                .copied()
                .collect()
        })
        .collect();
    (shared, unique)
}

/// The words of a rule of the aggregation (`aggregate::rules`), as a hazard label.
fn hazard_label(rule: &'static str) -> &'static str {
    match rule {
        "carcinogenicity" => "Carcinogenicity",
        "mutagenicity" => "Germ cell mutagenicity",
        "reproductive_toxicity" => "Reproductive or developmental toxicity",
        "organ_toxicity" => "Specific target organ toxicity",
        "acute_toxicity" => "Acute toxicity",
        "endocrine_disruption" => "Endocrine disruption",
        "sensitisation" => "Sensitisation",
        "local_effects" => "Local effects (corrosion, irritation)",
        "potency" => "Potency (reference values and limits)",
        "route_relevance" => "Systemic hazard by this route",
        "watch_lists" => "Watch-listed toxicant",
        "low_concern" => "Low concern",
        "life_stage" => "Life-stage sensitivity",
        "species" => "Species-specific toxicity",
        "environment" => "Environmental hazard",
        "aquatic" => "Aquatic toxicity",
        "wildlife" => "Wildlife toxicity",
        "pollinators" => "Pollinator toxicity",
        other => other,
    }
}

fn in_context<'a>(
    dataset: &'a Dataset,
    all: &'a [Compared<'a>],
    context: &'a str,
) -> InContext<'a> {
    let risk_profiles = RiskProfiles {
        profiles: Compared::each(all, |c| c.result(context).map(|r| cell(r, true))),
        deltas: pairs(all)
            .map(|(a, b)| Delta {
                first: a.id(),
                second: b.id(),
                tier_difference: a
                    .result(context)
                    .zip(b.result(context))
                    .map(|(x, y)| rank(x.risk_level) - rank(y.risk_level)),
            })
            .collect(),
    };
    let regulatory = regulatory(all);
    let dose_response = dose_response(all);
    let hazard_profiles = hazards(all, context);
    let environmental_fate = Compared::each(all, |c| {
        let fate = &c.record.properties.environmental_fate;
        Fate {
            bioaccumulation: Bioaccumulation {
                log_kow: quantity(fate.log_kow.as_ref()),
                // The record model has no BCF or Koc: no source table of the corpus gives
                // them, so these stay null rather than being estimated from log Kow.
                bcf: None,
            },
            persistence: Persistence {
                persistent_bioaccumulative: fate.persistent_bioaccumulative.as_ref().map(|p| {
                    Flag {
                        value: p.value,
                        source: &p.source,
                    }
                }),
                atmospheric_lifetime: quantity(fate.atmospheric_lifetime.as_ref()),
            },
            soil_mobility: None,
        }
    });
    let found: Vec<BTreeSet<&str>> = all
        .iter()
        .map(|c| {
            c.record
                .found_in
                .iter()
                .map(|f| f.category.as_str())
                .collect()
        })
        .collect();
    let (shared, unique) = split(&found);
    let exposure_sources = ExposureSources {
        categories: InOrder(
            all.iter()
                .zip(&found)
                .map(|(c, f)| (c.id(), f.iter().copied().collect()))
                .collect(),
        ),
        shared,
        unique: InOrder(all.iter().map(Compared::id).zip(unique).collect()),
    };
    let summary = summarise(
        dataset,
        all,
        context,
        &regulatory,
        &hazard_profiles,
        &exposure_sources,
        &dose_response,
    );
    InContext {
        compounds: idents(all),
        context,
        risk_profiles,
        regulatory,
        dose_response,
        hazard_profiles,
        environmental_fate,
        exposure_sources,
        summary,
    }
}

fn regulatory<'a>(all: &'a [Compared<'a>]) -> RegulatoryComparison<'a> {
    let mut agencies: BTreeSet<&str> = BTreeSet::new();
    for c in all {
        agencies.extend(
            c.record
                .regulatory
                .classifications
                .iter()
                .map(|x| x.agency.as_str()),
        );
    }
    let mut matrix = BTreeMap::new();
    let mut agreement = Agreement {
        classify_all: Vec::new(),
        classify_some: Vec::new(),
    };
    for agency in agencies {
        let row = Compared::each(all, |c| {
            let cells: Vec<Classified<'_>> = c
                .record
                .regulatory
                .classifications
                .iter()
                .filter(|x| x.agency == agency)
                .map(|x| Classified {
                    attribution: &x.attribution,
                    classification: &x.classification,
                    year: x.year,
                })
                .collect();
            (!cells.is_empty()).then_some(cells)
        });
        let classified: Vec<&str> = row
            .0
            .iter()
            .filter(|(_, cells)| cells.is_some())
            .map(|(id, _)| *id)
            .collect();
        if classified.len() == all.len() {
            agreement.classify_all.push(agency);
        } else {
            agreement.classify_some.push(Partial {
                agency,
                compounds: classified,
            });
        }
        matrix.insert(agency, row);
    }
    RegulatoryComparison { matrix, agreement }
}

fn is_oral(d: &DoseValue) -> bool {
    d.route
        .as_deref()
        .is_some_and(|r| r.to_ascii_lowercase().contains("oral"))
}

fn doses<'a>(all: &'a [Compared<'a>], keep: impl Fn(&DoseValue) -> bool) -> DoseTable<'a> {
    Compared::each(all, |c| {
        let found: Vec<Dose<'_>> = c
            .record
            .dose_response
            .iter()
            .filter(|d| keep(d))
            .map(Dose::of)
            .collect();
        (!found.is_empty()).then_some(found)
    })
}

/// Ratios of the lowest values of each pair, per species and unit both have; null when no
/// pair has a common species and unit.
fn ratios<'a>(
    all: &'a [Compared<'a>],
    keep: impl Fn(&DoseValue) -> bool,
) -> Option<Vec<Ratio<'a>>> {
    type Key<'k> = (Option<&'k str>, &'k str);
    let lowest: Vec<BTreeMap<Key<'a>, f64>> = all
        .iter()
        .map(|c| {
            let mut m: BTreeMap<Key<'a>, f64> = BTreeMap::new();
            for d in c.record.dose_response.iter().filter(|d| keep(d)) {
                let v = m
                    .entry((d.species.as_deref(), d.unit.as_str()))
                    .or_insert(d.value);
                *v = v.min(d.value);
            }
            m
        })
        .collect();
    let mut out = Vec::new();
    for (i, a) in all.iter().enumerate() {
        for (j, b) in all.iter().enumerate().skip(i + 1) {
            for (key, va) in &lowest[i] {
                if let Some(vb) = lowest[j].get(key)
                    && *vb > 0.0
                    && (va / vb).is_finite()
                {
                    out.push(Ratio {
                        first: a.id(),
                        second: b.id(),
                        species: key.0,
                        unit: key.1,
                        ratio: significant(va / vb),
                    });
                }
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// `v` (positive, finite) to 4 significant digits.
fn significant(v: f64) -> f64 {
    let scale = 10f64.powi(3 - v.log10().floor() as i32);
    let rounded = (v * scale).round() / scale;
    // At the ends of the f64 range the scale overflows: keep the value as it is.
    if rounded.is_finite() { rounded } else { v }
}

fn dose_response<'a>(all: &'a [Compared<'a>]) -> DoseComparison<'a> {
    let ld50 = |d: &DoseValue| d.kind == DoseKind::Ld50 && is_oral(d) && d.species.is_some();
    let noael = |d: &DoseValue| d.kind == DoseKind::NoaelReference;
    let guidance = |k: DoseKind| {
        matches!(
            k,
            DoseKind::Adi | DoseKind::Tdi | DoseKind::Twi | DoseKind::Arfd
        )
    };
    DoseComparison {
        ld50_oral: doses(all, ld50),
        ld50_ratios: ratios(all, ld50),
        noael: doses(all, noael),
        noael_ratios: ratios(all, noael),
        rfd: doses(all, |d| d.kind == DoseKind::Rfd),
        guidance_values: Compared::each(all, |c| {
            // Each agency's latest evaluation of each kind: later ones supersede earlier.
            let mut latest: BTreeMap<(&str, DoseKind), &DoseValue> = BTreeMap::new();
            for d in c.record.dose_response.iter().filter(|d| guidance(d.kind)) {
                let slot = latest.entry((d.agency.as_str(), d.kind)).or_insert(d);
                if d.year > slot.year {
                    *slot = d;
                }
            }
            (!latest.is_empty()).then(|| latest.into_values().map(Dose::of).collect())
        }),
    }
}

fn h_codes(record: &CompoundRecord) -> BTreeSet<&str> {
    record
        .safety
        .ghs
        .iter()
        .flat_map(|g| g.h_codes.iter().map(String::as_str))
        .collect()
}

fn hazards<'a>(all: &'a [Compared<'a>], context: &str) -> HazardComparison<'a> {
    let codes: Vec<BTreeSet<&str>> = all.iter().map(|c| h_codes(c.record)).collect();
    let (shared, unique) = split(&codes);
    let profiles = InOrder(
        all.iter()
            .zip(&codes)
            .map(|(c, codes)| {
                let result = c.result(context);
                let decisive: Vec<_> = result
                    .map(|r| r.evidence.iter().filter(|e| e.decisive).collect())
                    .unwrap_or_default();
                // Of the decisive rules, the first in the methodology's order: the hazard
                // classes come before potency, route and life-stage adjustments.
                let rule = decisive.iter().map(|e| e.rule).min_by_key(|rule| {
                    RULES
                        .iter()
                        .position(|r| r.id == *rule)
                        .unwrap_or(RULES.len())
                });
                let mut findings: Vec<&str> = Vec::new();
                for e in &decisive {
                    if !findings.contains(&e.finding.as_str()) {
                        findings.push(&e.finding);
                    }
                }
                let listings = &c.record.regulatory.listings;
                let iarc = listings.iarc_group.as_ref().map(|l| l.group);
                let ntp = listings.ntp_roc.as_ref().map(|l| l.listing.description());
                let carcinogenicity = (iarc.is_some() || ntp.is_some()).then(|| Carcinogenicity {
                    iarc_group: iarc.map(|g| g.label()),
                    iarc_description: iarc.map(|g| g.description()),
                    ntp,
                });
                let profile = HazardProfile {
                    hazard_class: rule,
                    hazard_label: rule.map(hazard_label),
                    risk_level: result.map(|r| r.risk_level),
                    decisive_findings: findings,
                    carcinogenicity,
                    h_codes: codes.iter().copied().collect(),
                };
                (c.id(), profile)
            })
            .collect(),
    );
    HazardComparison {
        profiles,
        ghs: Shared {
            shared,
            unique: InOrder(all.iter().map(Compared::id).zip(unique).collect()),
        },
    }
}

/// "a, b and c".
fn listed<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => format!(
            "{} and {}",
            rest.iter()
                .map(AsRef::as_ref)
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

/// How the summary names every compared compound.
fn every(n: usize) -> &'static str {
    if n == 2 { "Both" } else { "All" }
}

fn all_equal<T: PartialEq>(values: &[T]) -> bool {
    values.windows(2).all(|w| w[0] == w[1])
}

/// The summary as it is written.
struct Notes<'c, 'd> {
    all: &'c [Compared<'d>],
    differences: Vec<String>,
    shared: Vec<String>,
}

impl Notes<'_, '_> {
    /// One property of every compound: a shared trait when all have the same value, a
    /// difference naming each compound's value when they differ, nothing when none has one.
    fn property<T: PartialEq>(
        &mut self,
        what: &str,
        values: &[Option<T>],
        shared: impl FnOnce(&T) -> String,
        each: impl Fn(Option<&T>) -> String,
    ) {
        match values.first() {
            Some(Some(v)) if all_equal(values) => self.shared.push(shared(v)),
            _ if !all_equal(values) => {
                let each: Vec<String> = self
                    .all
                    .iter()
                    .zip(values)
                    .map(|(c, v)| format!("{} {}", c.name(), each(v.as_ref())))
                    .collect();
                self.differences
                    .push(format!("{what}: {}", each.join("; ")));
            }
            _ => {}
        }
    }

    fn names(&self, ids: &[&str]) -> String {
        let names: Vec<&str> = ids
            .iter()
            .filter_map(|id| self.all.iter().find(|c| c.id() == *id))
            .map(Compared::name)
            .collect();
        listed(&names)
    }
}

fn summarise(
    dataset: &Dataset,
    all: &[Compared<'_>],
    context: &str,
    regulatory: &RegulatoryComparison<'_>,
    hazards: &HazardComparison<'_>,
    exposure: &ExposureSources<'_>,
    dose: &DoseComparison<'_>,
) -> Summary {
    let label = label(dataset, context);
    let every = every(all.len());
    let mut notes = Notes {
        all,
        differences: Vec::new(),
        shared: Vec::new(),
    };
    let profiles = &hazards.profiles.0;

    let tiers: Vec<Option<RiskLevel>> = profiles.iter().map(|(_, p)| p.risk_level).collect();
    notes.property(
        &format!("Risk for {label}"),
        &tiers,
        |t| format!("{every} are {} risk for {label}", t.words()),
        |t| t.map_or("not assessable", |t| t.words()).to_string(),
    );
    let classes: Vec<Option<&str>> = profiles.iter().map(|(_, p)| p.hazard_label).collect();
    notes.property(
        "Deciding hazard",
        &classes,
        |c| {
            format!(
                "The deciding hazard of {} is {}",
                every.to_lowercase(),
                c.to_lowercase()
            )
        },
        |c| c.map_or("none".into(), |c| c.to_lowercase()),
    );
    let iarc: Vec<Option<&str>> = profiles
        .iter()
        .map(|(_, p)| p.carcinogenicity.as_ref().and_then(|c| c.iarc_group))
        .collect();
    notes.property(
        "IARC",
        &iarc,
        |g| format!("{every} are in IARC Group {g}"),
        |g| g.map_or("not evaluated".into(), |g| format!("Group {g}")),
    );

    if !hazards.ghs.shared.is_empty() {
        notes
            .shared
            .push(format!("{every} carry {}", listed(&hazards.ghs.shared)));
    }
    for (c, (_, codes)) in all.iter().zip(&hazards.ghs.unique.0) {
        if !codes.is_empty() {
            notes
                .differences
                .push(format!("Only {} carries {}", c.name(), listed(codes)));
        }
    }

    if !regulatory.agreement.classify_all.is_empty() {
        notes.shared.push(format!(
            "{every} are classified by {}",
            listed(&regulatory.agreement.classify_all)
        ));
    }
    for p in &regulatory.agreement.classify_some {
        let others: Vec<&str> = all
            .iter()
            .map(Compared::id)
            .filter(|id| !p.compounds.contains(id))
            .collect();
        let line = format!(
            "{} classifies {} but not {}",
            p.agency,
            notes.names(&p.compounds),
            notes.names(&others)
        );
        notes.differences.push(line);
    }

    let endocrine: Vec<BTreeSet<&str>> = all
        .iter()
        .map(|c| {
            c.record
                .safety
                .endocrine_disruption
                .iter()
                .map(|e| e.agency.as_str())
                .collect()
        })
        .collect();
    let (agencies, _) = split(&endocrine);
    if !agencies.is_empty() {
        notes.shared.push(format!(
            "{every} have endocrine-disruption findings ({})",
            listed(&agencies)
        ));
    }

    let kinds: Vec<Option<&str>> = all.iter().map(|c| c.record.kind.as_deref()).collect();
    notes.property(
        "Use class",
        &kinds,
        |k| format!("{every} have the use class {}", k.replace('_', " ")),
        |k| k.map_or("none".into(), |k| k.replace('_', " ")),
    );
    let kow: Vec<Option<f64>> = all
        .iter()
        .map(|c| {
            let fate = &c.record.properties.environmental_fate;
            fate.log_kow.as_ref().map(|m| m.value)
        })
        .collect();
    notes.property(
        "log Kow (bioaccumulation potential)",
        &kow,
        |k| format!("{every} have a log Kow of {}", fmt_num(*k)),
        |k| k.map_or("not available".into(), |k| fmt_num(*k)),
    );

    if !exposure.shared.is_empty() {
        notes.shared.push(format!(
            "{every} are found in {}",
            listed(&exposure.shared).replace('_', " ")
        ));
    }
    for (c, (_, only)) in all.iter().zip(&exposure.unique.0) {
        if !only.is_empty() {
            notes.differences.push(format!(
                "Only {} is found in {}",
                c.name(),
                listed(only).replace('_', " ")
            ));
        }
    }

    for r in dose.ld50_ratios.iter().flatten() {
        let line = format!(
            "Oral LD50{}: {} is {} times that of {}",
            r.species.map_or(String::new(), |s| format!(" ({s})")),
            notes.names(&[r.first]),
            fmt_num(r.ratio),
            notes.names(&[r.second])
        );
        notes.differences.push(line);
    }
    let guided: Vec<&str> = dose
        .guidance_values
        .0
        .iter()
        .filter(|(_, v)| v.is_some())
        .map(|(id, _)| *id)
        .collect();
    if !guided.is_empty() && guided.len() < all.len() {
        let line = format!(
            "Oral guidance values (ADI, TDI, TWI, ARfD) exist for {} only",
            notes.names(&guided)
        );
        notes.differences.push(line);
    }

    Summary {
        key_differences: notes.differences,
        shared_traits: notes.shared,
    }
}

// ---- Several contexts -----------------------------------------------------------------------

#[derive(Serialize)]
struct Ranked<'a> {
    context: &'a str,
    risk_level: RiskLevel,
    confidence: f64,
}

#[derive(Serialize)]
struct AcrossContexts<'a> {
    compounds: Vec<Ident<'a>>,
    contexts: Vec<&'a str>,
    /// The context escalation is measured from: `human_adult` when compared, else the first.
    baseline: &'a str,
    /// Compound -> context -> tier, or null where the context has no evidence.
    risk_matrix: InOrder<&'a str, InOrder<&'a str, Option<TierCell<'a>>>>,
    /// Compound -> context -> tier rank minus the baseline's (null when either is missing).
    escalation_factors: InOrder<&'a str, InOrder<&'a str, Option<i8>>>,
    /// Compound -> its assessable contexts, most vulnerable first.
    vulnerability_rankings: InOrder<&'a str, Vec<Ranked<'a>>>,
    cross_context_insights: Vec<String>,
}

fn across_contexts<'a>(
    dataset: &'a Dataset,
    all: &'a [Compared<'a>],
    contexts: &[&'a str],
) -> AcrossContexts<'a> {
    let baseline = if contexts.contains(&DEFAULT_CONTEXT) {
        DEFAULT_CONTEXT
    } else {
        contexts[0]
    };
    let risk_matrix = Compared::each(all, |c| {
        InOrder(
            contexts
                .iter()
                .map(|ctx| (*ctx, c.result(ctx).map(|r| cell(r, false))))
                .collect(),
        )
    });
    let escalation_factors = Compared::each(all, |c| {
        let base = c.result(baseline).map(|r| rank(r.risk_level));
        InOrder(
            contexts
                .iter()
                .map(|ctx| {
                    let here = c.result(ctx).map(|r| rank(r.risk_level));
                    (*ctx, here.zip(base).map(|(h, b)| h - b))
                })
                .collect(),
        )
    });
    let vulnerability_rankings = Compared::each(all, |c| ranking(c, contexts));
    AcrossContexts {
        compounds: idents(all),
        contexts: contexts.to_vec(),
        baseline,
        risk_matrix,
        escalation_factors,
        vulnerability_rankings,
        cross_context_insights: insights(dataset, all, contexts, baseline),
    }
}

/// A compound's assessable contexts by tier, then confidence, then request order.
fn ranking<'a>(c: &'a Compared<'_>, contexts: &[&'a str]) -> Vec<Ranked<'a>> {
    let mut ranked: Vec<Ranked<'a>> = contexts
        .iter()
        .filter_map(|ctx| {
            c.result(ctx).map(|r| Ranked {
                context: ctx,
                risk_level: r.risk_level,
                confidence: r.confidence,
            })
        })
        .collect();
    // Stable: equal tiers and confidences keep the request's order.
    ranked.sort_by(|a, b| {
        b.risk_level
            .cmp(&a.risk_level)
            .then(b.confidence.total_cmp(&a.confidence))
    });
    ranked
}

fn insights(
    dataset: &Dataset,
    all: &[Compared<'_>],
    contexts: &[&str],
    baseline: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    let base_label = label(dataset, baseline);
    for c in all {
        let ranked = ranking(c, contexts);
        let Some(top) = ranked.first() else {
            out.push(format!(
                "{} has no evidence for any of the compared contexts",
                c.name()
            ));
            continue;
        };
        let worst: Vec<&str> = ranked
            .iter()
            .filter(|r| r.risk_level == top.risk_level)
            .map(|r| label(dataset, r.context))
            .collect();
        if worst.len() == ranked.len() && ranked.len() == contexts.len() {
            out.push(format!(
                "{} is {} risk in every compared context",
                c.name(),
                top.risk_level.words()
            ));
        } else {
            let mut line = format!(
                "{} is most vulnerable for {} ({} risk)",
                c.name(),
                listed(&worst),
                top.risk_level.words()
            );
            if let Some(base) = c.result(baseline) {
                let up = rank(top.risk_level) - rank(base.risk_level);
                if up > 0 {
                    line.push_str(&format!(
                        ", {up} tier{} above {base_label}",
                        if up == 1 { "" } else { "s" }
                    ));
                }
            }
            out.push(line);
        }
        let missing: Vec<&str> = contexts
            .iter()
            .filter(|ctx| c.result(ctx).is_none())
            .map(|ctx| label(dataset, ctx))
            .collect();
        if !missing.is_empty() && missing.len() < contexts.len() {
            out.push(format!(
                "{} has no evidence for {}",
                c.name(),
                listed(&missing)
            ));
        }
    }
    for ctx in contexts {
        let tiers: Vec<Option<RiskLevel>> = all
            .iter()
            .map(|c| c.result(ctx).map(|r| r.risk_level))
            .collect();
        let ctx_label = label(dataset, ctx);
        let Some(top) = tiers.iter().flatten().max() else {
            continue;
        };
        if all_equal(&tiers) {
            out.push(format!(
                "For {ctx_label}, {} compounds are {} risk",
                every(all.len()).to_lowercase(),
                top.words()
            ));
            continue;
        }
        let leaders: Vec<&str> = all
            .iter()
            .zip(&tiers)
            .filter(|(_, t)| *t == &Some(*top))
            .map(|(c, _)| c.name())
            .collect();
        if leaders.len() < all.len() {
            out.push(format!(
                "For {ctx_label}, {} {} the highest risk ({})",
                listed(&leaders),
                if leaders.len() == 1 { "has" } else { "have" },
                top.words()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::OnceLock;

    use serde_json::Value;

    use super::*;

    fn dataset() -> &'static Dataset {
        static DATA: OnceLock<Dataset> = OnceLock::new();
        DATA.get_or_init(|| {
            crate::load::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../data"))
                .expect("the committed dataset loads")
                .0
        })
    }

    const BPA: &str = "hq-c-org-000218";
    const BPS: &str = "hq-c-org-000221";

    fn run(ids: Option<&str>, context: Option<&str>, contexts: Option<&str>) -> (u16, Value) {
        let r = compare(dataset(), ids, context, contexts);
        assert_eq!(r.cache, Cache::Private);
        (r.status, serde_json::from_slice(&r.body).unwrap())
    }

    fn strings(v: &Value) -> Vec<&str> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect()
    }

    #[test]
    fn bpa_and_bps_side_by_side() {
        let (status, body) = run(Some("80-05-7, 80-09-1"), None, None);
        assert_eq!(status, 200, "{body}");
        let c = &body["comparison"];
        assert_eq!(c["context"], "human_adult");
        assert_eq!(body["meta"]["compared"], 2);
        assert_eq!(body["meta"]["context"], "human_adult");
        assert_eq!(body["meta"]["generated_from"], "dataset");
        let ids: Vec<&str> = c["compounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, [BPA, BPS]);
        assert_eq!(c["compounds"][0]["cas"], "80-05-7");

        // Tiers come from the assessment, the delta is their rank difference.
        let a = aggregate::assess(&dataset().compounds[BPA]);
        let s = aggregate::assess(&dataset().compounds[BPS]);
        let (ta, ts) = (
            a.get("human_adult").unwrap().risk_level,
            s.get("human_adult").unwrap().risk_level,
        );
        let profiles = &c["risk_profiles"]["profiles"];
        assert_eq!(profiles[BPA]["risk_level"], ta.as_str());
        assert_eq!(profiles[BPS]["risk_level"], ts.as_str());
        assert_eq!(
            c["risk_profiles"]["deltas"][0]["tier_difference"],
            rank(ta) - rank(ts)
        );

        // GHS: BPA's CLP entry carries H360F, H335, H318, H317; BPS's HCIS entry H361f.
        let ghs = &c["hazard_profiles"]["ghs"];
        let bpa_only = strings(&ghs["unique"][BPA]);
        for code in ["H360F", "H318", "H317", "H335"] {
            assert!(bpa_only.contains(&code), "{code}");
        }
        assert_eq!(strings(&ghs["unique"][BPS]), ["H361f"]);
        assert_eq!(ghs["shared"].as_array().unwrap().len(), 0);
        let profile = &c["hazard_profiles"]["profiles"][BPA];
        assert!(profile["hazard_class"].is_string());
        assert!(profile["hazard_label"].is_string());

        // Both are Prop 65, SVHC, CosIng and FDA food-contact listed; the CLP harmonised
        // classification is BPA's alone.
        let agreement = &c["regulatory"]["agreement"];
        for agency in ["ECHA", "FDA", "OEHHA"] {
            assert!(
                strings(&agreement["classify_all"]).contains(&agency),
                "{agency}"
            );
        }
        assert!(c["regulatory"]["matrix"]["ECHA"][BPS].is_array());

        // Dose-response: only values the records hold; BPA has EFSA TDIs, BPS none.
        let dose = &c["dose_response"];
        assert_eq!(dose["ld50_ratios"], Value::Null);
        assert_eq!(dose["ld50_oral"][BPA], Value::Null);
        assert_eq!(dose["rfd"][BPS], Value::Null);
        assert!(dose["guidance_values"][BPA].is_array());
        assert_eq!(dose["guidance_values"][BPS], Value::Null);

        // Fate: BPA has a log Kow, BPS none; no Koc is ever made up.
        let fate = &c["environmental_fate"];
        assert_eq!(fate[BPA]["bioaccumulation"]["log_kow"]["value"], 3.32);
        assert_eq!(fate[BPS]["bioaccumulation"]["log_kow"], Value::Null);
        assert_eq!(fate[BPA]["soil_mobility"], Value::Null);

        assert_eq!(
            strings(&c["exposure_sources"]["shared"]),
            ["food_contact_materials"]
        );
        let summary = &c["summary"];
        let differences = strings(&summary["key_differences"]).join("\n");
        let traits = strings(&summary["shared_traits"]).join("\n");
        assert!(
            differences.contains("Only Bisphenol A (BPA) carries"),
            "{differences}"
        );
        assert!(
            traits.contains("Both have the use class bisphenol"),
            "{traits}"
        );
        assert!(
            traits.contains("endocrine-disruption findings (ECHA)"),
            "{traits}"
        );
    }

    #[test]
    fn ids_are_deduplicated_and_counted() {
        // The same compound by id, by CAS and twice: one compound.
        let (status, _) = run(Some(&format!("{BPA},80-05-7,{BPA}")), None, None);
        assert_eq!(status, 400);
        let (status, body) = run(Some(&format!("{BPA}, {BPS},{BPA},,")), None, None);
        assert_eq!(status, 200);
        assert_eq!(body["meta"]["compared"], 2);
        assert_eq!(run(Some(BPA), None, None).0, 400);
        assert_eq!(run(None, None, None).0, 400);
        assert_eq!(run(Some(""), None, None).0, 400);
        let six: Vec<String> = dataset().compounds.keys().take(6).cloned().collect();
        assert_eq!(run(Some(&six.join(",")), None, None).0, 400);
        assert_eq!(run(Some(&six[..5].join(",")), None, None).0, 200);
    }

    #[test]
    fn unknown_malformed_and_refused_compounds() {
        let (status, body) = run(Some(&format!("{BPA},hq-c-org-999999")), None, None);
        assert_eq!(status, 404);
        assert!(body["error"].as_str().unwrap().contains("hq-c-org-999999"));
        let (status, body) = run(Some(&format!("{BPA},not-an-id")), None, None);
        assert_eq!(status, 400);
        assert!(body["error"].as_str().unwrap().contains("not-an-id"));
        let threat = dataset()
            .compounds
            .values()
            .find(|r| r.watch_class == WatchClass::CriticalThreat)
            .expect("the corpus has critical-threat records");
        let (status, _) = run(Some(&format!("{BPA},{}", threat.hq_id)), None, None);
        assert_eq!(status, 403);
    }

    #[test]
    fn context_parameters() {
        let pair = format!("{BPA},{BPS}");
        let (status, body) = run(Some(&pair), Some("pregnancy"), None);
        assert_eq!(status, 200);
        assert_eq!(body["comparison"]["context"], "human_pregnant");
        assert_eq!(run(Some(&pair), Some("martian"), None).0, 400);
        assert_eq!(
            run(Some(&pair), Some("human_adult"), Some("dog,cat")).0,
            400
        );
        assert_eq!(run(Some(&pair), None, Some("dog")).0, 400);
        assert_eq!(run(Some(&pair), None, Some("dog,dogs")).0, 400);
        assert_eq!(
            run(Some(&pair), None, Some("dog,cat,fish,bees,skin,oral")).0,
            400
        );
        assert_eq!(run(Some(&pair), None, Some("dog,venus")).0, 400);
    }

    #[test]
    fn contexts_mode_is_a_compound_by_context_matrix() {
        let (status, body) = run(
            Some(&format!("{BPA},{BPS}")),
            None,
            Some("human_infant,adult,human_pregnant,pollinator"),
        );
        assert_eq!(status, 200, "{body}");
        let c = &body["comparison"];
        let contexts = [
            "human_infant",
            "human_adult",
            "human_pregnant",
            "pollinator",
        ];
        assert_eq!(strings(&c["contexts"]), contexts);
        assert_eq!(strings(&body["meta"]["contexts"]), contexts);
        assert_eq!(c["baseline"], "human_adult");
        let matrix = c["risk_matrix"].as_object().unwrap();
        assert_eq!(matrix.keys().collect::<Vec<_>>(), [BPA, BPS]);
        for (id, row) in matrix {
            let row = row.as_object().unwrap();
            assert_eq!(row.keys().map(String::as_str).collect::<Vec<_>>(), contexts);
            let a = aggregate::assess(&dataset().compounds[id.as_str()]);
            for ctx in contexts {
                match a.get(ctx) {
                    Some(r) => assert_eq!(row[ctx]["risk_level"], r.risk_level.as_str()),
                    None => assert_eq!(row[ctx], Value::Null),
                }
            }
            let base = a.get("human_adult").map(|r| rank(r.risk_level));
            let infant = a.get("human_infant").map(|r| rank(r.risk_level));
            let factor = &c["escalation_factors"][id.as_str()];
            assert_eq!(factor["human_adult"], 0);
            assert_eq!(
                factor["human_infant"].as_i64(),
                infant.zip(base).map(|(i, b)| i64::from(i - b))
            );
            let ranked = c["vulnerability_rankings"][id.as_str()].as_array().unwrap();
            let ranks: Vec<i8> = ranked
                .iter()
                .map(|r| rank(RiskLevel::parse(r["risk_level"].as_str().unwrap()).unwrap()))
                .collect();
            assert!(ranks.windows(2).all(|w| w[0] >= w[1]));
        }
        assert!(!c["cross_context_insights"].as_array().unwrap().is_empty());
        // Without human_adult, the first context is the baseline.
        let (_, body) = run(Some(&format!("{BPA},{BPS}")), None, Some("dog,cat"));
        assert_eq!(body["comparison"]["baseline"], "dog");
    }

    #[test]
    fn every_rule_has_a_hazard_label() {
        for rule in crate::aggregate::rules::RULES {
            if !matches!(rule.id, "confidence" | "disagreement") {
                assert_ne!(hazard_label(rule.id), rule.id, "{}", rule.id);
            }
        }
    }

    #[test]
    fn hostile_input_is_answered_without_panicking() {
        let long = "x".repeat(100_000);
        let commas = ",".repeat(100_000);
        let many: String = (0..10_000).map(|i| format!("a{i},")).collect();
        for ids in [
            long.as_str(),
            commas.as_str(),
            many.as_str(),
            "日本語,🧪",
            "hq-c-org-000218,\u{0}",
            "80-05-7,80-05-8",
        ] {
            let (status, body) = run(Some(ids), None, None);
            assert!((400..500).contains(&status), "{status}");
            assert!(body["error"].as_str().unwrap().len() < 400);
        }
        let pair = format!("{BPA},{BPS}");
        for contexts in ["日本語,🧪", commas.as_str(), ",,dog,,"] {
            assert_eq!(run(Some(&pair), None, Some(contexts)).0, 400);
        }
    }
}
