//! The environmental fate section of a one-context comparison: bioaccumulation, persistence
//! and soil mobility as each record holds them.

use serde::Serialize;

use crate::model::record::{CompoundRecord, Measured};

#[derive(Serialize, schemars::JsonSchema)]
struct Quantity<'a> {
    value: f64,
    unit: &'a str,
    source: &'a str,
}

fn quantity(m: Option<&Measured>) -> Option<Quantity<'_>> {
    m.map(|m| Quantity {
        value: m.value,
        unit: &m.unit,
        source: &m.source,
    })
}

#[derive(Serialize, schemars::JsonSchema)]
struct Flag<'a> {
    value: bool,
    source: &'a str,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Bioaccumulation<'a> {
    log_kow: Option<Quantity<'a>>,
    bcf: Option<Quantity<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Persistence<'a> {
    persistent_bioaccumulative: Option<Flag<'a>>,
    atmospheric_lifetime: Option<Quantity<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Fate<'a> {
    bioaccumulation: Bioaccumulation<'a>,
    persistence: Persistence<'a>,
    soil_mobility: Option<Quantity<'a>>,
}

/// A compound's environmental fate.
pub(super) fn of(record: &CompoundRecord) -> Fate<'_> {
    let fate = &record.properties.environmental_fate;
    Fate {
        bioaccumulation: Bioaccumulation {
            log_kow: quantity(fate.log_kow.as_ref()),
            // The record model has no BCF or Koc: no source table of the corpus gives
            // them, so these stay null rather than being estimated from log Kow.
            bcf: None,
        },
        persistence: Persistence {
            persistent_bioaccumulative: fate.persistent_bioaccumulative.as_ref().map(|p| Flag {
                value: p.value,
                source: &p.source,
            }),
            atmospheric_lifetime: quantity(fate.atmospheric_lifetime.as_ref()),
        },
        soil_mobility: None,
    }
}
