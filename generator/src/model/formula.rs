//! Molecular formulas read as element symbols and counts, for the ingest's organic/inorganic
//! call and the tier rules' element groups alike.

/// Element symbols and counts of a Hill-style formula ("C8H10N4O2", "CdH3NO4", "Cd.S"); a
/// symbol without a count counts once, and anything that is not a symbol or a count ("." of
/// an InChI's components, charges) is skipped.
pub fn elements(formula: &str) -> Vec<(&str, u32)> {
    let bytes = formula.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_uppercase() {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_lowercase() {
            i += 1;
        }
        let symbol = &formula[start..i];
        let digits = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        out.push((symbol, formula[digits..i].parse().unwrap_or(1)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::elements;

    #[test]
    fn reads_symbols_and_counts() {
        assert_eq!(
            elements("C8H10N4O2"),
            [("C", 8), ("H", 10), ("N", 4), ("O", 2)]
        );
        assert_eq!(
            elements("CdH3NO4"),
            [("Cd", 1), ("H", 3), ("N", 1), ("O", 4)]
        );
        assert_eq!(elements("Cd.S"), [("Cd", 1), ("S", 1)]);
        assert_eq!(elements("2Na.O4S-2"), [("Na", 1), ("O", 4), ("S", 1)]);
        assert!(elements("").is_empty());
    }
}
