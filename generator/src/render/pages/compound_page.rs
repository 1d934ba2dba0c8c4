//! `GET /compound/{id}`: a compound's page for people. The strip of all 19 context tiers
//! (colour and text, no script), each tier's deciding evidence in plain words with agency,
//! year and source link, the classifications (current and superseded), their timeline (every
//! dated change of its classifications and reference values, as
//! `GET /api/compound/{id}/timeline` lists them), where the compound is found, alternatives,
//! the regulatory-status cells of its analyte, data gaps, the disclaimer and links to the
//! JSON, raw record and badges. A function of the record and the dataset's shared parts only
//! (never of another compound's record), so the build renders it with the compound's other
//! files.

use askama::Template;
use chrono::NaiveDate;

use super::page;
use super::site::{self, Level, SourceLink, source_link};
use crate::aggregate::{Assessment, EvidenceItem};
use crate::model::Dataset;
use crate::model::cas::Cas;
use crate::model::contexts::Context;
use crate::model::ids::CompoundId;
use crate::model::record::{CompoundRecord, Lifecycle};
use crate::model::timeline::{self, Change, Event};
use crate::model::vocab::RiskLevel;
use crate::render::Rendered;
use crate::render::badge::Style;
use crate::render::compound::{assessment, lookup};
use crate::render::error::ApiError;

/// The record's entry for source `id`.
fn source(record: &CompoundRecord, id: &str) -> SourceLink {
    source_link(&record.sources, id)
}

/// One cell of the strip and its section below.
struct Tier {
    name: &'static str,
    label: String,
    /// `None`: no evidence in this context.
    level: Option<Level>,
    summary: String,
    confidence: String,
    deciding: Vec<Evidence>,
    /// Items that did not decide the tier: counted here, listed in the context's JSON.
    other: usize,
}

pub(super) fn words(level: RiskLevel) -> &'static str {
    match level {
        RiskLevel::Low => "Low",
        RiskLevel::Moderate => "Moderate",
        RiskLevel::High => "High",
        RiskLevel::VeryHigh => "Very high",
        RiskLevel::Critical => "Critical",
    }
}

struct Evidence {
    finding: String,
    level: &'static str,
    agency: Option<String>,
    year: Option<i32>,
    source: SourceLink,
    surrogate: bool,
}

fn evidence_of(record: &CompoundRecord, e: &EvidenceItem) -> Evidence {
    Evidence {
        finding: e.finding.clone(),
        level: words(e.tier),
        agency: e.agency.clone(),
        year: e.year,
        source: source(record, &e.source),
        surrogate: e.surrogate,
    }
}

struct Identifier {
    label: &'static str,
    value: String,
    url: Option<String>,
}

struct ClassificationRow {
    agency: String,
    classification: String,
    year: String,
    status: &'static str,
    current: bool,
    url: String,
    source: String,
}

struct FoundRow {
    category: String,
    detail: String,
    source: SourceLink,
}

struct AlternativeRow {
    name: String,
    page: Option<String>,
    effectiveness: Option<String>,
    source: SourceLink,
}

/// One dated change of the compound's classifications and reference values
/// (`model::timeline`, the timeline endpoint's events).
struct TimelineRow {
    date: String,
    change: &'static str,
    what: &'static str,
    agency: String,
    value: String,
    source: SourceLink,
    by: Option<SourceLink>,
}

struct StatusRow {
    analyte: String,
    matrix: String,
    jurisdiction: String,
    value: String,
    status: String,
    effective_from: String,
    instrument: String,
}

struct Gap {
    field: String,
    reason: String,
}

#[derive(Template)]
#[template(path = "pages/compound.html", escape = "html")]
struct Page<'a> {
    nav: &'static str,
    canonical: String,
    id: &'a CompoundId,
    name: &'a str,
    cas: &'a str,
    description: String,
    identifiers: Vec<Identifier>,
    synonyms: Vec<&'a str>,
    more_synonyms: usize,
    tiers: Vec<Tier>,
    assessed: usize,
    classifications: Vec<ClassificationRow>,
    timeline: Vec<TimelineRow>,
    undated: usize,
    reviewed: &'a str,
    found_in: Vec<FoundRow>,
    alternatives: Vec<AlternativeRow>,
    no_substitute: Option<String>,
    statuses: Vec<StatusRow>,
    gaps: Vec<Gap>,
    notice: String,
    badge_context: &'static str,
    styles: [&'static str; 3],
}

/// Synonyms shown; the rest are in the raw record.
const SYNONYMS_SHOWN: usize = 12;

/// `GET /compound/{id}`; `assessed` as `render::compound::compound` takes it.
pub fn compound_page(
    d: &Dataset,
    id: &str,
    assessed: Option<&Assessment>,
) -> Result<Rendered, ApiError> {
    let record = lookup(d, id)?;
    let a = &*assessment(record, assessed);
    let tiers = tiers(d, record, a);
    let assessed_count = tiers.iter().filter(|t| t.level.is_some()).count();
    // The page is a function of its record: a change dated after the record's review is
    // scheduled (the timeline endpoint tells them apart by the day it answers).
    let reviewed =
        NaiveDate::parse_from_str(&record.meta.last_reviewed, "%Y-%m-%d").unwrap_or(NaiveDate::MIN);
    let timeline = timeline::timeline(record, reviewed);
    let primary = a.primary_context().unwrap_or("human_adult");
    let description = description(d, record, a, primary, assessed_count);
    let html = page(&Page {
        nav: "",
        canonical: site::canonical(d, &format!("/compound/{}", record.hq_id)),
        id: &record.hq_id,
        name: &record.name,
        cas: record.cas.as_str(),
        description,
        identifiers: identifiers(record),
        synonyms: record
            .identity
            .synonyms
            .iter()
            .take(SYNONYMS_SHOWN)
            .map(String::as_str)
            .collect(),
        more_synonyms: record
            .identity
            .synonyms
            .len()
            .saturating_sub(SYNONYMS_SHOWN),
        tiers,
        assessed: assessed_count,
        classifications: classifications(record),
        timeline: timeline
            .events
            .iter()
            .map(|e| timeline_row(record, e))
            .collect(),
        undated: timeline.undated,
        reviewed: &record.meta.last_reviewed,
        found_in: found_in(record),
        alternatives: alternatives(d, record),
        no_substitute: record
            .alternatives
            .as_ref()
            .and_then(|a| a.no_substitute_reason.as_ref())
            .map(|r| r.value.clone()),
        statuses: statuses(d, record),
        gaps: record
            .data_gaps
            .iter()
            .map(|g| Gap {
                field: g.field.clone(),
                reason: g.reason.clone(),
            })
            .collect(),
        notice: site::notice(d),
        badge_context: primary,
        styles: Style::ALL.map(Style::name),
    });
    Ok(html.keyed(&record.hq_id))
}

/// The compound's tier in each of the 19 contexts, with the evidence that decided it.
fn tiers(d: &Dataset, record: &CompoundRecord, a: &Assessment) -> Vec<Tier> {
    Context::ALL
        .into_iter()
        .map(|c| {
            let info = d.contexts.get(c.name());
            let result = a.get(c.name());
            let evidence = result.map_or(&[][..], |r| r.evidence.as_slice());
            Tier {
                name: c.name(),
                label: info.map_or_else(|| c.name().to_string(), |i| i.label.clone()),
                level: result.map(|r| Level::of(r.risk_level)),
                summary: result.map(|r| r.summary.clone()).unwrap_or_default(),
                confidence: result
                    .map(|r| format!("{:.0}%", r.confidence * 100.0))
                    .unwrap_or_default(),
                deciding: evidence
                    .iter()
                    .filter(|e| e.decisive)
                    .map(|e| evidence_of(record, e))
                    .collect(),
                other: evidence.iter().filter(|e| !e.decisive).count(),
            }
        })
        .collect()
}

/// The page's meta description: the tier in the primary context, or that none is assessed.
fn description(
    d: &Dataset,
    record: &CompoundRecord,
    a: &Assessment,
    primary: &str,
    assessed_count: usize,
) -> String {
    match a.get(primary).map(|r| words(r.risk_level)) {
        Some(level) => format!(
            "{} (CAS {}): {} risk level for {} and its tiers in {assessed_count} of 19 exposure contexts, with the agencies' evidence, classifications and sources.",
            record.name,
            record.cas,
            level.to_lowercase(),
            d.contexts
                .get(primary)
                .map_or(primary, |c| c.label.as_str())
        ),
        None => format!(
            "{} (CAS {}): identifiers, classifications and sources; no exposure context can be assessed from its evidence yet.",
            record.name, record.cas
        ),
    }
}

fn found_in(record: &CompoundRecord) -> Vec<FoundRow> {
    record
        .found_in
        .iter()
        .map(|f| FoundRow {
            category: f.category.replace('_', " "),
            detail: f
                .detail
                .iter()
                .cloned()
                .chain(f.examples.iter().cloned())
                .collect::<Vec<_>>()
                .join("; "),
            source: source(record, &f.source),
        })
        .collect()
}

/// The alternatives, linked to their own page when their CAS names a compound here.
fn alternatives(d: &Dataset, record: &CompoundRecord) -> Vec<AlternativeRow> {
    record
        .alternatives
        .iter()
        .flat_map(|a| a.items.iter())
        .map(|alt| AlternativeRow {
            name: alt.name.clone(),
            page: alt
                .cas
                .as_deref()
                .and_then(|c| Cas::parse(c).ok())
                .and_then(|c| d.ids.get(&c).map(ToString::to_string))
                .map(|id| format!("/compound/{id}")),
            effectiveness: alt.effectiveness.clone(),
            source: source(record, &alt.source),
        })
        .collect()
}

fn identifiers(r: &CompoundRecord) -> Vec<Identifier> {
    let mut out = vec![
        Identifier {
            label: "CAS number",
            value: r.cas.to_string(),
            url: None,
        },
        Identifier {
            label: "saferef id",
            value: r.hq_id.to_string(),
            url: None,
        },
    ];
    let mut push = |label, value: Option<&String>, url: Option<String>| {
        if let Some(v) = value {
            out.push(Identifier {
                label,
                value: v.clone(),
                url,
            });
        }
    };
    push(
        "EC number",
        r.crossrefs.ec_number.as_ref().map(|s| &s.value),
        None,
    );
    push(
        "CLP index number",
        r.crossrefs.clp_index_no.as_ref().map(|s| &s.value),
        None,
    );
    let cid = r.crossrefs.pubchem_cid.map(|c| c.to_string());
    push(
        "PubChem CID",
        cid.as_ref(),
        cid.as_ref()
            .map(|c| format!("https://pubchem.ncbi.nlm.nih.gov/compound/{c}")),
    );
    push(
        "DTXSID",
        r.crossrefs.dtxsid.as_ref().map(|s| &s.value),
        r.crossrefs.dtxsid.as_ref().map(|s| {
            format!(
                "https://comptox.epa.gov/dashboard/chemical/details/{}",
                s.value
            )
        }),
    );
    push(
        "Molecular formula",
        r.properties.chemical_properties.molecular_formula.as_ref(),
        None,
    );
    push("IUPAC name", r.identity.iupac_name.as_ref(), None);
    push("InChIKey", r.identity.inchi_key.as_ref(), None);
    out
}

fn lifecycle(status: Option<Lifecycle>) -> &'static str {
    match status {
        None | Some(Lifecycle::Current) => "current",
        Some(Lifecycle::Superseded) => "superseded",
        Some(Lifecycle::Withdrawn) => "withdrawn",
        Some(Lifecycle::Annulled) => "annulled",
        Some(Lifecycle::Pending) => "pending",
    }
}

/// Every agency's call, current first, then the superseded and other ended ones.
fn classifications(r: &CompoundRecord) -> Vec<ClassificationRow> {
    let mut rows: Vec<ClassificationRow> = r
        .regulatory
        .classifications
        .iter()
        .map(|c| ClassificationRow {
            agency: c.attribution.clone(),
            classification: match &c.qualifier {
                Some(q) => format!("{} ({q})", c.classification),
                None => c.classification.clone(),
            },
            year: c
                .date
                .clone()
                .or_else(|| c.year.map(|y| y.to_string()))
                .unwrap_or_default(),
            status: lifecycle(c.status),
            current: c.is_current(),
            url: c.source_url.clone(),
            source: source(r, &c.source).title,
        })
        .collect();
    rows.sort_by_key(|row| !row.current);
    rows
}

fn timeline_row(r: &CompoundRecord, e: &Event) -> TimelineRow {
    TimelineRow {
        date: e.date.clone(),
        change: match e.change {
            Change::Added => "came into force",
            Change::Changed => "came into force, replacing an earlier call",
            Change::Scheduled => "scheduled to come into force",
            Change::Superseded => "superseded",
            Change::Annulled => "annulled",
        },
        what: match e.subject {
            "classification" => "Classification",
            "eu_clp" => "GHS hazard classes",
            _ => "Reference value",
        },
        agency: e.agency.clone(),
        value: e.value.clone(),
        source: source(r, &e.source),
        by: e.by.as_deref().map(|by| source(r, by)),
    }
}

/// The regulatory-status cells of the analytes whose CAS list names this compound.
fn statuses(d: &Dataset, r: &CompoundRecord) -> Vec<StatusRow> {
    let vocabulary = &d.regulatory_status.vocabulary;
    let analytes: Vec<(&String, &str)> = vocabulary
        .analytes
        .iter()
        .filter(|(_, a)| a.cas.iter().any(|c| c.as_str() == r.cas.as_str()))
        .map(|(key, a)| (key, a.name.as_str()))
        .collect();
    let mut rows = Vec::new();
    for cell in d.regulatory_status.cells() {
        let Some((_, analyte)) = analytes.iter().find(|(k, _)| **k == cell.analyte) else {
            continue;
        };
        let matrix = vocabulary
            .matrices
            .get(&cell.matrix)
            .map_or(cell.matrix.as_str(), |m| m.name.as_str());
        for v in &cell.governance_timeline {
            rows.push(StatusRow {
                analyte: analyte.to_string(),
                matrix: matrix.to_string(),
                jurisdiction: cell.jurisdiction.clone(),
                value: match (v.threshold_ppb, &v.stated) {
                    (Some(ppb), _) => format!("{ppb} ppb"),
                    (None, Some(stated)) => stated.clone(),
                    (None, None) => v.legal_status.replace('_', " "),
                },
                status: v.status.clone(),
                effective_from: v.effective_from.clone().unwrap_or_default(),
                instrument: v.instrument.clone(),
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;

    use crate::model::Dataset;
    use crate::model::contexts::Context;
    use crate::model::timeline;
    use crate::render::test_data::{fixture, get_in};

    /// A page of the fixture dataset.
    fn html(url: &str) -> String {
        html_in(fixture(), url)
    }

    fn html_in(d: &Dataset, url: &str) -> String {
        let r = get_in(d, url);
        assert_eq!(r.status, 200, "{url}");
        assert_eq!(r.content_type, "text/html; charset=utf-8");
        String::from_utf8(r.body).unwrap()
    }

    #[test]
    fn benzene_shows_all_19_tiers_with_their_evidence() {
        let page = html("/compound/hq-c-org-000145");
        assert!(page.contains("<h1>Benzene</h1>"), "name heading");
        assert!(page.contains("71-43-2"));
        for c in Context::ALL {
            assert!(
                page.contains(&format!("href=\"#tier-{}\"", c.name())),
                "{}",
                c.name()
            );
        }
        assert_eq!(page.matches("class=\"tier-cell\"").count(), 19);
        assert!(page.contains("Group 1: Carcinogenic to humans"));
        assert!(page.contains("https://monographs.iarc.who.int/list-of-classifications/"));
        assert!(page.contains("href=\"/api/compound/hq-c-org-000145\""));
        assert!(page.contains("href=\"/api/compound/hq-c-org-000145/raw\""));
        assert!(page.contains("/api/badge/hq-c-org-000145"));
        assert!(page.contains("<link rel=\"canonical\" href=\"/compound/hq-c-org-000145\">"));
        assert!(page.contains("Deciding evidence"));
        assert!(!page.contains("http://"), "no insecure links");
    }

    #[test]
    fn every_tier_is_text_as_well_as_colour() {
        let d = fixture();
        let id = "hq-c-org-000145";
        let a = crate::aggregate::assess(d.compound(id).unwrap());
        let page = html(&format!("/compound/{id}"));
        for c in &a.contexts {
            let label = &d.contexts.get(c.context).unwrap().label;
            let cell = format!(
                "{label}</span> <strong>{}</strong>",
                super::words(c.risk_level)
            );
            assert!(page.contains(&cell), "{cell}");
        }
    }

    #[test]
    fn the_badge_builder_offers_every_context_and_style_and_links_back() {
        let page = html("/compound/hq-c-org-000145");
        let builder = &page[page.find("id=\"badge-builder\"").expect("a builder")..];
        let builder = &builder[..builder.find("</form>").unwrap()];
        for c in Context::ALL {
            assert!(
                builder.contains(&format!("<option value=\"{}\"", c.name())),
                "{}",
                c.name()
            );
        }
        assert_eq!(builder.matches(" selected>").count(), 1);
        for style in ["flat", "flat-square", "pill"] {
            assert!(builder.contains(&format!("name=\"style\" value=\"{style}\"")));
        }
        assert!(page.contains("id=\"copy-embed\""));
        // The snippet without script: the default badge, linked to this page.
        assert!(page.contains(
            "&lt;a href=\"/compound/hq-c-org-000145\"&gt;&lt;img src=\"/api/badge/hq-c-org-000145?context=human_adult\""
        ));
    }

    #[test]
    fn unknown_and_malformed_ids_are_the_api_errors() {
        assert_eq!(get_in(fixture(), "/compound/hq-c-org-999999").status, 404);
        assert_eq!(get_in(fixture(), "/compound/benzene").status, 400);
    }

    #[test]
    fn superseded_classifications_are_listed_after_current_ones() {
        let d = fixture();
        let (id, _) = d
            .compounds
            .iter()
            .find(|(_, r)| {
                r.watch_class == crate::model::vocab::WatchClass::None
                    && r.regulatory.classifications.iter().any(|c| !c.is_current())
            })
            .expect("a compound with a superseded call");
        let page = html_in(d, &format!("/compound/{id}"));
        let current = page.find(">current<").expect("a current call");
        let ended = page.find(">superseded<").expect("a superseded call");
        assert!(current < ended);
    }

    /// The timeline section lists the timeline endpoint's events, oldest first, as of the
    /// record's review: PFOA's IARC Group 2B call superseded, and Group 1 in force from
    /// Volume 135's evaluation (2023-11-30).
    #[test]
    fn the_timeline_lists_every_dated_change_oldest_first() {
        let d = fixture();
        let pfoa = d.by_cas("335-67-1").unwrap();
        let page = html_in(d, &format!("/compound/{}", pfoa.hq_id));
        let start = page
            .find("id=\"timeline-heading\"")
            .expect("a timeline section");
        let section = &page[start..start + page[start..].find("</section>").unwrap()];
        let day = NaiveDate::parse_from_str(&pfoa.meta.last_reviewed, "%Y-%m-%d").unwrap();
        let t = timeline::timeline(pfoa, day);
        let rows: Vec<&str> = section
            .split("<tr><td data-label=\"Date\">")
            .skip(1)
            .collect();
        assert_eq!(rows.len(), t.events.len());
        assert!(rows.len() >= 2, "{section}");
        for (row, e) in rows.iter().zip(&t.events) {
            assert!(row.starts_with(&format!("{}<", e.date)), "{row}");
        }
        let iarc = |date: &str, change: &str| {
            rows.iter()
                .find(|r| r.starts_with(date) && r.contains(">IARC<") && r.contains(change))
                .unwrap_or_else(|| panic!("{date} {change}: {section}"))
        };
        assert!(iarc("2023-11-30", "replacing an earlier call").contains("Group 1"));
        assert!(iarc("2023-11-30", ">superseded by ").contains("Group 2B"));
    }
}
