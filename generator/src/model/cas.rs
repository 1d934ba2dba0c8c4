//! CAS Registry Numbers: parsing and the check digit.

use std::fmt;

/// A CAS number whose shape and check digit are valid, e.g. `50-00-0`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cas(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CasError {
    #[error("`{0}` is not a CAS number (expected digits-dd-d, e.g. 50-00-0)")]
    Shape(String),
    #[error("`{input}` has check digit {given}, but its digits give {expected}")]
    CheckDigit {
        input: String,
        given: u32,
        expected: u32,
    },
}

impl Cas {
    /// Parses a CAS number exactly as written (pattern), and checks its check digit.
    pub fn parse(input: &str) -> Result<Cas, CasError> {
        let shape = || CasError::Shape(input.to_string());
        let mut parts = input.split('-');
        let (Some(a), Some(b), Some(c), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(shape());
        };
        let digits_only = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let well_formed = digits_only(a)
            && a.len() <= 7
            && digits_only(b)
            && b.len() == 2
            && digits_only(c)
            && c.len() == 1;
        if !well_formed {
            return Err(shape());
        }
        let given = u32::from(c.as_bytes()[0] - b'0');
        let expected = check_digit(&format!("{a}{b}"));
        if given != expected {
            return Err(CasError::CheckDigit {
                input: input.to_string(),
                given,
                expected,
            });
        }
        Ok(Cas(input.to_string()))
    }

    /// Parses a CAS number as source tables write it: stray spaces or leading zeros
    /// (`34465-46- 8`, `0000050-00-0`).
    pub fn parse_lenient(input: &str) -> Result<Cas, CasError> {
        let compact: String = input.chars().filter(|c| !c.is_whitespace()).collect();
        let trimmed = compact.trim_start_matches('0');
        Cas::parse(trimmed).map_err(|e| match e {
            CasError::Shape(_) => CasError::Shape(input.to_string()),
            other => other,
        })
    }

    /// Parses the hyphen-less integer form some tables use (`50000` for 50-00-0).
    pub fn from_digits(input: &str) -> Result<Cas, CasError> {
        let digits = input.trim();
        if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CasError::Shape(input.to_string()));
        }
        let (body, check) = digits.split_at(digits.len() - 1);
        let (head, mid) = body.split_at(body.len() - 2);
        Cas::parse_lenient(&format!("{head}-{mid}-{check}"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Numeric value of the digits, for sorting CAS numbers in registry order.
    pub fn sort_key(&self) -> u64 {
        self.0
            .bytes()
            .filter(u8::is_ascii_digit)
            .fold(0, |n, b| n * 10 + u64::from(b - b'0'))
    }
}

impl fmt::Display for Cas {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Written as its text, the same JSON bytes as the string it replaced.
impl serde::Serialize for Cas {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// Read by parsing (exactly as written): a malformed number makes the file that holds it
/// unreadable, with the reason.
impl<'de> serde::Deserialize<'de> for Cas {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        Cas::parse(&text).map_err(serde::de::Error::custom)
    }
}

plain_string_schema!(Cas);

/// The CAS check digit: the sum of each digit times its position from the right, mod 10.
fn check_digit(digits: &str) -> u32 {
    digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| (i as u32 + 1) * u32::from(b - b'0'))
        .sum::<u32>()
        % 10
}

/// All valid CAS numbers in a source cell that may hold several ("68-22-4/ 57-63-6").
pub fn parse_cell(cell: &str) -> Vec<Cas> {
    cell.split(['/', ',', ';', '\n'])
        .filter_map(|part| Cas::parse_lenient(part).ok())
        .collect()
}

/// Test shorthand: a CAS number known to be valid.
#[cfg(test)]
pub fn cas(s: &str) -> Cas {
    Cas::parse(s).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_numbers() {
        for ok in [
            "50-00-0",
            "7732-18-5",
            "7647-14-5",
            "80-05-7",
            "117-81-7",
            "1763-23-1",
        ] {
            assert_eq!(Cas::parse(ok).map(|c| c.to_string()), Ok(ok.to_string()));
        }
    }

    #[test]
    fn wrong_check_digit_is_named() {
        assert_eq!(
            Cas::parse("50-00-1"),
            Err(CasError::CheckDigit {
                input: "50-00-1".into(),
                given: 1,
                expected: 0
            })
        );
    }

    #[test]
    fn malformed_shapes() {
        for bad in [
            "",
            "50000",
            "50-0-0",
            "50-000-0",
            "a0-00-0",
            "12345678-00-0",
            "50-00-0-1",
        ] {
            assert!(matches!(Cas::parse(bad), Err(CasError::Shape(_))), "{bad}");
        }
    }

    #[test]
    fn lenient_forms_from_tables() {
        assert_eq!(Cas::from_digits("50000").unwrap().as_str(), "50-00-0");
        assert!(Cas::from_digits("50001").is_err());
        assert_eq!(
            Cas::parse_lenient(" 34465-46- 8").unwrap().as_str(),
            "34465-46-8"
        );
        assert_eq!(
            Cas::parse_lenient("0000050-00-0").unwrap().as_str(),
            "50-00-0"
        );
        assert!(Cas::parse_lenient("---").is_err());
        assert!(Cas::parse_lenient("542449").is_err());
    }

    #[test]
    fn cells_with_several_numbers() {
        let got: Vec<String> = parse_cell("68-22-4/               57-63-6")
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(got, ["68-22-4", "57-63-6"]);
    }

    #[test]
    fn serde_is_the_plain_string() {
        let json = serde_json::to_string(&cas("50-00-0")).unwrap();
        assert_eq!(json, "\"50-00-0\"");
        assert_eq!(serde_json::from_str::<Cas>(&json).unwrap(), cas("50-00-0"));
        let e = serde_json::from_str::<Cas>("\"50-00-1\"").unwrap_err();
        assert!(e.to_string().contains("check digit"), "{e}");
    }

    #[test]
    fn sort_key_is_numeric() {
        let a = Cas::parse("50-00-0").unwrap();
        let b = Cas::parse("100-00-5").unwrap();
        assert!(a.sort_key() < b.sort_key());
    }
}
