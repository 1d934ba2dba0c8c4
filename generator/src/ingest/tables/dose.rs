//! One value as a source table states it: every table that writes a `DoseValue` starts from
//! this and sets only what its row adds (qualifier, year, population, route, species, basis,
//! reference). Lifecycle and dating fields are left for the load to set.

use crate::model::catalog::SourceDescriptor;
use crate::model::record::DoseValue;
use crate::model::vocab::DoseKind;

pub(super) fn stated(
    src: &SourceDescriptor,
    agency: &str,
    kind: DoseKind,
    value: f64,
    unit: impl Into<String>,
) -> DoseValue {
    DoseValue {
        kind,
        qualifier: None,
        value,
        unit: unit.into(),
        agency: agency.to_string(),
        year: None,
        population: None,
        route: None,
        species: None,
        basis: None,
        reference: None,
        source: src.id.clone(),
        status: None,
        superseded_by: None,
        effective_from: None,
        date_precision: None,
        effective_until: None,
    }
}
