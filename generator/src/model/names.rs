//! Names as source tables write them, tidied for display and for matching.

/// Tidies a name from a table: trims, collapses whitespace, drops cross-reference notes
/// such as "(see Estrogens, Steroidal)" and trailing footnote digits stuck to words.
pub fn clean_name(raw: &str) -> String {
    let mut name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(i) = name.find(" (see ") {
        name.truncate(i);
    }
    name.trim_matches(|c: char| c == '"' || c.is_whitespace())
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_tidied() {
        assert_eq!(
            clean_name("  Estradiol-17B (see Estrogens, Steroidal)"),
            "Estradiol-17B"
        );
        assert_eq!(
            clean_name("Formaldehyde [50-00-0]  "),
            "Formaldehyde [50-00-0]"
        );
        assert_eq!(clean_name("Benz[a]anthracene\n"), "Benz[a]anthracene");
    }
}
