//! One pagination for every list (the docs page's "Conventions", each list answer's
//! `pagination` in the OpenAPI): `limit` items from `offset`, or the `page`th page of `limit`
//! items; each list answer carries one `pagination` object beside its older fields. Bounds and defaults are the
//! catalogue's (`api::ENDPOINTS`), read here, so they are stated once.

use std::ops::Range;

use serde::Serialize;

use super::declared::count;
use super::error::ApiError;
use crate::api::{Op, Query};

/// Which part of a list: `limit` items after the first `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    pub limit: usize,
    pub offset: usize,
}

/// Where a page sits in its list, the same object in every list answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Pagination {
    pub limit: usize,
    pub offset: usize,
    /// The page the first item is on, counting from 1 (`offset / limit + 1`).
    pub page: usize,
    pub total: usize,
    pub total_pages: usize,
    /// Items follow this page.
    pub has_more: bool,
}

impl Paging {
    /// `limit` with `page` or `offset` (`page=n` is `offset=(n-1)*limit`), bounds from `op`'s
    /// declaration; both at once is a 400, since they could disagree.
    pub fn parse(op: Op, q: &dyn Query) -> Result<Paging, ApiError> {
        let limit = count(op, "limit", q)?;
        let offset = match (q.get("page"), q.get("offset")) {
            (Some(_), Some(_)) => {
                return Err(ApiError::bad_request("use either page or offset, not both"));
            }
            (Some(_), None) => count(op, "page", q)?
                .saturating_sub(1)
                .saturating_mul(limit),
            (None, _) => count(op, "offset", q)?,
        };
        Ok(Paging { limit, offset })
    }

    /// The page's place among `total` items; an offset past the end is an empty page, not an
    /// error.
    pub fn range(self, total: usize) -> (Range<usize>, Pagination) {
        let start = self.offset.min(total);
        let end = start.saturating_add(self.limit).min(total);
        (start..end, self.pagination(total))
    }

    /// The page's items of `items`.
    pub fn slice<T>(self, items: &[T]) -> (&[T], Pagination) {
        let (range, pagination) = self.range(items.len());
        (&items[range], pagination)
    }

    /// The `pagination` of this page of a list of `total` items.
    pub fn pagination(self, total: usize) -> Pagination {
        let limit = self.limit.max(1);
        Pagination {
            limit: self.limit,
            offset: self.offset,
            page: self.offset / limit + 1,
            total,
            total_pages: total.div_ceil(limit),
            has_more: self.offset.saturating_add(self.limit) < total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api;

    fn query(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn page_and_offset_name_the_same_items() {
        let by_page = Paging::parse(Op::Compounds, &query(&[("page", "3"), ("limit", "7")]));
        let by_offset = Paging::parse(Op::Compounds, &query(&[("offset", "14"), ("limit", "7")]));
        assert_eq!(by_page, by_offset);
        assert_eq!(
            by_page.unwrap(),
            Paging {
                limit: 7,
                offset: 14
            }
        );
    }

    #[test]
    fn defaults_and_bounds_are_the_catalogues() {
        assert_eq!(
            Paging::parse(Op::Compounds, &query(&[])).unwrap(),
            Paging {
                limit: 20,
                offset: 0
            }
        );
        assert_eq!(
            Paging::parse(Op::RegulatoryByAgency, &query(&[])).unwrap(),
            Paging {
                limit: 100,
                offset: 0
            }
        );
        let e = Paging::parse(Op::Search, &query(&[("limit", "101")])).unwrap_err();
        assert_eq!(
            (e.status, e.message.as_str()),
            (
                400,
                "limit must be a whole number from 1 to 100, not \"101\""
            )
        );
        let e = Paging::parse(Op::Fragrance, &query(&[("page", "0")])).unwrap_err();
        assert_eq!(e.status, 400);
        let e = Paging::parse(Op::Changelog, &query(&[("offset", "-1")])).unwrap_err();
        assert_eq!(e.status, 400);
        let e = Paging::parse(Op::Products, &query(&[("page", "1"), ("offset", "0")])).unwrap_err();
        assert_eq!(e.message, "use either page or offset, not both");
    }

    #[test]
    fn every_list_declares_limit_page_and_offset() {
        for e in api::ENDPOINTS {
            if e.method != "GET" || api::declared(e.op, "limit").is_none() {
                continue;
            }
            let paging = Paging::parse(e.op, &query(&[("page", "2")]));
            assert!(paging.is_ok(), "{}: {paging:?}", e.name);
            let paging = Paging::parse(e.op, &query(&[("offset", "2")]));
            assert!(paging.is_ok(), "{}: {paging:?}", e.name);
        }
    }

    #[test]
    fn the_pagination_object() {
        let p = Paging {
            limit: 10,
            offset: 25,
        };
        let (range, pagination) = p.range(42);
        assert_eq!(range, 25..35);
        assert_eq!(
            pagination,
            Pagination {
                limit: 10,
                offset: 25,
                page: 3,
                total: 42,
                total_pages: 5,
                has_more: true
            }
        );
        let (range, pagination) = p.range(30);
        assert_eq!(range, 25..30);
        assert!(!pagination.has_more);
        let (range, pagination) = p.range(3);
        assert_eq!(range, 3..3);
        assert_eq!((pagination.total_pages, pagination.has_more), (1, false));
        let p = Paging {
            limit: 10,
            offset: usize::MAX,
        };
        assert_eq!(p.range(5).0, 5..5);
    }
}
