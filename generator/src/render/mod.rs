//! Response rendering: one pure function per response, from the dataset to bytes plus the
//! status and cache policy. The static build and the runtime call the same functions, so a
//! public URL answers with the same bytes from either.

pub mod badge;
mod badge_metrics;
pub mod batch;
pub mod changelog;
pub mod compare;
pub mod compound;
pub mod contexts;
pub mod declared;
pub mod dispatch;
pub mod documents;
pub mod entities;
pub mod error;
pub mod export;
pub mod found_in;
pub mod fragrance;
pub mod lists;
pub mod openapi;
mod openapi_schemas;
pub mod pages;
pub mod paging;
pub mod regulatory;
pub mod regulatory_status;
pub mod relationships;
pub mod root;
pub mod runtime_answers;
pub mod search;
#[cfg(test)]
mod test_data;
pub mod timeline;

use serde::Serialize;

/// The body of a request no endpoint or entity answers (the runtime's 404 and the static
/// tree's `api/404.json`).
pub fn not_found() -> Rendered {
    error::ApiError::not_found(
        "not found: no endpoint or entity at this address (GET /api lists the endpoints)",
    )
    .into()
}

/// `Vary` of public compound responses: the key and the marketplace subscription.
pub const VARY: &str = "X-API-Key, X-Marketplace-Subscription";

/// How a response may be cached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cache {
    /// Public single-compound response: shared max-age 3600, stale-while-revalidate 7200.
    PublicCompound,
    /// Watched compounds and every error: private, max-age 3600.
    Private,
    /// Reference data (root, documents): public for 2 hours.
    Reference,
    /// Badges: public for 24 hours.
    Badge,
    /// The integrity health check: public for 60 seconds.
    Integrity,
    /// Answers that must never be stored (plain health, key management).
    NoStore,
    /// The freshness summary: public for 30 minutes.
    Freshness,
}

impl Cache {
    pub fn header(self) -> &'static str {
        match self {
            Cache::PublicCompound => {
                "public, max-age=3600, s-maxage=3600, stale-while-revalidate=7200"
            }
            Cache::Private => "private, max-age=3600",
            Cache::Reference => "public, max-age=7200",
            Cache::Badge => "public, max-age=86400",
            Cache::Integrity => "public, max-age=60",
            Cache::NoStore => "no-store",
            Cache::Freshness => "public, max-age=1800",
        }
    }
}

/// A rendered response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub status: u16,
    pub body: Vec<u8>,
    pub cache: Cache,
    /// `Location` of a redirect.
    pub location: Option<String>,
    /// Surrogate key for CDN purges (one per compound).
    pub surrogate_key: Option<String>,
    pub content_type: &'static str,
}

impl Rendered {
    /// A JSON body; output is compact and deterministic (struct field order).
    pub fn json<T: Serialize>(status: u16, value: &T, cache: Cache) -> Rendered {
        let mut body = serde_json::to_vec(value).expect("response types serialize");
        body.push(b'\n');
        Rendered {
            status,
            body,
            cache,
            location: None,
            surrogate_key: None,
            content_type: "application/json",
        }
    }

    /// A body that is not JSON (SVG, HTML).
    pub fn bytes(status: u16, body: Vec<u8>, content_type: &'static str, cache: Cache) -> Rendered {
        Rendered {
            status,
            body,
            cache,
            location: None,
            surrogate_key: None,
            content_type,
        }
    }

    /// The JSON error body, never publicly cached. Only `render::error` makes one, from an
    /// `ApiError`, so every error answer follows its policy.
    fn error(
        body: error::ErrorBody<serde_json::Map<String, serde_json::Value>>,
        status: u16,
    ) -> Rendered {
        Rendered::json(status, &body, Cache::Private)
    }

    pub fn keyed(mut self, key: impl Into<String>) -> Rendered {
        self.surrogate_key = Some(key.into());
        self
    }
}
