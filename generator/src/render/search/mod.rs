//! Unified search: one index over compounds, products and materials, built once
//! with every searchable string folded, split into words and indexed by trigram ahead of time,
//! so a query looks only at the fields that can match. Results carry a relevance score from 0
//! to 100; curated aliases (`data/aliases.json`) resolve abbreviations to one canonical
//! compound.

mod index;
mod lookup;
mod matching;
#[cfg(test)]
mod ranking_tests;
mod score;
#[cfg(test)]
mod tests;
mod vocabulary;

use std::cmp::Reverse;

use serde::Serialize;

pub use index::SearchIndex;
pub(crate) use lookup::Body as LookupBody;
pub use lookup::{LookupQuery, lookup};

use crate::api::{Op, Query};
use crate::model::Dataset;
use crate::model::aliases::normalize as alias_key;
use crate::render::declared;
use crate::render::error::ApiError;
use crate::render::paging::{Pagination, Paging};
use crate::render::{Cache, Rendered};
use index::{EntityType, fold};
use matching::Scored;
use score::Field;

#[derive(Serialize, schemars::JsonSchema)]
struct Hit<'a> {
    entity_type: EntityType,
    id: &'a str,
    /// The same id under the name the compound answers use (`hq_id` wherever an entity id
    /// is, the docs page's "Conventions").
    hq_id: &'a str,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cas: Option<&'a str>,
    score: u8,
    matched: Field,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    alias_boosted: bool,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Meta<'a> {
    total: usize,
    limit: usize,
    offset: usize,
    alias_resolved: Option<&'a str>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Body<'a> {
    query: &'a str,
    results: Vec<Hit<'a>>,
    meta: Meta<'a>,
    pagination: Pagination,
}

/// What `GET /api/search` is asked for, parsed once: `q`, the page and `type`.
#[derive(Debug)]
pub struct SearchQuery<'q> {
    text: &'q str,
    pub paging: Paging,
    only: Option<EntityType>,
}

impl<'q> SearchQuery<'q> {
    pub fn parse(q: &'q dyn Query) -> Result<SearchQuery<'q>, ApiError> {
        let Some(text) = declared::text(Op::Search, "q", q)? else {
            return Err(ApiError::bad_request(
                "q is required: at least 2 characters to search for",
            ));
        };
        let paging = Paging::parse(Op::Search, q)?;
        let only = match q.get("type") {
            None => None,
            Some("compound") => Some(EntityType::Compound),
            Some("product") => Some(EntityType::Product),
            Some("material") => Some(EntityType::Material),
            Some(_) => {
                return Err(ApiError::bad_request(
                    "type must be compound, product or material",
                ));
            }
        };
        Ok(SearchQuery { text, paging, only })
    }
}

/// `GET /api/search?q=&limit=&offset=&type=` (Developer+).
pub fn search(index: &SearchIndex, dataset: &Dataset, query: &SearchQuery<'_>) -> Rendered {
    let (q, only) = (query.text, query.only);
    let Paging { limit, offset } = query.paging;
    let mut found = index.matches(&fold(q), only);
    // the alias step applies unless the search is limited to products or materials.
    let alias = match only {
        None | Some(EntityType::Compound) => index.aliases.get(&alias_key(q)).copied(),
        Some(_) => None,
    };
    if let Some(at) = alias {
        let hit = match found.iter_mut().find(|s| s.entry == at) {
            Some(hit) => hit,
            None => {
                found.push(Scored {
                    entry: at,
                    score: 0,
                    field: Field::Alias,
                    boosted: false,
                });
                found.last_mut().expect("just pushed")
            }
        };
        hit.score = 100;
        hit.field = Field::Alias;
        hit.boosted = true;
    }
    // Score first; the alias's compound leads the other perfect matches, then by name. Every
    // key differs (ranks are distinct), so only the page needs sorting: the entries before it
    // are picked out, then those of the page, then the page is sorted.
    let order = |s: &Scored| {
        (
            Reverse(s.score),
            Reverse(s.boosted),
            index.entries[s.entry].rank,
        )
    };
    let total = found.len();
    let end = offset.saturating_add(limit).min(total);
    let page = if offset < end {
        if end < total {
            found.select_nth_unstable_by_key(end, order);
        }
        if offset > 0 {
            found[..end].select_nth_unstable_by_key(offset, order);
        }
        let page = &mut found[offset..end];
        page.sort_unstable_by_key(order);
        &*page
    } else {
        &[]
    };
    let results = page.iter().filter_map(|s| hit(index, dataset, s)).collect();
    let body = Body {
        query: q,
        results,
        meta: Meta {
            total,
            limit,
            offset,
            alias_resolved: alias.map(|at| index.entries[at].id.as_str()),
        },
        pagination: query.paging.pagination(total),
    };
    Rendered::json(200, &body, Cache::Private)
}

/// `search` of these raw values, parsed as the dispatch parses them (the unit tests').
#[cfg(test)]
fn search_raw(
    index: &SearchIndex,
    dataset: &Dataset,
    q: Option<&str>,
    limit: Option<&str>,
    offset: Option<&str>,
    kind: Option<&str>,
) -> Rendered {
    let query: Vec<(String, String)> = [
        ("q", q),
        ("limit", limit),
        ("offset", offset),
        ("type", kind),
    ]
    .into_iter()
    .filter_map(|(n, v)| Some((n.to_string(), v?.to_string())))
    .collect();
    SearchQuery::parse(&query).map_or_else(Rendered::from, |q| search(index, dataset, &q))
}

/// A result as shown: the display values come from the record, not from the index.
fn hit<'a>(index: &'a SearchIndex, dataset: &'a Dataset, s: &Scored) -> Option<Hit<'a>> {
    let entry = &index.entries[s.entry];
    let (name, cas) = match entry.kind {
        EntityType::Compound => {
            let r = dataset.compound(&entry.id)?;
            (r.name.as_str(), Some(r.cas.as_str()))
        }
        EntityType::Product => (dataset.products.get(&entry.id)?.name.as_str(), None),
        EntityType::Material => (dataset.materials.get(&entry.id)?.name.as_str(), None),
    };
    Some(Hit {
        entity_type: entry.kind,
        id: &entry.id,
        hq_id: &entry.id,
        name,
        cas,
        score: s.score,
        matched: s.field,
        alias_boosted: s.boosted,
    })
}
