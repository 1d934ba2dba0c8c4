//! `GET /api/products`: the product filter (search, risk, tier, category) and the list.

use std::collections::BTreeSet;

use serde::Serialize;

use super::params::{Pagination, Paging, contains_text, quoted, search_param, vocab_param};
use super::risk_index::RiskIndex;
use crate::aggregate::synthesis::ProductRisk;
use crate::model::Dataset;
use crate::model::material::Product;
use crate::model::vocab;
use crate::render::error::ApiError;
use crate::render::{Cache, Rendered};

/// Raw query values of `GET /api/products`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProductsQuery<'a> {
    pub page: Option<&'a str>,
    pub limit: Option<&'a str>,
    /// Name, categories, tags and common names.
    pub search: Option<&'a str>,
    /// A product risk level.
    pub risk: Option<&'a str>,
    /// A product tier code, case-insensitive.
    pub tier: Option<&'a str>,
    /// One of the products' categories, case-insensitive.
    pub category_filter: Option<&'a str>,
}

/// A parsed product filter: every part given must match.
pub(super) struct ProductFilter {
    search: Option<String>,
    pub(super) risk: Option<ProductRisk>,
    tier: Option<&'static str>,
    category: Option<String>,
}

fn product_risk_param(raw: &str) -> Result<ProductRisk, Rendered> {
    ProductRisk::ALL
        .into_iter()
        .find(|r| r.as_str().eq_ignore_ascii_case(raw))
        .ok_or_else(|| {
            let valid: Vec<&str> = ProductRisk::ALL.iter().rev().map(|r| r.as_str()).collect();
            Rendered::from(ApiError::bad_request(format!(
                "unknown risk {}; valid values: {}",
                quoted(raw),
                valid.join(", ")
            )))
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
            Rendered::from(ApiError::bad_request(format!(
                "unknown category_filter {}; valid values: {}",
                quoted(raw),
                known.into_iter().collect::<Vec<_>>().join(", ")
            )))
        })
}

impl ProductsQuery<'_> {
    pub(super) fn filter(&self, dataset: &Dataset) -> Result<ProductFilter, Rendered> {
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

/// `GET /api/products` (keyed): `risk` is the synthesised product risk, as the
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
