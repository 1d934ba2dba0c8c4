//! The acute value bands of METHODOLOGY.md's "Severity rubric for animals and the
//! environment": an LD50, LC50 or EC50 to a band, strength 3 (very high) to 0 (low), and a
//! bound (">2000 mg/kg bw") to a band only where every value it allows falls in one band.

use crate::model::record::DoseValue;
use crate::model::vocab::EcotoxGroup;

/// One band: values below `upper` (or equal to it when `inclusive`) that no earlier band
/// took have this strength.
struct Band {
    upper: f64,
    inclusive: bool,
    strength: u8,
}

const fn band(upper: f64, inclusive: bool, strength: u8) -> Band {
    Band {
        upper,
        inclusive,
        strength,
    }
}

/// GHS acute oral categories (UN GHS chapter 3.1) for birds and mammals, in mg/kg bw:
/// categories 1-2 (at most 50), 3 (at most 300), 4 (at most 2000), and above.
const ORAL: [Band; 4] = [
    band(50.0, true, 3),
    band(300.0, true, 2),
    band(2000.0, true, 1),
    band(f64::INFINITY, true, 0),
];

/// Aquatic acute L(E)C50 in mg/l: US EPA "very highly toxic" below 0.1, GHS acute category 1
/// at most 1, categories 2 and 3 at most 100, above 100 not classified.
const AQUATIC: [Band; 4] = [
    band(0.1, false, 3),
    band(1.0, true, 2),
    band(100.0, true, 1),
    band(f64::INFINITY, true, 0),
];

/// Honey bee acute LD50 in µg per bee, US EPA: "highly toxic" below 2, "moderately toxic"
/// below 11, "practically non-toxic" from 11.
const BEE: [Band; 3] = [
    band(2.0, false, 2),
    band(11.0, false, 1),
    band(f64::INFINITY, true, 0),
];

/// The band a point value falls in.
fn at(bands: &[Band], x: f64) -> u8 {
    bands
        .iter()
        .find(|b| x < b.upper || (b.inclusive && x == b.upper))
        .map_or(0, |b| b.strength)
}

/// The band of values just above `x` (">x").
fn above(bands: &[Band], x: f64) -> u8 {
    bands.iter().find(|b| x < b.upper).map_or(0, |b| b.strength)
}

/// The band of values just below `x` ("<x").
fn below(bands: &[Band], x: f64) -> u8 {
    bands
        .iter()
        .find(|b| x <= b.upper)
        .map_or(0, |b| b.strength)
}

/// The band of a value with its qualifier, if every value it allows is in one band: "=" and
/// "ca." are points; ">" and ">=" reach to infinity, "<" and "<=" down to zero. Another
/// qualifier gives none.
fn strength(bands: &[Band], qualifier: Option<&str>, value: f64) -> Option<u8> {
    let (low_end, high_end) = match qualifier.unwrap_or("=") {
        "=" | "ca." => (at(bands, value), at(bands, value)),
        ">" => (above(bands, value), at(bands, f64::INFINITY)),
        ">=" => (at(bands, value), at(bands, f64::INFINITY)),
        "<" => (below(bands, value), bands.first()?.strength),
        "<=" => (at(bands, value), bands.first()?.strength),
        _ => return None,
    };
    (low_end == high_end).then_some(low_end)
}

/// The value in the unit its group's bands are written in: mg/kg bw (an acute LD50 given "per
/// day" is one dose), mg/l (µg/l divided by 1000), µg per bee. Any other unit gives none.
fn in_band_unit(group: EcotoxGroup, d: &DoseValue) -> Option<f64> {
    match (group, d.unit.as_str()) {
        (EcotoxGroup::Birds | EcotoxGroup::LaboratoryMammals, "mg/kg bw" | "mg/kg bw/day")
        | (EcotoxGroup::AquaticLife, "mg/L" | "mg/l")
        | (EcotoxGroup::Pollinators, "µg/piece" | "µg/bee") => Some(d.value),
        (EcotoxGroup::AquaticLife, "µg/L" | "µg/l") => Some(d.value / 1000.0),
        _ => None,
    }
}

fn bands_of(group: EcotoxGroup) -> &'static [Band] {
    match group {
        EcotoxGroup::Birds | EcotoxGroup::LaboratoryMammals => &ORAL,
        EcotoxGroup::AquaticLife => &AQUATIC,
        EcotoxGroup::Pollinators => &BEE,
    }
}

/// The band of one value of a group, if its unit and qualifier place it in one.
fn of(group: EcotoxGroup, d: &DoseValue) -> Option<u8> {
    strength(
        bands_of(group),
        d.qualifier.as_deref(),
        in_band_unit(group, d)?,
    )
}

/// The most sensitive value of a group that a band can be given to (METHODOLOGY.md, "Acute
/// values"): the highest band, and within it the lowest value (the first one on a tie).
pub fn decisive(group: EcotoxGroup, doses: &[DoseValue]) -> Option<(&DoseValue, u8)> {
    let mut best: Option<(&DoseValue, u8, f64)> = None;
    for d in doses.iter().filter(|d| {
        d.is_current() && d.population.as_deref().and_then(EcotoxGroup::from_label) == Some(group)
    }) {
        let (Some(s), Some(v)) = (of(group, d), in_band_unit(group, d)) else {
            continue;
        };
        if best.is_none_or(|(_, bs, bv)| s > bs || (s == bs && v < bv)) {
            best = Some((d, s, v));
        }
    }
    best.map(|(d, s, _)| (d, s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_fall_in_the_rubric_s_bands_with_their_edges() {
        let oral = |v| strength(&ORAL, None, v);
        assert_eq!(oral(5.0), Some(3));
        assert_eq!(oral(50.0), Some(3), "category 2 includes 50");
        assert_eq!(oral(50.5), Some(2));
        assert_eq!(oral(300.0), Some(2));
        assert_eq!(oral(2000.0), Some(1), "category 4 includes 2000");
        assert_eq!(oral(2001.0), Some(0));
        let water = |v| strength(&AQUATIC, None, v);
        assert_eq!(water(0.05), Some(3));
        assert_eq!(water(0.1), Some(2), "EPA's very highly toxic is below 0.1");
        assert_eq!(water(1.0), Some(2), "GHS acute 1 includes 1 mg/l");
        assert_eq!(water(100.0), Some(1));
        assert_eq!(water(120.0), Some(0));
        let bee = |v| strength(&BEE, None, v);
        assert_eq!(bee(1.99), Some(2));
        assert_eq!(bee(2.0), Some(1));
        assert_eq!(bee(10.99), Some(1));
        assert_eq!(
            bee(11.0),
            Some(0),
            "EPA's practically non-toxic starts at 11"
        );
        assert_eq!(strength(&BEE, Some("ca."), 0.5), Some(2));
    }

    #[test]
    fn a_bound_gives_a_band_only_where_all_it_allows_is_in_one() {
        assert_eq!(strength(&ORAL, Some(">"), 2000.0), Some(0));
        assert_eq!(
            strength(&ORAL, Some(">="), 2000.0),
            None,
            "2000 is category 4"
        );
        assert_eq!(
            strength(&ORAL, Some(">"), 1000.0),
            None,
            "above 1000 may be category 4 or none"
        );
        assert_eq!(strength(&ORAL, Some(">="), 2001.0), Some(0));
        assert_eq!(strength(&ORAL, Some("<"), 50.0), Some(3));
        assert_eq!(strength(&ORAL, Some("<="), 50.0), Some(3));
        assert_eq!(strength(&ORAL, Some("<"), 51.0), None);
        assert_eq!(strength(&BEE, Some(">"), 11.0), Some(0));
        assert_eq!(strength(&BEE, Some(">="), 11.0), Some(0));
        assert_eq!(strength(&BEE, Some(">"), 10.0), None);
        assert_eq!(strength(&BEE, Some("<"), 2.0), Some(2));
        assert_eq!(
            strength(&BEE, Some("<="), 2.0),
            None,
            "2 is moderately toxic"
        );
        assert_eq!(strength(&AQUATIC, Some(">"), 100.0), Some(0));
        assert_eq!(strength(&AQUATIC, Some(">"), 96.0), None);
        assert_eq!(strength(&AQUATIC, Some("<"), 0.1), Some(3));
        assert_eq!(strength(&AQUATIC, Some("~"), 1.0), None);
    }

    fn dose(population: &str, qualifier: Option<&str>, value: f64, unit: &str) -> DoseValue {
        serde_json::from_value(serde_json::json!({
            "kind": "ld50", "qualifier": qualifier, "value": value, "unit": unit,
            "agency": "EFSA", "population": population, "source": "efsa"
        }))
        .expect("test data")
    }

    #[test]
    fn the_most_sensitive_placed_value_of_the_group_decides() {
        let doses = [
            dose("laboratory mammals", Some(">"), 2000.0, "mg/kg bw"),
            dose("laboratory mammals", None, 640.0, "mg/kg bw/day"),
            dose("laboratory mammals", Some(">"), 100.0, "mg/kg bw"),
            dose("laboratory mammals", None, 5.0, "mg/kg"),
            dose("birds", None, 3.0, "mg/kg bw"),
            dose("aquatic life", None, 90.0, "µg/L"),
            dose("aquatic life", None, 0.5, "mg/L"),
        ];
        let (d, s) = decisive(EcotoxGroup::LaboratoryMammals, &doses).expect("placed");
        assert_eq!(
            (d.value, s),
            (640.0, 1),
            "a bound that straddles bands and a feed unit are not read"
        );
        let (d, s) = decisive(EcotoxGroup::AquaticLife, &doses).expect("placed");
        assert_eq!((d.value, s), (90.0, 3), "90 µg/l is 0.09 mg/l");
        assert_eq!(
            decisive(EcotoxGroup::Birds, &doses).map(|(_, s)| s),
            Some(3)
        );
        assert!(decisive(EcotoxGroup::Pollinators, &doses).is_none());
    }
}
