//! The typed query of `GET /api/regulatory-status`, parsed once by `render::dispatch`. Each
//! filter takes what the vocabulary endpoint lists: `analyte` an analyte id, its name or
//! abbreviation, a CAS number or a compound id; `matrix` a food, article or drug matrix;
//! `listing` a hazard listing or classification; ids in any case. A value that is none of
//! these is a 400 that names the nearest ids (`vocabulary::suggest`).

use chrono::NaiveDate;

use super::vocabulary::suggest;
use crate::api::Query;
use crate::model::cas::Cas;
use crate::model::ids::CompoundId;
use crate::model::quoted;
use crate::model::regulatory_status::{Analyte, JURISDICTIONS, RegulatoryStatus, parse_date};
use crate::model::{Dataset, regulatory_status::Matrix};
use crate::render::compound;
use crate::render::error::ApiError;

/// Where every value with its label is listed, for the 400s.
const VOCABULARY: &str = "GET /api/regulatory-status/vocabulary";

/// The parsed query: vocabulary ids and dates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegulatoryStatusQuery<'a> {
    /// The analytes asked about, `None` for all. Several when a CAS number or compound is
    /// covered by several (benzo[a]pyrene alone and in PAH4); none when no analyte covers it.
    pub analytes: Option<Vec<&'a str>>,
    /// The matrix or listing asked about (`matrix` or `listing`), `None` for all.
    pub matrix: Option<&'a str>,
    pub jurisdiction: Option<&'static str>,
    /// The day of the view; today (UTC) when not asked.
    pub as_of: NaiveDate,
    /// The calendar keeps dated changes effective on or before it.
    pub before: Option<NaiveDate>,
    /// `view=calendar`; any other view is the cell view.
    pub calendar: bool,
}

impl<'a> RegulatoryStatusQuery<'a> {
    pub fn parse(
        d: &'a Dataset,
        q: &dyn Query,
        today: NaiveDate,
    ) -> Result<RegulatoryStatusQuery<'a>, ApiError> {
        let rs = &d.regulatory_status;
        let analytes = q.get("analyte").map(|raw| analytes(d, raw)).transpose()?;
        let matrix = match (q.get("matrix"), q.get("listing")) {
            (Some(_), Some(_)) => {
                return Err(ApiError::bad_request(
                    "send matrix or listing, not both: a cell has one",
                ));
            }
            (Some(raw), None) => Some(matrix(rs, "matrix", raw, false)?),
            (None, Some(raw)) => Some(matrix(rs, "listing", raw, true)?),
            (None, None) => None,
        };
        let jurisdiction = q
            .get("jurisdiction")
            .map(|raw| {
                JURISDICTIONS
                    .into_iter()
                    .find(|j| j.eq_ignore_ascii_case(raw))
                    .ok_or_else(|| {
                        ApiError::bad_request(format!(
                            "jurisdiction must be one of {}, not {}",
                            JURISDICTIONS.join(", "),
                            quoted(raw)
                        ))
                    })
            })
            .transpose()?;
        let as_of = match q.get("as_of") {
            None => today,
            Some(raw) => date_param("as_of", raw)?,
        };
        // Checked in both views: a malformed parameter is a 400 wherever it is sent.
        let before = q
            .get("before")
            .map(|raw| date_param("before", raw))
            .transpose()?;
        Ok(RegulatoryStatusQuery {
            analytes,
            matrix,
            jurisdiction,
            as_of,
            before,
            calendar: q.get("view") == Some("calendar"),
        })
    }
}

/// The names an analyte answers to besides its id: its name, the name without its
/// parenthesis (`Bisphenol A`) and an abbreviation in it (`BPA`).
fn names(a: &Analyte) -> impl Iterator<Item = &str> {
    let (base, paren) = match a.name.split_once(" (") {
        Some((base, rest)) => (Some(base), rest.strip_suffix(')')),
        None => (None, None),
    };
    let abbreviation = paren.filter(|p| {
        p.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
    });
    std::iter::once(a.name.as_str())
        .chain(base)
        .chain(abbreviation)
}

fn analytes<'a>(d: &'a Dataset, raw: &str) -> Result<Vec<&'a str>, ApiError> {
    let vocabulary = &d.regulatory_status.vocabulary.analytes;
    let asked = raw.trim();
    if let Some((id, _)) = vocabulary.iter().find(|(id, a)| {
        id.eq_ignore_ascii_case(asked) || names(a).any(|n| n.eq_ignore_ascii_case(asked))
    }) {
        return Ok(vec![id.as_str()]);
    }
    let cas = if let Ok(cas) = Cas::parse(asked) {
        cas.to_string()
    } else if CompoundId::parse(asked).is_some() {
        // An unknown compound is a bad value of this parameter, not a missing page.
        let record = compound::lookup(d, asked).map_err(|e| match e.status {
            404 => ApiError::bad_request(format!("analyte: {}", e.message)),
            _ => e,
        })?;
        record.cas.to_string()
    } else {
        let suggestions = suggest(
            asked,
            vocabulary
                .iter()
                .map(|(id, a)| (id.as_str(), a.name.as_str())),
        );
        return Err(unknown(
            "analyte",
            "an analyte id or name, a CAS number or a compound id",
            raw,
            &suggestions,
        ));
    };
    Ok(vocabulary
        .iter()
        .filter(|(_, a)| a.cas.contains(&cas))
        .map(|(id, _)| id.as_str())
        .collect())
}

/// A `matrix` (`listing` false) or `listing` id; the other kind's id is a 400 that says which
/// parameter takes it.
fn matrix<'a>(
    rs: &'a RegulatoryStatus,
    name: &str,
    raw: &str,
    listing: bool,
) -> Result<&'a str, ApiError> {
    let matrices = &rs.vocabulary.matrices;
    let found = matrices.iter().find(|(id, m)| {
        id.eq_ignore_ascii_case(raw.trim()) || m.name.eq_ignore_ascii_case(raw.trim())
    });
    match found {
        Some((id, m)) if m.is_listing() == listing => Ok(id),
        Some((id, m)) if m.is_listing() => Err(ApiError::bad_request(format!(
            "matrix: {id} is a hazard listing, not a food, article or drug: ask listing={id}"
        ))),
        Some((id, _)) => Err(ApiError::bad_request(format!(
            "listing: {id} is a matrix, not a hazard listing: ask matrix={id}"
        ))),
        None => {
            let of_kind = |m: &Matrix| m.is_listing() == listing;
            let suggestions = suggest(
                raw,
                matrices
                    .iter()
                    .filter(|(_, m)| of_kind(m))
                    .map(|(id, m)| (id.as_str(), m.name.as_str())),
            );
            let what = if listing {
                "a hazard listing id"
            } else {
                "a food, article or drug matrix id"
            };
            Err(unknown(name, what, raw, &suggestions))
        }
    }
}

fn unknown(name: &str, what: &str, raw: &str, suggestions: &[&str]) -> ApiError {
    let near = if suggestions.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", suggestions.join(", "))
    };
    ApiError::bad_request(format!(
        "{name} must be {what}, not {}{near}. Every value with its label: {VOCABULARY}",
        quoted(raw)
    ))
}

fn date_param(name: &str, raw: &str) -> Result<NaiveDate, ApiError> {
    parse_date(raw).ok_or_else(|| {
        ApiError::bad_request(format!(
            "{name} must be a date YYYY-MM-DD that exists, not {}",
            quoted(raw)
        ))
    })
}
