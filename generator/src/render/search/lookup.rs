//! `GET /api/lookup?q=`: a name, synonym, curated alias or identifier (id, CAS, InChIKey)
//! resolved to the entities that hold it exactly, without a key. Case and whitespace do not
//! count; a CAS number may be written without its dashes (its digits have one CAS form). No
//! match is a 200 with no results and the search's closest names as suggestions, as a search
//! without hits is a 200: the query names no resource, so nothing is "not found". The docs
//! page's "Name lookup" section says the same.

use serde::Serialize;

use super::index::{EntityType, SearchIndex, fold};
use super::score::Field;
use crate::api::Query;
use crate::model::Dataset;
use crate::model::aliases::normalize;
use crate::model::cas::Cas;
use crate::render::error::ApiError;
use crate::render::{Cache, Rendered};

/// The longest `q` accepted, in characters (the catalogue's bound).
pub const MAX_QUERY_CHARS: usize = 200;
/// Near misses offered when nothing matches exactly.
const SUGGESTIONS: usize = 5;

/// What `GET /api/lookup` is asked for, parsed once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupQuery {
    /// As given, trimmed.
    pub q: String,
}

impl LookupQuery {
    pub fn parse(q: &dyn Query) -> Result<LookupQuery, ApiError> {
        let Some(raw) = q.get("q") else {
            return Err(ApiError::bad_request(
                "q is required: a name, synonym, alias or CAS number to look up",
            ));
        };
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Err(ApiError::bad_request(
                "q must not be empty: a name, synonym, alias or CAS number to look up",
            ));
        }
        if trimmed.chars().count() > MAX_QUERY_CHARS {
            return Err(ApiError::bad_request(format!(
                "q must be at most {MAX_QUERY_CHARS} characters long"
            )));
        }
        Ok(LookupQuery {
            q: trimmed.to_string(),
        })
    }
}

/// One entity in an answer: what it is, its name, and where its JSON and its page are.
#[derive(Serialize, schemars::JsonSchema)]
struct Found<'a> {
    kind: EntityType,
    id: &'a str,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cas: Option<&'a str>,
    matched: Field,
    json: String,
    page: String,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Body<'a> {
    query: &'a str,
    results: Vec<Found<'a>>,
    /// Only when `results` is empty: the closest names the search finds.
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestions: Option<Vec<Found<'a>>>,
}

/// The key `q` is compared in, a dashless or zero-padded CAS number read as its CAS form.
fn key(q: &str) -> String {
    let compact = normalize(q);
    let cas = if compact.bytes().all(|b| b.is_ascii_digit()) {
        Cas::from_digits(&compact)
    } else {
        Cas::parse_lenient(&compact)
    };
    match cas {
        Ok(cas) => cas.as_str().to_string(),
        Err(_) => compact,
    }
}

/// `GET /api/lookup?q=`: every served entity holding `q` exactly, in name order.
pub fn lookup(index: &SearchIndex, dataset: &Dataset, query: &LookupQuery) -> Rendered {
    let key = key(&query.q);
    let mut exact: Vec<(usize, Field)> = index
        .exact
        .get(&key)
        .into_iter()
        .flatten()
        .map(|&(entry, field)| (entry as usize, field))
        .collect();
    if let Some(&entry) = index.aliases.get(&key)
        && !exact.iter().any(|(e, _)| *e == entry)
    {
        exact.push((entry, Field::Alias));
    }
    exact.sort_by_key(|(e, _)| index.entries[*e].rank);
    let results: Vec<Found<'_>> = exact
        .iter()
        .filter_map(|&(entry, field)| found(index, dataset, entry, field))
        .collect();
    let suggestions = results.is_empty().then(|| {
        let mut near = index.matches(&fold(&query.q), None);
        near.sort_by_key(|s| (std::cmp::Reverse(s.score), index.entries[s.entry].rank));
        near.iter()
            .take(SUGGESTIONS)
            .filter_map(|s| found(index, dataset, s.entry, s.field))
            .collect()
    });
    let body = Body {
        query: &query.q,
        results,
        suggestions,
    };
    Rendered::json(200, &body, Cache::PublicCompound)
}

/// An entry as answered: names come from the record, not from the index.
fn found<'a>(
    index: &'a SearchIndex,
    dataset: &'a Dataset,
    entry: usize,
    matched: Field,
) -> Option<Found<'a>> {
    let e = &index.entries[entry];
    let id = e.id.as_str();
    let (name, cas, path) = match e.kind {
        EntityType::Compound => {
            let r = dataset.compound(id)?;
            (r.name.as_str(), Some(r.cas.as_str()), "compound")
        }
        EntityType::Product => (dataset.products.get(id)?.name.as_str(), None, "product"),
        EntityType::Material => (dataset.materials.get(id)?.name.as_str(), None, "material"),
    };
    Some(Found {
        kind: e.kind,
        id,
        name,
        cas,
        matched,
        json: format!("/api/{path}/{id}"),
        page: format!("/{path}/{id}"),
    })
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::*;
    use crate::render::test_data::fixture as dataset;

    fn ask(q: &str) -> serde_json::Value {
        static INDEX: OnceLock<SearchIndex> = OnceLock::new();
        let index = INDEX.get_or_init(|| SearchIndex::build(dataset()));
        let query = LookupQuery::parse(&vec![("q".to_string(), q.to_string())]).unwrap();
        let r = lookup(index, dataset(), &query);
        assert_eq!(r.status, 200);
        serde_json::from_slice(&r.body).unwrap()
    }

    fn ids(v: &serde_json::Value) -> Vec<String> {
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["id"].as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn a_cas_number_is_read_with_or_without_dashes() {
        let benzene = dataset().by_cas("71-43-2").unwrap();
        for q in ["71-43-2", "71432", "  0071-43-2 ", "71 43 2"] {
            let v = ask(q);
            assert_eq!(ids(&v), vec![benzene.hq_id.to_string()], "{q}");
            assert_eq!(v["results"][0]["matched"], "cas", "{q}");
            assert_eq!(v["results"][0]["kind"], "compound");
            assert_eq!(
                v["results"][0]["json"],
                format!("/api/compound/{}", benzene.hq_id)
            );
            assert_eq!(
                v["results"][0]["page"],
                format!("/compound/{}", benzene.hq_id)
            );
        }
        // A wrong check digit names no CAS number.
        assert!(ids(&ask("71433")).is_empty());
    }

    #[test]
    fn names_synonyms_and_aliases_match_whatever_their_case_and_spacing() {
        let benzene = dataset().by_cas("71-43-2").unwrap();
        for q in ["benzene", "  BENZENE ", "Ben zene"] {
            let v = ask(q);
            assert!(ids(&v).contains(&benzene.hq_id.to_string()), "{q}: {v}");
            assert!(v.get("suggestions").is_none(), "{q}");
        }
        let bpa = dataset().by_cas("80-05-7").unwrap();
        let v = ask("bpa");
        assert_eq!(ids(&v), vec![bpa.hq_id.to_string()], "{v}");
        assert_eq!(v["results"][0]["matched"], "alias");
        let product = dataset().products.values().next().unwrap();
        let v = ask(&product.name.to_lowercase());
        assert!(ids(&v).contains(&product.id), "{v}");
        let material = dataset().materials.values().next().unwrap();
        let v = ask(&material.name.to_uppercase());
        let hit = v["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == material.id.as_str())
            .unwrap_or_else(|| panic!("{v}"));
        assert_eq!(hit["page"], format!("/material/{}", material.id));
    }

    #[test]
    fn no_match_is_an_empty_list_with_near_misses() {
        let v = ask("benzenne");
        assert_eq!(v["results"], serde_json::json!([]));
        let benzene = dataset().by_cas("71-43-2").unwrap();
        assert!(
            v["suggestions"]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["id"] == benzene.hq_id.to_string()),
            "{v}"
        );
        assert_eq!(ask("zzqqxxjj")["suggestions"], serde_json::json!([]));
    }

    #[test]
    fn missing_empty_and_overlong_queries_are_400s() {
        let none: Vec<(String, String)> = Vec::new();
        assert_eq!(LookupQuery::parse(&none).unwrap_err().status, 400);
        for q in ["", "   ", &"x".repeat(MAX_QUERY_CHARS + 1)] {
            let e = LookupQuery::parse(&vec![("q".to_string(), q.to_string())]).unwrap_err();
            assert_eq!(e.status, 400, "{q:?}");
        }
        let longest = vec![("q".to_string(), "x".repeat(MAX_QUERY_CHARS))];
        assert!(LookupQuery::parse(&longest).is_ok());
    }
}
