//! Regulatory responses: a compound's classifications by agency, the agencies
//! of record with their classification counts, and the compounds one agency classified.
//! Keyed endpoints, so never publicly cached.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Serialize;

use super::compound::lookup;
use super::lists::{quoted, served};
use super::paging::{Pagination, Paging};
use super::{Cache, Rendered};
use crate::model::as_of::as_of;
use crate::model::dating::DatePrecision;
use crate::model::ids::CompoundId;
use crate::model::record::{Classification, Lifecycle, Listings};
use crate::model::{Agency, Dataset};
use crate::render::error::ApiError;

/// The agency a path or query value names: its name, id or one of its attribution strings,
/// case-insensitive and ignoring surrounding spaces.
pub(crate) fn find_agency<'d>(dataset: &'d Dataset, value: &str) -> Option<&'d Agency> {
    let value = value.trim();
    dataset.agencies.iter().find(|a| {
        a.name.eq_ignore_ascii_case(value)
            || a.id.eq_ignore_ascii_case(value)
            || a.attributions.iter().any(|t| t.eq_ignore_ascii_case(value))
    })
}

/// The agencies' names, for errors that list the valid ones.
pub(crate) fn agency_names(dataset: &Dataset) -> String {
    dataset
        .agencies
        .iter()
        .map(|a| a.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Serialize, schemars::JsonSchema)]
struct ClassificationOut<'a> {
    agency: &'a str,
    attribution: &'a str,
    classification: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    year: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    basis: Option<&'a str>,
    source_url: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    effective_from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    date_precision: Option<DatePrecision>,
    #[serde(skip_serializing_if = "Option::is_none")]
    effective_until: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<Lifecycle>,
    #[serde(skip_serializing_if = "Option::is_none")]
    superseded_by: Option<&'a str>,
}

impl<'a> ClassificationOut<'a> {
    fn of(c: &'a Classification) -> ClassificationOut<'a> {
        ClassificationOut {
            agency: &c.agency,
            attribution: &c.attribution,
            classification: &c.classification,
            year: c.year,
            date: c.date.as_deref(),
            basis: c.basis.as_deref(),
            source_url: &c.source_url,
            effective_from: c.effective_from.as_deref(),
            date_precision: c.date_precision,
            effective_until: c.effective_until.as_deref(),
            status: c.status,
            superseded_by: c.superseded_by.as_deref(),
        }
    }
}

#[derive(Serialize, schemars::JsonSchema)]
struct Summary<'a> {
    by_agency: BTreeMap<&'a str, usize>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct RegulatoryOut<'a> {
    count: usize,
    summary: Summary<'a>,
    classifications: Vec<ClassificationOut<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct CompoundBody<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
    cas: &'a str,
    regulatory: RegulatoryOut<'a>,
    /// The lists of record the compound is on, with each list's own details.
    listings: &'a Listings,
    /// The day the answer stands on (`as_of`), when not today.
    #[serde(skip_serializing_if = "Option::is_none")]
    as_of: Option<String>,
}

/// `GET /api/regulatory/{id}` (keyed), as the classifications stood on `day` when given
/// (`model::as_of`: calls not yet in force left out, later ends undone).
pub fn compound(dataset: &Dataset, id: &str, day: Option<NaiveDate>) -> Rendered {
    let record = match lookup(dataset, id) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let then;
    let record = match day {
        Some(day) => {
            then = as_of(record, day);
            &then
        }
        None => record,
    };
    let list = &record.regulatory.classifications;
    let mut by_agency = BTreeMap::new();
    for c in list {
        *by_agency.entry(c.agency.as_str()).or_insert(0) += 1;
    }
    let body = CompoundBody {
        hq_id: &record.hq_id,
        name: &record.name,
        cas: record.cas.as_str(),
        regulatory: RegulatoryOut {
            count: list.len(),
            summary: Summary { by_agency },
            classifications: list.iter().map(ClassificationOut::of).collect(),
        },
        listings: &record.regulatory.listings,
        as_of: day.map(|d| d.format("%Y-%m-%d").to_string()),
    };
    Rendered::json(200, &body, Cache::Private)
}

#[derive(Serialize, schemars::JsonSchema)]
struct AgencyOut<'a> {
    id: &'a str,
    name: &'a str,
    full_name: &'a str,
    jurisdiction: &'a str,
    url: &'a str,
    classification_count: usize,
    compound_count: usize,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct AgenciesBody<'a> {
    total: usize,
    agencies: Vec<AgencyOut<'a>>,
}

/// `GET /api/regulatory/agencies` (keyed): every agency of record with the number of
/// classifications it made and of compounds it classified, most classifications first.
pub fn agencies(dataset: &Dataset) -> Rendered {
    let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for r in served(dataset) {
        let mut seen = Vec::new();
        for c in &r.regulatory.classifications {
            let count = counts.entry(c.agency.as_str()).or_default();
            count.0 += 1;
            if !seen.contains(&c.agency.as_str()) {
                seen.push(c.agency.as_str());
                count.1 += 1;
            }
        }
    }
    let mut out: Vec<AgencyOut<'_>> = dataset
        .agencies
        .iter()
        .map(|a| {
            let (classifications, compounds) =
                counts.get(a.name.as_str()).copied().unwrap_or_default();
            AgencyOut {
                id: &a.id,
                name: &a.name,
                full_name: &a.full_name,
                jurisdiction: &a.jurisdiction,
                url: &a.url,
                classification_count: classifications,
                compound_count: compounds,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.classification_count
            .cmp(&a.classification_count)
            .then(a.name.cmp(b.name))
    });
    let body = AgenciesBody {
        total: out.len(),
        agencies: out,
    };
    Rendered::json(200, &body, Cache::Private)
}

#[derive(Serialize, schemars::JsonSchema)]
struct Match<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
    attribution: &'a str,
    classification: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    year: Option<i32>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct ByAgencyBody<'a, 'b> {
    agency: &'a str,
    agency_id: &'a str,
    /// Classifications by the agency (a compound it classified twice appears twice).
    total_matches: usize,
    limit: usize,
    results: &'b [Match<'a>],
    pagination: Pagination,
}

/// `GET /api/regulatory/by-agency/{agency}?limit=&offset=` (keyed): the agency's
/// classifications in compound id order; `agency` is a name, id or attribution,
/// case-insensitive.
pub fn by_agency(dataset: &Dataset, agency: &str, paging: Paging) -> Rendered {
    let Some(found) = find_agency(dataset, agency) else {
        return Rendered::from(ApiError::not_found(format!(
            "agency {} not found; known agencies: {}",
            quoted(agency),
            agency_names(dataset)
        )));
    };
    let matches: Vec<Match<'_>> = served(dataset)
        .flat_map(|r| {
            r.regulatory
                .classifications
                .iter()
                .filter(|c| c.agency == found.name)
                .map(move |c| Match {
                    hq_id: &r.hq_id,
                    name: &r.name,
                    attribution: &c.attribution,
                    classification: &c.classification,
                    year: c.year,
                })
        })
        .collect();
    let (results, pagination) = paging.slice(&matches);
    let body = ByAgencyBody {
        agency: &found.name,
        agency_id: &found.id,
        total_matches: matches.len(),
        limit: paging.limit,
        results,
        pagination,
    };
    Rendered::json(200, &body, Cache::Private)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::api::Op;
    use crate::model::record::CompoundRecord;
    use crate::model::vocab::WatchClass;
    use crate::render::test_data::{dataset, fixture};

    fn json(r: &Rendered) -> Value {
        serde_json::from_slice(&r.body).unwrap()
    }

    /// `by_agency` with `limit` parsed as the dispatch parses it.
    fn by_agency(d: &Dataset, agency: &str, limit: Option<&str>) -> Rendered {
        let q: Vec<(String, String)> = limit
            .map(|l| ("limit".to_string(), l.to_string()))
            .into_iter()
            .collect();
        Paging::parse(Op::RegulatoryByAgency, &q)
            .map_or_else(Rendered::from, |p| super::by_agency(d, agency, p))
    }

    fn bpa() -> &'static CompoundRecord {
        fixture().by_cas("80-05-7").unwrap()
    }

    #[test]
    fn a_compound_has_its_classifications_counted_by_agency() {
        let r = compound(fixture(), &bpa().hq_id.to_string(), None);
        assert_eq!(r.status, 200);
        assert_eq!(r.cache, Cache::Private);
        let v = json(&r);
        assert_eq!(v["name"], bpa().name.as_str());
        let reg = &v["regulatory"];
        let list = reg["classifications"].as_array().unwrap();
        assert_eq!(reg["count"], list.len());
        let by_agency = reg["summary"]["by_agency"].as_object().unwrap();
        assert_eq!(
            by_agency.values().map(|n| n.as_u64().unwrap()).sum::<u64>(),
            list.len() as u64
        );
        assert_eq!(by_agency["ECHA"], 1);
        assert!(list.iter().all(|c| c["agency"].is_string()
            && c["attribution"].is_string()
            && c["source_url"].is_string()));
        assert!(v["listings"]["eu_svhc"].is_object());
    }

    #[test]
    fn bad_ids_are_400_unknown_404() {
        for bad in ["", "hq-c-org-1", "HQ-C-ORG-000001", "hq-c-org-00000١", "💥"] {
            let r = compound(fixture(), bad, None);
            assert_eq!(r.status, 400, "{bad}");
            assert!(json(&r)["error"].is_string());
        }
        assert_eq!(compound(fixture(), "hq-c-org-999999", None).status, 404);
    }

    #[test]
    fn critical_threat_compounds_are_refused_and_not_counted() {
        let d = fixture();
        let watched = d
            .compounds
            .values()
            .find(|r| r.watch_class == WatchClass::CriticalThreat)
            .expect("the CWC curation marks Schedule 1 compounds");
        assert_eq!(compound(d, &watched.hq_id.to_string(), None).status, 403);
        for a in &watched.regulatory.classifications {
            let v = json(&by_agency(d, &a.agency, Some("1000")));
            let ids: Vec<&str> = v["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["hq_id"].as_str().unwrap())
                .collect();
            assert!(!ids.contains(&watched.hq_id.to_string().as_str()));
        }
    }

    #[test]
    fn agencies_are_sorted_by_count_and_agree_with_by_agency() {
        let v = json(&agencies(fixture()));
        let list = v["agencies"].as_array().unwrap();
        assert_eq!(list.len(), fixture().agencies.len());
        assert_eq!(v["total"], list.len());
        let counts: Vec<u64> = list
            .iter()
            .map(|a| a["classification_count"].as_u64().unwrap())
            .collect();
        assert!(counts.windows(2).all(|w| w[0] >= w[1]));
        assert!(counts[0] > 0);
        let echa = list.iter().find(|a| a["name"] == "ECHA").unwrap();
        let matches = json(&by_agency(fixture(), "ECHA", None));
        assert_eq!(matches["total_matches"], echa["classification_count"]);
        assert!(echa["compound_count"].as_u64().unwrap() <= counts[0]);
    }

    #[test]
    fn bpa_is_among_echa_classifications_whatever_the_case() {
        for name in ["ECHA", "echa", " Echa ", "ECHA SVHC Candidate List"] {
            let v = json(&by_agency(fixture(), name, Some("1000")));
            assert_eq!(v["agency"], "ECHA", "{name}");
            let hit = v["results"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["hq_id"] == bpa().hq_id.to_string())
                .expect("BPA is on the SVHC Candidate List");
            assert_eq!(hit["year"], 2017);
        }
    }

    #[test]
    fn limit_bounds_and_unknown_agencies() {
        let d = dataset();
        let v = json(&by_agency(d, "IARC", None));
        assert_eq!(v["limit"], 100);
        assert_eq!(v["results"].as_array().unwrap().len(), 100);
        assert!(v["total_matches"].as_u64().unwrap() > 100);
        assert_eq!(
            json(&by_agency(d, "IARC", Some("3")))["results"]
                .as_array()
                .unwrap()
                .len(),
            3
        );
        for bad in [
            "0",
            "1001",
            "-1",
            "",
            "ten",
            "1e3",
            "99999999999999999999999",
        ] {
            assert_eq!(by_agency(d, "IARC", Some(bad)).status, 400, "{bad}");
        }
        let r = by_agency(d, "Ministry of Magic", None);
        assert_eq!(r.status, 404);
        assert!(json(&r)["error"].as_str().unwrap().contains("IARC, NTP"));
        assert_eq!(by_agency(d, "", None).status, 404);
        assert_eq!(by_agency(d, &"ä".repeat(10_000), None).status, 404);
        assert!(by_agency(d, &"ä".repeat(10_000), None).body.len() < 2_000);
    }
}
