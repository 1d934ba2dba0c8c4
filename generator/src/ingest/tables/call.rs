//! One agency's call as a source table states it: every table that writes a
//! `Classification` starts from this and sets only what its row adds (year, date,
//! basis, qualifier). Lifecycle and dating fields are left for the load to set.

use crate::model::catalog::SourceDescriptor;
use crate::model::record::Classification;

pub(super) fn stated(
    src: &SourceDescriptor,
    agency: &str,
    attribution: &str,
    classification: impl Into<String>,
) -> Classification {
    Classification {
        agency: agency.to_string(),
        attribution: attribution.to_string(),
        classification: classification.into(),
        year: None,
        date: None,
        basis: None,
        qualifier: None,
        source_url: src.url.clone(),
        source: src.id.clone(),
        applies_from: None,
        status: None,
        superseded_by: None,
        effective_from: None,
        date_precision: None,
        effective_until: None,
    }
}
