//! `GET /api/products`: the product filter (search, risk, tier, category) and the list.

use std::collections::BTreeSet;

use serde::Serialize;

use super::params::{contains_text, quoted, search_param, vocab_param};
use super::risk_index::RiskIndex;
use crate::aggregate::synthesis::ProductRisk;
use crate::api::{Op, Query};
use crate::model::Dataset;
use crate::model::material::Product;
use crate::model::vocab;
use crate::render::error::ApiError;
use crate::render::paging::{Pagination, Paging};
use crate::render::{Cache, Rendered};

/// What `GET /api/products` is asked for, parsed once: the page and the filter.
#[derive(Debug)]
pub struct ProductsQuery {
    pub paging: Paging,
    filter: ProductFilter,
}

impl ProductsQuery {
    pub fn parse(dataset: &Dataset, q: &dyn Query) -> Result<ProductsQuery, ApiError> {
        Ok(ProductsQuery {
            paging: Paging::parse(Op::Products, q)?,
            filter: ProductFilter::parse(dataset, Op::Products, q)?,
        })
    }
}

/// A parsed product filter: every part given must match.
#[derive(Debug)]
pub(super) struct ProductFilter {
    search: Option<String>,
    pub(super) risk: Option<ProductRisk>,
    tier: Option<&'static str>,
    category: Option<String>,
}

fn product_risk_param(raw: &str) -> Result<ProductRisk, ApiError> {
    ProductRisk::ALL
        .into_iter()
        .find(|r| r.as_str().eq_ignore_ascii_case(raw))
        .ok_or_else(|| {
            let valid: Vec<&str> = ProductRisk::ALL.iter().rev().map(|r| r.as_str()).collect();
            ApiError::bad_request(format!(
                "unknown risk {}; valid values: {}",
                quoted(raw),
                valid.join(", ")
            ))
        })
}

fn product_category_param(dataset: &Dataset, raw: &str) -> Result<String, ApiError> {
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
            ApiError::bad_request(format!(
                "unknown category_filter {}; valid values: {}",
                quoted(raw),
                known.into_iter().collect::<Vec<_>>().join(", ")
            ))
        })
}

impl ProductFilter {
    /// `search`, `risk`, `tier` and `category_filter` of `op`'s query; the bulk export reads
    /// the same.
    pub(super) fn parse(
        dataset: &Dataset,
        op: Op,
        q: &dyn Query,
    ) -> Result<ProductFilter, ApiError> {
        Ok(ProductFilter {
            search: search_param(op, q)?,
            risk: q.get("risk").map(product_risk_param).transpose()?,
            tier: q
                .get("tier")
                .map(|t| vocab_param("tier", t, vocab::PRODUCT_TIERS))
                .transpose()?,
            category: q
                .get("category_filter")
                .map(|c| product_category_param(dataset, c))
                .transpose()?,
        })
    }

    /// Everything but `risk`, which needs the index.
    pub(super) fn matches(&self, p: &Product) -> bool {
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

#[derive(Serialize, schemars::JsonSchema)]
struct ProductItem<'a> {
    id: &'a str,
    hq_id: &'a str,
    name: &'a str,
    tier: &'a str,
    categories: &'a [String],
    risk_level: Option<ProductRisk>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct ProductsBody<'a, 'b> {
    products: &'b [ProductItem<'a>],
    pagination: Pagination,
}

/// `GET /api/products` (keyed): `risk` is the synthesised product risk, as the
/// product profile reports it.
pub fn products(dataset: &Dataset, index: &RiskIndex, q: &ProductsQuery) -> Rendered {
    let filter = &q.filter;
    let found: Vec<ProductItem<'_>> = dataset
        .products
        .values()
        .filter(|p| filter.matches(p))
        .map(|p| ProductItem {
            id: &p.id,
            hq_id: &p.id,
            name: &p.name,
            tier: &p.tier,
            categories: &p.categories,
            risk_level: index.product_risk(dataset, p),
        })
        .filter(|item| filter.risk.is_none_or(|r| item.risk_level == Some(r)))
        .collect();
    let (page, pagination) = q.paging.slice(&found);
    let body = ProductsBody {
        products: page,
        pagination,
    };
    Rendered::json(200, &body, Cache::Private)
}
