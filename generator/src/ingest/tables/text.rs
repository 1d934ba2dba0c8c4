//! Reading helpers shared by the parsers: text in the encodings the tables use, CSV/TSV
//! readers that tolerate ragged rows, and the date forms the tables print.

use std::path::Path;

use super::TableError;

/// The file as UTF-8 text, without a byte-order mark.
pub fn read_utf8(path: &Path) -> Result<String, TableError> {
    let bytes = read_bytes(path)?;
    let text = String::from_utf8(bytes).map_err(|e| TableError::Format {
        path: path.display().to_string(),
        message: format!("not UTF-8: {e}"),
    })?;
    Ok(strip_bom(text))
}

/// The file decoded from Windows-1252 (OEHHA's Prop 65 export).
pub fn read_cp1252(path: &Path) -> Result<String, TableError> {
    let bytes = read_bytes(path)?;
    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(&bytes);
    Ok(strip_bom(text.into_owned()))
}

pub fn read_bytes(path: &Path) -> Result<Vec<u8>, TableError> {
    std::fs::read(path).map_err(|source| TableError::Io {
        path: path.display().to_string(),
        source,
    })
}

fn strip_bom(text: String) -> String {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// A CSV (or TSV, with `b'\t'`) reader over text that tolerates rows of differing length.
pub fn reader(text: &str, delimiter: u8, has_headers: bool) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(has_headers)
        .flexible(true)
        .from_reader(text.as_bytes())
}

pub fn csv_error(path: &str, source: csv::Error) -> TableError {
    TableError::Csv {
        path: path.to_string(),
        source,
    }
}

/// A cell, trimmed; empty cells and "NA"-style placeholders are `None`.
pub fn cell(row: &csv::StringRecord, i: usize) -> Option<&str> {
    let v = row.get(i)?.trim();
    match v {
        "" | "NA" | "N/A" | "-" | "--" | "---" | "nan" => None,
        _ => Some(v),
    }
}

/// `1-Jan-90`, `23-Jan-2024` or `27-Dec-2021` as an ISO date. Two-digit years are 19xx from
/// 50 on (the tables' lists start in the 1980s) and 20xx below.
pub fn day_month_year(s: &str) -> Option<String> {
    let mut parts = s.trim().split('-');
    let (d, m, y) = (parts.next()?, parts.next()?, parts.next()?);
    let day: u32 = d.parse().ok()?;
    let month = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    .iter()
    .position(|n| m.len() >= 3 && n.eq_ignore_ascii_case(&m[..3]))?
        + 1;
    let year: i32 = y.parse().ok()?;
    let year = match (y.len(), year) {
        (2, y) if y >= 50 => 1900 + y,
        (2, y) => 2000 + y,
        (4, y) => y,
        _ => return None,
    };
    chrono::NaiveDate::from_ymd_opt(year, month as u32, day).map(|d| d.to_string())
}

/// Kelvin to degrees Celsius, rounded to 0.01 as the tables' precision allows.
pub fn kelvin_to_celsius(k: f64) -> f64 {
    ((k - 273.15) * 100.0).round() / 100.0
}

/// Capitalises a lowercase name for display ("ethylene glycol" -> "Ethylene glycol"), but
/// leaves locant prefixes alone ("o-toluidine", "n-hexane", "2-naphthylamine").
pub fn display_name(name: &str) -> String {
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_ascii_lowercase() && second.is_alphabetic() => {
            let mut out = first.to_ascii_uppercase().to_string();
            out.push_str(&name[1..]);
            out
        }
        _ => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_tables() {
        assert_eq!(day_month_year("1-Jan-90").as_deref(), Some("1990-01-01"));
        assert_eq!(day_month_year("8-Apr-16").as_deref(), Some("2016-04-08"));
        assert_eq!(day_month_year("23-Jan-2024").as_deref(), Some("2024-01-23"));
        assert_eq!(day_month_year("31-Feb-2024"), None);
        assert_eq!(day_month_year("soon"), None);
    }

    #[test]
    fn kelvin() {
        assert_eq!(kelvin_to_celsius(373.15), 100.0);
        assert_eq!(kelvin_to_celsius(181.15), -92.0);
    }

    #[test]
    fn display_names() {
        assert_eq!(display_name("ethylene glycol"), "Ethylene glycol");
        assert_eq!(display_name("o-toluidine"), "o-toluidine");
        assert_eq!(display_name("2-naphthylamine"), "2-naphthylamine");
        assert_eq!(display_name("Benzene"), "Benzene");
    }

    #[test]
    fn placeholder_cells_are_empty() {
        let row = csv::StringRecord::from(vec![" NA ", "x", "", "---"]);
        assert_eq!(cell(&row, 0), None);
        assert_eq!(cell(&row, 1), Some("x"));
        assert_eq!(cell(&row, 2), None);
        assert_eq!(cell(&row, 3), None);
        assert_eq!(cell(&row, 9), None);
    }
}
