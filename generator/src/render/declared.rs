//! Query parameters read by their declaration in the catalogue (`api::ENDPOINTS`): a typed
//! query takes its bounds and defaults from there, so they are stated once and the OpenAPI
//! document, the docs page and the answers cannot disagree.

use super::error::ApiError;
use crate::api::{self, Kind, Op, Param, Query};
use crate::model::quoted;

/// A whole-number query parameter of `op`, within the bounds the catalogue declares for it,
/// or its declared default when absent (`None` when it has none). A parameter declared without
/// a maximum takes at most `usize::MAX`, the largest count there is.
pub fn int(op: Op, name: &str, q: &dyn Query) -> Result<Option<i128>, ApiError> {
    let Some(&Param {
        kind: Kind::Int { min, max, default },
        ..
    }) = api::declared(op, name)
    else {
        return Err(ApiError::internal(format!(
            "{name} is not a declared whole-number parameter of this endpoint"
        )));
    };
    let Some(raw) = q.get(name) else {
        return Ok(default.map(i128::from));
    };
    let ceiling = max.map_or(i128::try_from(usize::MAX).unwrap_or(i128::MAX), i128::from);
    match raw.parse::<i128>() {
        Ok(n) if n >= i128::from(min) && n <= ceiling => Ok(Some(n)),
        _ => Err(ApiError::bad_request(match max {
            Some(max) => format!(
                "{name} must be a whole number from {min} to {max}, not {}",
                quoted(raw)
            ),
            None => format!(
                "{name} must be a whole number of at least {min}, not {}",
                quoted(raw)
            ),
        })),
    }
}

/// A declared count (a limit, an offset, a page, a depth): a whole number of at least 0 with a
/// default.
pub fn count(op: Op, name: &str, q: &dyn Query) -> Result<usize, ApiError> {
    int(op, name, q)?
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| {
            ApiError::internal(format!(
                "{name} is declared without a default of at least 0"
            ))
        })
}

/// A text query parameter of `op`, trimmed, of the length the catalogue declares for it
/// (`Kind::Text`); `None` when absent.
pub fn text<'q>(op: Op, name: &str, q: &'q dyn Query) -> Result<Option<&'q str>, ApiError> {
    let Some(&Param {
        kind: Kind::Text { min, max },
        ..
    }) = api::declared(op, name)
    else {
        return Err(ApiError::internal(format!(
            "{name} is not a declared text parameter of this endpoint"
        )));
    };
    let Some(raw) = q.get(name) else {
        return Ok(None);
    };
    let text = raw.trim();
    if (min..=max).contains(&text.chars().count()) {
        Ok(Some(text))
    } else {
        Err(ApiError::bad_request(format!(
            "{name} must be {min} to {max} characters once trimmed, not {}",
            quoted(raw)
        )))
    }
}
