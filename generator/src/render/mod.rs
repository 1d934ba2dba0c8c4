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
pub mod moved;
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

use std::cell::Cell;

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

thread_local! {
    /// The buffer `Rendered::json` writes each body into on this thread.
    static JSON_BUFFER: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// A buffer that grew past this for one body (an export, the OpenAPI document) is let go
/// rather than kept by its thread.
const KEPT_BUFFER: usize = 1 << 20;

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
        // Written into the thread's buffer, then copied out at its exact size: one allocation
        // per body rather than one per doubling of a growing `Vec`, and no spare capacity in
        // a body the runtime's render cache keeps. A body written while another is finds the
        // buffer taken and starts an empty one.
        let mut buffer = JSON_BUFFER.take();
        buffer.clear();
        serde_json::to_writer(&mut buffer, value).expect("response types serialize");
        buffer.push(b'\n');
        let body = buffer.as_slice().to_vec();
        if buffer.capacity() <= KEPT_BUFFER {
            JSON_BUFFER.set(buffer);
        }
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

#[cfg(test)]
mod json_tests {
    use super::{Cache, KEPT_BUFFER, Rendered};

    #[test]
    fn a_json_body_is_the_value_written_with_a_newline_at_its_exact_size() {
        // Long, short, then larger than the kept buffer, then short again: each body is
        // whole, the thread's buffer never leaks one body's bytes into the next.
        let long: Vec<String> = (0..2000).map(|i| format!("value {i}")).collect();
        let huge = "x".repeat(KEPT_BUFFER + 1);
        let values = [
            serde_json::json!({"long": long}),
            serde_json::json!({"short": 1}),
            serde_json::json!({"huge": huge}),
            serde_json::json!(["short", "again"]),
        ];
        for value in values {
            let r = Rendered::json(200, &value, Cache::Private);
            let mut expected = serde_json::to_vec(&value).unwrap();
            expected.push(b'\n');
            assert_eq!(r.body, expected);
            assert_eq!(r.body.capacity(), r.body.len());
        }
    }
}
