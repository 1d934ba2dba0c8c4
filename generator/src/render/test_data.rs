//! The committed dataset (and its risk index), loaded once for the render modules' unit tests.

use std::path::Path;
use std::sync::OnceLock;

use super::lists::RiskIndex;
use super::{Rendered, dispatch};
use crate::api;
use crate::load::load;
use crate::model::Dataset;

pub(crate) fn dataset() -> &'static Dataset {
    static DATA: OnceLock<Dataset> = OnceLock::new();
    DATA.get_or_init(|| {
        load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../data"))
            .expect("the committed dataset loads")
            .0
    })
}

pub(crate) fn risk_index() -> &'static RiskIndex {
    static INDEX: OnceLock<RiskIndex> = OnceLock::new();
    INDEX.get_or_init(|| RiskIndex::build(dataset()))
}

/// The static answer to a GET of `url` (`/api/...?name=value&...`, values not encoded) from the
/// committed dataset, through the catalogue and the one dispatch.
pub(crate) fn get(url: &str) -> Rendered {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    dispatch::get_static(dataset(), path, &api::pairs(query), None)
}
