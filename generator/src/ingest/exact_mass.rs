//! Monoisotopic ("exact") masses, derived from a compound's molecular formula and the NIST
//! isotope table (exported from the `molmass` package by scripts/fetch-sources): the sum, over
//! the formula's atoms, of the mass of each element's most abundant isotope.

use std::collections::BTreeMap;
use std::path::Path;

use super::tables::TableError;

/// Element symbol -> mass of its most abundant isotope.
#[derive(Debug, Clone, Default)]
pub struct IsotopeTable {
    masses: BTreeMap<String, f64>,
}

impl IsotopeTable {
    pub fn read(path: &Path) -> Result<IsotopeTable, TableError> {
        let text = std::fs::read_to_string(path).map_err(|source| TableError::Io {
            path: path.display().to_string(),
            source,
        })?;
        IsotopeTable::parse(&text).map_err(|message| TableError::Format {
            path: path.display().to_string(),
            message,
        })
    }

    /// Parses `symbol<TAB>mass_number<TAB>mass<TAB>abundance` rows after a header.
    pub fn parse(text: &str) -> Result<IsotopeTable, String> {
        let mut best: BTreeMap<String, (f64, f64)> = BTreeMap::new();
        for (i, line) in text.lines().enumerate().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            let [symbol, _, mass, abundance] = cols[..] else {
                return Err(format!("line {}: expected 4 columns", i + 1));
            };
            let number = |s: &str| {
                s.parse::<f64>()
                    .map_err(|e| format!("line {}: {s:?}: {e}", i + 1))
            };
            let (mass, abundance) = (number(mass)?, number(abundance)?);
            let entry = best.entry(symbol.to_string()).or_insert((mass, abundance));
            if abundance > entry.1 {
                *entry = (mass, abundance);
            }
        }
        Ok(IsotopeTable {
            masses: best.into_iter().map(|(s, (m, _))| (s, m)).collect(),
        })
    }

    /// The monoisotopic mass of a Hill formula ("C8H10N4O2"), rounded to 6 decimals; `None`
    /// if the formula has anything but element symbols and counts, or an unknown element.
    pub fn exact_mass(&self, formula: &str) -> Option<f64> {
        let mut total = 0.0;
        for (symbol, count) in crate::model::formula::strict_elements(formula)? {
            total += self.masses.get(symbol)? * f64::from(count);
        }
        (total > 0.0).then(|| (total * 1e6).round() / 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "symbol\tmass_number\tmass\tabundance\n\
        H\t1\t1.00782503223\t0.999885\nH\t2\t2.01410177812\t0.000115\n\
        C\t12\t12.0\t0.9893\nC\t13\t13.00335483507\t0.0107\n\
        N\t14\t14.00307400443\t0.99636\nO\t16\t15.99491461957\t0.99757\n\
        Cl\t35\t34.968852682\t0.7576\nCl\t37\t36.965902602\t0.2424\n";

    #[test]
    fn masses_of_known_compounds() {
        let t = IsotopeTable::parse(TABLE).unwrap();
        // Caffeine, PubChem monoisotopic mass 194.080376.
        assert_eq!(t.exact_mass("C8H10N4O2"), Some(194.080376));
        // Chloroform: the most abundant chlorine isotope is 35Cl.
        assert_eq!(t.exact_mass("CHCl3"), Some(117.914383));
        assert_eq!(t.exact_mass("H2O"), Some(18.010565));
    }

    #[test]
    fn unknown_or_odd_formulas_have_no_mass() {
        let t = IsotopeTable::parse(TABLE).unwrap();
        for f in ["", "C6H6.ClH", "Xx2", "C2H4O2-", "c6h6"] {
            assert_eq!(t.exact_mass(f), None, "{f}");
        }
    }

    #[test]
    fn malformed_table_is_an_error() {
        assert!(IsotopeTable::parse("h\nH\t1\tx\t1\n").is_err());
        assert!(IsotopeTable::parse("h\nH\t1\n").is_err());
    }
}
