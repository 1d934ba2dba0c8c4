//! The error policy, written once: every failure becomes a JSON body `{"error": "..."}` with
//! the status SPEC 7 gives, and error responses are never publicly cached. Nothing a client
//! sends can produce a 5xx; a 500 means a bug in the service.

use std::convert::Infallible;

use saferef_generator::render::Rendered;
use warp::http::StatusCode;
use warp::reply::Response;

/// An error a handler returns; `recover` turns it (and warp's own rejections) into a reply.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::UNAUTHORIZED,
            message: message.into(),
        }
    }
}

impl warp::reject::Reject for ApiError {}

/// The JSON error reply of SPEC 7: private, never stored by a shared cache.
pub fn error_reply(status: StatusCode, message: &str) -> Response {
    crate::routes::reply(Rendered::error(status.as_u16(), message))
}

/// Maps every rejection to the JSON error body.
pub async fn recover(rejection: warp::Rejection) -> Result<Response, Infallible> {
    let (status, message) = if let Some(e) = rejection.find::<ApiError>() {
        (e.status, e.message.clone())
    } else if rejection.is_not_found() {
        return Ok(crate::routes::reply(saferef_generator::render::not_found()));
    } else if let Some(e) = rejection.find::<warp::reject::InvalidQuery>() {
        (
            StatusCode::BAD_REQUEST,
            format!("invalid query string: {e}"),
        )
    } else if rejection.find::<warp::reject::MethodNotAllowed>().is_some() {
        (
            StatusCode::METHOD_NOT_ALLOWED,
            "method not allowed".to_string(),
        )
    } else if let Some(e) = rejection.find::<warp::reject::PayloadTooLarge>() {
        (StatusCode::PAYLOAD_TOO_LARGE, e.to_string())
    } else if let Some(e) = rejection.find::<warp::reject::UnsupportedMediaType>() {
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, e.to_string())
    } else {
        tracing::error!(?rejection, "unhandled rejection");
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error".to_string(),
        )
    };
    Ok(error_reply(status, &message))
}
