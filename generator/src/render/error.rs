//! Error answers, one policy for every endpoint, whether the static tree or the runtime
//! answers:
//!
//! - Every error is JSON `{"error": "<message>", "code": "<code>"}`, `Cache-Control: private,
//!   max-age=3600`, so a shared cache never stores one. A few add fields after those two for
//!   programs to act on (`ApiError::with_fields`: the 422's `available_contexts`, the batch
//!   cap). The message is for people and may be
//!   reworded; `code` is for programs and never changes meaning (`CODES` lists them all, and
//!   the docs page and the OpenAPI `Error` schema publish that list).
//!   A badge URL's error is a gray SVG badge with the same status and cache policy, its message
//!   in the title (`render::badge`, the docs page's "Badges").
//! - **400**: a parameter, path segment or body the interface does not accept. The message
//!   names the parameter and what it accepts, and echoes the value only quoted and cut
//!   (`model::quoted`), so a hostile value cannot make an error large.
//! - **401**: a key is needed and none, or no valid one, was sent. Every refused key gets the
//!   same message, so a guess learns nothing from the answer.
//! - **403**: the caller's tier may not use the endpoint.
//! - **404**: no endpoint or entity at the path. **405**: the path answers other methods
//!   (the `Allow` header lists them).
//! - **408, 413, 414, 415, 431**: the request itself: too slow, body too large, target too
//!   long, body not JSON, headers too large.
//! - **422**: the entity exists but cannot be answered as asked (no evidence in the context).
//! - **429**: a quota or rate is spent; the message says when it resets.
//! - **503**: something the answer needs (the store, the mail relay, the payment provider) is
//!   down: retry; a preview tree built without a runtime origin answers it where only the
//!   runtime could (`api/runtime-required.json`). No other 5xx is ever answered on purpose:
//!   **500** (`internal`) marks a defect only, a template that fails or a dataset `check`
//!   would have refused.
//!
//! Handlers return `Result<Rendered, ApiError>` and use `?`; the constructors below are the
//! only way an error answer is made.

use serde::Serialize;

use super::Rendered;

/// The error codes, by name (`CODES` says what each means).
pub mod code {
    pub const BAD_REQUEST: &str = "bad_request";
    pub const UNAUTHORIZED: &str = "unauthorized";
    pub const FORBIDDEN: &str = "forbidden";
    pub const NOT_FOUND: &str = "not_found";
    pub const METHOD_NOT_ALLOWED: &str = "method_not_allowed";
    pub const REQUEST_TIMEOUT: &str = "request_timeout";
    pub const CONFLICT: &str = "conflict";
    pub const PAYLOAD_TOO_LARGE: &str = "payload_too_large";
    pub const URI_TOO_LONG: &str = "uri_too_long";
    pub const UNSUPPORTED_MEDIA_TYPE: &str = "unsupported_media_type";
    pub const HEADERS_TOO_LARGE: &str = "headers_too_large";
    pub const UNPROCESSABLE: &str = "unprocessable";
    pub const RATE_LIMITED: &str = "rate_limited";
    pub const INTERNAL: &str = "internal";
    pub const UNAVAILABLE: &str = "unavailable";
}

/// Every error `code`, its status and what it means: the published list (docs page
/// "Conventions", OpenAPI `Error`). One constructor below makes each.
pub const CODES: &[(&str, u16, &str)] = &[
    (
        code::BAD_REQUEST,
        400,
        "a parameter, path segment or body the interface does not accept",
    ),
    (
        code::UNAUTHORIZED,
        401,
        "a key is needed and no valid one was sent",
    ),
    (
        code::FORBIDDEN,
        403,
        "the caller's tier may not use the endpoint",
    ),
    (code::NOT_FOUND, 404, "no endpoint or entity at the path"),
    (
        code::METHOD_NOT_ALLOWED,
        405,
        "the path answers other methods (see the Allow header)",
    ),
    (
        code::REQUEST_TIMEOUT,
        408,
        "the request body arrived too slowly",
    ),
    (
        code::CONFLICT,
        409,
        "the request conflicts with the account's current state",
    ),
    (
        code::PAYLOAD_TOO_LARGE,
        413,
        "the request body is too large",
    ),
    (
        code::URI_TOO_LONG,
        414,
        "the request target (path and query) is too long",
    ),
    (
        code::UNSUPPORTED_MEDIA_TYPE,
        415,
        "the request body is not JSON",
    ),
    (
        code::HEADERS_TOO_LARGE,
        431,
        "the request line and headers are too large",
    ),
    (
        code::UNPROCESSABLE,
        422,
        "the entity exists but cannot be answered as asked",
    ),
    (
        code::RATE_LIMITED,
        429,
        "a quota or rate is spent; the message says when it resets",
    ),
    (
        code::INTERNAL,
        500,
        "a defect in the service; never answered on purpose",
    ),
    (
        code::UNAVAILABLE,
        503,
        "something the answer needs is down, or only the runtime can answer: retry",
    ),
];

/// The fields some errors add after `error` and `code` (`ApiError::with_fields`), one variant
/// per kind; untagged, so each serialises as its own fields.
#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub(crate) enum ErrorFields<'a> {
    /// 422: the compound exists but has no evidence in the context asked.
    Unavailable(super::compound::Unavailable<'a>),
    /// 400: more batch items than the caller's tier allows.
    Cap(super::batch::TooMany),
}

/// Every error answer: `error` for people, `code` for programs, and for some errors the
/// fields a program acts on (the 422's contexts, the batch cap).
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct ErrorBody<F> {
    /// For people; may be reworded.
    pub error: String,
    #[schemars(schema_with = "code_schema")]
    pub code: &'static str,
    // A map as answered (`ApiError::fields`); `Option<ErrorFields>` for the OpenAPI schema.
    #[serde(flatten)]
    pub fields: F,
}

/// `code`: one of `CODES`, each described with its status.
fn code_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let described = CODES
        .iter()
        .map(|(c, s, m)| format!("{c} ({s}): {m}"))
        .collect::<Vec<_>>()
        .join("; ");
    schemars::json_schema!({
        "type": "string",
        "description": format!("For programs; never changes meaning. {described}"),
        "enum": CODES.iter().map(|(c, _, _)| *c).collect::<Vec<_>>(),
    })
}

/// An error answer: its status, its stable `code` (one of `CODES`), its message (see the
/// policy above) and the fields an endpoint adds after them (`with_fields`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub code: &'static str,
    pub message: String,
    pub fields: serde_json::Map<String, serde_json::Value>,
}

impl ApiError {
    fn new(status: u16, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            fields: serde_json::Map::new(),
        }
    }

    /// The error with `fields` after `error` and `code`, in their order: what a program needs
    /// to act on it (the 422's available contexts, the batch cap), as the OpenAPI `Error`
    /// schema states them (`ErrorFields`).
    pub(crate) fn with_fields(mut self, fields: ErrorFields<'_>) -> ApiError {
        match serde_json::to_value(fields).expect("error fields serialize") {
            serde_json::Value::Object(map) => self.fields.extend(map),
            other => panic!("error fields are a struct, not {other}"),
        }
        self
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, code::BAD_REQUEST, message)
    }

    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(401, code::UNAUTHORIZED, message)
    }

    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(403, code::FORBIDDEN, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, code::NOT_FOUND, message)
    }

    pub fn method_not_allowed(message: impl Into<String>) -> ApiError {
        ApiError::new(405, code::METHOD_NOT_ALLOWED, message)
    }

    pub fn request_timeout(message: impl Into<String>) -> ApiError {
        ApiError::new(408, code::REQUEST_TIMEOUT, message)
    }

    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(409, code::CONFLICT, message)
    }

    pub fn payload_too_large(message: impl Into<String>) -> ApiError {
        ApiError::new(413, code::PAYLOAD_TOO_LARGE, message)
    }

    pub fn uri_too_long(message: impl Into<String>) -> ApiError {
        ApiError::new(414, code::URI_TOO_LONG, message)
    }

    pub fn unsupported_media_type(message: impl Into<String>) -> ApiError {
        ApiError::new(415, code::UNSUPPORTED_MEDIA_TYPE, message)
    }

    pub fn headers_too_large(message: impl Into<String>) -> ApiError {
        ApiError::new(431, code::HEADERS_TOO_LARGE, message)
    }

    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(422, code::UNPROCESSABLE, message)
    }

    pub fn too_many_requests(message: impl Into<String>) -> ApiError {
        ApiError::new(429, code::RATE_LIMITED, message)
    }

    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(503, code::UNAVAILABLE, message)
    }

    /// A defect, never an answer on purpose (see the policy above).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(500, code::INTERNAL, message)
    }
}

impl From<ApiError> for Rendered {
    fn from(e: ApiError) -> Rendered {
        Rendered::error(
            ErrorBody {
                error: e.message,
                code: e.code,
                fields: e.fields,
            },
            e.status,
        )
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.status, self.code, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_constructor_makes_a_published_code_with_its_status() {
        let made = [
            ApiError::bad_request(""),
            ApiError::unauthorized(""),
            ApiError::forbidden(""),
            ApiError::not_found(""),
            ApiError::method_not_allowed(""),
            ApiError::request_timeout(""),
            ApiError::conflict(""),
            ApiError::payload_too_large(""),
            ApiError::uri_too_long(""),
            ApiError::unsupported_media_type(""),
            ApiError::headers_too_large(""),
            ApiError::unprocessable(""),
            ApiError::too_many_requests(""),
            ApiError::internal(""),
            ApiError::unavailable(""),
        ];
        let published: Vec<(&str, u16)> = CODES.iter().map(|(c, s, _)| (*c, *s)).collect();
        let made: Vec<(&str, u16)> = made.iter().map(|e| (e.code, e.status)).collect();
        assert_eq!(made, published);
    }

    #[test]
    fn the_body_carries_the_code_beside_the_message() {
        let r = Rendered::from(ApiError::not_found("no compound hq-c-org-999999"));
        let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"error": "no compound hq-c-org-999999", "code": "not_found"})
        );
        assert_eq!(r.status, 404);
    }

    #[test]
    fn added_fields_follow_the_code_in_their_order() {
        let e = ApiError::bad_request("too many").with_fields(ErrorFields::Cap(
            super::super::batch::TooMany {
                requested: 11,
                cap: 10,
                upgrade_url: None,
            },
        ));
        let r = Rendered::from(e);
        assert_eq!(
            String::from_utf8(r.body).unwrap(),
            "{\"error\":\"too many\",\"code\":\"bad_request\",\"requested\":11,\"cap\":10}\n"
        );
        assert_eq!((r.status, r.cache), (400, super::super::Cache::Private));
    }
}
