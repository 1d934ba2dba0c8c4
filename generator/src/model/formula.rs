//! Molecular formulas read as element symbols and counts, for the ingest's organic/inorganic
//! call and exact masses and the tier rules' element groups alike.

/// Element symbols and counts of a Hill-style formula ("C8H10N4O2", "CdH3NO4", "Cd.S"); a
/// symbol without a count counts once, and anything that is not a symbol or a count ("." of
/// an InChI's components, charges) is skipped.
pub fn elements(formula: &str) -> Vec<(&str, u32)> {
    terms(formula)
        .filter_map(|term| term.ok())
        .map(|(symbol, count)| (symbol, count.unwrap_or(1)))
        .collect()
}

/// The same terms of a formula that holds nothing but element symbols and counts, or `None`
/// if anything else is in it (a charge, a dot, a count too large to read).
pub fn strict_elements(formula: &str) -> Option<Vec<(&str, u32)>> {
    terms(formula)
        .map(|term| term.ok().and_then(|(symbol, count)| Some((symbol, count?))))
        .collect()
}

/// Each element symbol with its count (`Some(1)` when none is written, `None` when the digits
/// overflow), or `Err(())` for a character that starts no symbol.
fn terms(formula: &str) -> impl Iterator<Item = Result<(&str, Option<u32>), ()>> {
    let bytes = formula.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        if i >= bytes.len() {
            return None;
        }
        if !bytes[i].is_ascii_uppercase() {
            i += 1;
            return Some(Err(()));
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
        let count = if digits == i {
            Some(1)
        } else {
            formula[digits..i].parse().ok()
        };
        Some(Ok((symbol, count)))
    })
}

#[cfg(test)]
mod tests {
    use super::{elements, strict_elements};

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

    #[test]
    fn strict_reading_refuses_anything_but_symbols_and_counts() {
        assert_eq!(
            strict_elements("C8H10N4O2"),
            Some(vec![("C", 8), ("H", 10), ("N", 4), ("O", 2)])
        );
        assert_eq!(strict_elements("Cd.S"), None);
        assert_eq!(strict_elements("C2H4O2-"), None);
        assert_eq!(strict_elements("C99999999999"), None);
        assert_eq!(elements("C99999999999"), [("C", 1)]);
        assert_eq!(strict_elements(""), Some(vec![]));
    }
}
