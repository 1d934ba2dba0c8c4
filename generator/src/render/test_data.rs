//! The datasets the render modules' unit tests read, each loaded once: the committed dataset
//! (and its risk index), for tests about the production data, and a small valid fixture, for
//! tests that need only a few records.

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

/// `tests/fixtures/data-small`: seven compounds as the committed dataset holds them, with the
/// committed curated overlays' entries on them (`curated/`, each file cut to those entries and
/// the sources they cite): formaldehyde, benzene, BPA, BPS, PFOA (its IARC 2B call superseded
/// by Volume 135's Group 1), bisphenol AP (classified for aquatic life only, so answered in no
/// context for people) and sarin (a critical threat, CWC Schedule 1); their aliases;
/// polycarbonate and the BPA and BPS thermal papers; children's drinking cups and thermal paper
/// receipts, with their cited composition lines. `check` passes on it (`the_fixture_is_valid`).
pub(crate) fn fixture() -> &'static Dataset {
    static DATA: OnceLock<Dataset> = OnceLock::new();
    DATA.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/data-small");
        let (dataset, problems) = load(&dir).expect("the fixture dataset loads");
        assert!(problems.is_empty(), "{problems:#?}");
        dataset
    })
}

pub(crate) fn risk_index() -> &'static RiskIndex {
    static INDEX: OnceLock<RiskIndex> = OnceLock::new();
    INDEX.get_or_init(|| RiskIndex::build(dataset()))
}

/// The fixture's risk index, as `risk_index` is the committed dataset's.
pub(crate) fn fixture_risk_index() -> &'static RiskIndex {
    static INDEX: OnceLock<RiskIndex> = OnceLock::new();
    INDEX.get_or_init(|| RiskIndex::build(fixture()))
}

/// The static answer to a GET of `url` (`/api/...?name=value&...`, values not encoded) from the
/// committed dataset, through the catalogue and the one dispatch.
pub(crate) fn get(url: &str) -> Rendered {
    get_in(dataset(), url)
}

/// As `get`, from `dataset`.
pub(crate) fn get_in(dataset: &Dataset, url: &str) -> Rendered {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    dispatch::get_static(dataset, path, &api::pairs(query), None)
}

#[test]
fn the_fixture_is_valid() {
    let d = fixture();
    assert_eq!(
        (d.compounds.len(), d.materials.len(), d.products.len()),
        (7, 3, 2)
    );
    let problems = crate::validate::validate(d);
    assert!(problems.is_empty(), "{problems:#?}");
}
