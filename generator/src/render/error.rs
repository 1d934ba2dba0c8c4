//! Error answers, one policy for every endpoint, whether the static tree or the runtime
//! answers:
//!
//! - Every error is JSON `{"error": "<message>"}`, `Cache-Control: private, max-age=3600`, so
//!   a shared cache never stores one. A badge URL's is a gray SVG badge with the same status
//!   and cache policy, its message in the title (`render::badge`, the docs page's "Badges").
//! - **400**: a parameter, path segment or body the interface does not accept. The message
//!   names the parameter and what it accepts, and echoes the value only quoted and cut
//!   (`model::quoted`), so a hostile value cannot make an error large.
//! - **401**: a key is needed and none, or no valid one, was sent. Every refused key gets the
//!   same message, so a guess learns nothing from the answer.
//! - **403**: the caller's tier may not use the endpoint.
//! - **404**: no endpoint or entity at the path. **405**: the path answers other methods
//!   (the `Allow` header lists them).
//! - **408, 413, 415, 431**: the request itself: too slow, body too large, body not JSON,
//!   headers too large.
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

use super::Rendered;

/// An error answer: its status and message (see the policy above).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, message)
    }

    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(401, message)
    }

    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(403, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, message)
    }

    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(409, message)
    }

    pub fn payload_too_large(message: impl Into<String>) -> ApiError {
        ApiError::new(413, message)
    }

    pub fn unsupported_media_type(message: impl Into<String>) -> ApiError {
        ApiError::new(415, message)
    }

    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(422, message)
    }

    pub fn too_many_requests(message: impl Into<String>) -> ApiError {
        ApiError::new(429, message)
    }

    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(503, message)
    }

    /// A defect, never an answer on purpose (see the policy above).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(500, message)
    }
}

impl From<ApiError> for Rendered {
    fn from(e: ApiError) -> Rendered {
        Rendered::error(e.status, e.message)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status, self.message)
    }
}
