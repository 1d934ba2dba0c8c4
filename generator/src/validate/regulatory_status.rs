//! The `check` rules of the regulatory-status layer beyond its shape: every value cited
//! (`source_ref` and a source of its file), cells written in the vocabularies, the enumerated
//! fields in theirs, real ISO dates, one in-force value at a time, no duplicate cell.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::Problem;
use crate::model::regulatory_status::{
    CHANGE_TYPES, CONFIDENCES, Cell, JURISDICTIONS, JurisdictionFile, LEGAL_STATUSES, MATRIX_KINDS,
    NO_LEGAL_STATUS, RegulatoryStatus, STATUSES, Value, Vocabulary, parse_date,
};

const VOCABULARY_FILE: &str = "regulatory-status/vocabulary.json";

/// Appends the layer's problems, each with its file and JSON path.
pub fn validate(rs: &RegulatoryStatus, problems: &mut Vec<Problem>) {
    vocabulary(&rs.vocabulary, problems);
    // (analyte, matrix, jurisdiction) -> where the cell first appears.
    let mut seen: BTreeMap<(&str, &str, &str), (&str, usize)> = BTreeMap::new();
    for loaded in &rs.files {
        let file = loaded.file.as_str();
        let content = &loaded.content;
        let mut p =
            |path: String, message: String| problems.push(Problem::new(file, path, message));
        if !JURISDICTIONS.contains(&content.jurisdiction.as_str()) {
            p(
                "jurisdiction".into(),
                one_of(&content.jurisdiction, &JURISDICTIONS),
            );
        }
        let source_ids = file_sources(content, &mut p);
        for (i, cell) in content.cells.iter().enumerate() {
            let at = format!("cells[{i}]");
            cell_names(rs, content, cell, &at, &mut p);
            let key = (
                cell.analyte.as_str(),
                cell.matrix.as_str(),
                cell.jurisdiction.as_str(),
            );
            match seen.get(&key) {
                Some((first_file, first)) => p(
                    at.clone(),
                    format!(
                        "duplicate cell ({}, {}, {}): also cells[{first}] of {first_file}",
                        key.0, key.1, key.2
                    ),
                ),
                None => {
                    seen.insert(key, (file, i));
                }
            }
            cell_timeline(cell, &at, &source_ids, &mut p);
        }
    }
}

/// The file's source ids, each defined once and dated.
fn file_sources<'a>(
    content: &'a JurisdictionFile,
    p: &mut impl FnMut(String, String),
) -> BTreeSet<&'a str> {
    let mut source_ids = BTreeSet::new();
    for (i, s) in content.sources.iter().enumerate() {
        if !source_ids.insert(s.id.as_str()) {
            p(
                format!("sources[{i}].id"),
                format!("{:?} is defined twice", s.id),
            );
        }
        if parse_date(&s.date).is_none() {
            p(format!("sources[{i}].date"), not_a_date(&s.date));
        }
    }
    source_ids
}

/// The cell's analyte and matrix are in the vocabulary, its jurisdiction is the file's.
fn cell_names(
    rs: &RegulatoryStatus,
    content: &JurisdictionFile,
    cell: &Cell,
    at: &str,
    p: &mut impl FnMut(String, String),
) {
    if !rs.vocabulary.analytes.contains_key(&cell.analyte) {
        p(
            format!("{at}.analyte"),
            format!("{:?} is not an analyte of {VOCABULARY_FILE}", cell.analyte),
        );
    }
    if !rs.vocabulary.matrices.contains_key(&cell.matrix) {
        p(
            format!("{at}.matrix"),
            format!("{:?} is not a matrix of {VOCABULARY_FILE}", cell.matrix),
        );
    }
    if !JURISDICTIONS.contains(&cell.jurisdiction.as_str()) {
        p(
            format!("{at}.jurisdiction"),
            one_of(&cell.jurisdiction, &JURISDICTIONS),
        );
    } else if cell.jurisdiction != content.jurisdiction {
        p(
            format!("{at}.jurisdiction"),
            format!(
                "{} in a file of jurisdiction {}",
                cell.jurisdiction, content.jurisdiction
            ),
        );
    }
}

/// The cell's governance timeline: not empty, every value cited and valid, one in force.
fn cell_timeline(
    cell: &Cell,
    at: &str,
    source_ids: &BTreeSet<&str>,
    p: &mut impl FnMut(String, String),
) {
    if cell.governance_timeline.is_empty() {
        p(
            format!("{at}.governance_timeline"),
            "empty: a cell needs at least one cited value".into(),
        );
    }
    for (j, v) in cell.governance_timeline.iter().enumerate() {
        value(v, source_ids, &mut |field, message| {
            p(format!("{at}.governance_timeline[{j}]{field}"), message)
        });
    }
    one_in_force(cell, &mut |j, message| {
        p(format!("{at}.governance_timeline[{j}].status"), message)
    });
}

/// Ids are filter values matched case-insensitively, so they must be lower-case snake case to
/// be told apart; CAS numbers must be valid.
fn vocabulary(vocabulary: &Vocabulary, problems: &mut Vec<Problem>) {
    let mut p = |path: String, message: String| {
        problems.push(Problem::new(VOCABULARY_FILE, path, message));
    };
    let ids = vocabulary
        .analytes
        .keys()
        .map(|id| ("analytes", id))
        .chain(vocabulary.matrices.keys().map(|id| ("matrices", id)));
    for (group, id) in ids {
        if !is_id(id) {
            p(
                format!("{group}.{id}"),
                format!("{id:?} is not an id: lower-case letters, digits and _, from a letter"),
            );
        }
    }
    for (id, analyte) in &vocabulary.analytes {
        for (k, cas) in analyte.cas.iter().enumerate() {
            if let Err(e) = crate::model::cas::Cas::parse(cas) {
                p(format!("analytes.{id}.cas[{k}]"), e.to_string());
            }
        }
    }
    for (id, matrix) in &vocabulary.matrices {
        if !MATRIX_KINDS.contains(&matrix.kind.as_str()) {
            p(
                format!("matrices.{id}.kind"),
                format!(
                    "{:?} is not a kind: one of {}",
                    matrix.kind,
                    MATRIX_KINDS.join(", ")
                ),
            );
        }
    }
}

fn is_id(id: &str) -> bool {
    id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// One value's rules; `p` takes the field (`.source_ref`) and the message.
fn value(v: &Value, source_ids: &BTreeSet<&str>, p: &mut impl FnMut(&str, String)) {
    if v.source_ref.as_deref().is_none_or(|s| s.trim().is_empty()) {
        p(
            ".source_ref",
            "missing: every value cites the article, section or entry it is read from".into(),
        );
    }
    match v.source.as_deref() {
        None => p(
            ".source",
            "missing: every value names a source of its file".into(),
        ),
        Some(id) if !source_ids.contains(id) => p(
            ".source",
            format!("{id:?} is not the id of an entry of this file's sources"),
        ),
        Some(_) => {}
    }
    if v.instrument.trim().is_empty() {
        p(".instrument", "empty: name the instrument".into());
    }
    if !STATUSES.contains(&v.status.as_str()) {
        p(".status", one_of(&v.status, &STATUSES));
    }
    if !CONFIDENCES.contains(&v.confidence.as_str()) {
        p(".confidence", one_of(&v.confidence, &CONFIDENCES));
    }
    if !LEGAL_STATUSES.contains(&v.legal_status.as_str()) {
        p(".legal_status", one_of(&v.legal_status, &LEGAL_STATUSES));
    }
    if let Some(t) = v
        .change_type
        .as_deref()
        .filter(|t| !CHANGE_TYPES.contains(t))
    {
        p(".change_type", one_of(t, &CHANGE_TYPES));
    }
    match v.threshold_ppb {
        Some(t) if v.legal_status == NO_LEGAL_STATUS => p(
            ".threshold_ppb",
            format!("{t}: a value with legal_status none has no threshold"),
        ),
        Some(t) if !(t.is_finite() && t >= 0.0) => {
            p(".threshold_ppb", format!("{t} is not a concentration"));
        }
        _ => {}
    }
    for (field, date) in [
        (".effective_from", &v.effective_from),
        (".compliance_deadline", &v.compliance_deadline),
    ] {
        if let Some(d) = date.as_deref().filter(|d| parse_date(d).is_none()) {
            p(field, not_a_date(d));
        }
    }
    if v.effective_from.is_none() && matches!(v.status.as_str(), "in_force" | "superseded") {
        p(
            ".effective_from",
            format!(
                "missing: a {} value was in force from a date, which decides when it governs",
                v.status
            ),
        );
    }
}

/// At most one confirmed in-force value effective at any date. An `in_force` value stays in
/// force from its date on (a replaced one is `superseded`), so two of them overlap from the
/// later date: the earlier one should be marked superseded.
fn one_in_force(cell: &Cell, p: &mut impl FnMut(usize, String)) {
    let mut in_force: Vec<(usize, &str)> = cell
        .governance_timeline
        .iter()
        .enumerate()
        .filter(|(_, v)| v.status == "in_force" && v.is_confirmed())
        .filter_map(|(j, v)| v.effective_from.as_deref().map(|d| (j, d)))
        .filter(|(_, d)| parse_date(d).is_some())
        .collect();
    // ISO dates sort as text.
    in_force.sort_by_key(|(j, d)| (*d, *j));
    if let Some(((first, first_date), rest)) = in_force.split_first() {
        for (j, date) in rest {
            p(
                *j,
                format!(
                    "a second confirmed in_force value (from {date}) while governance_timeline\
                     [{first}] is in force from {first_date}: mark the earlier one superseded"
                ),
            );
        }
    }
}

fn one_of(value: &str, valid: &[&str]) -> String {
    format!("{value:?} is not one of {}", valid.join(", "))
}

fn not_a_date(value: &str) -> String {
    format!("{value:?} is not a date YYYY-MM-DD")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::regulatory_status::{Analyte, JurisdictionFile, LoadedFile, Matrix, Source};

    fn good_value() -> Value {
        Value {
            threshold_ppb: Some(10.0),
            stated: Some("0.010 mg/kg".into()),
            legal_status: "binding_maximum".into(),
            status: "in_force".into(),
            effective_from: Some("2023-05-25".into()),
            compliance_deadline: None,
            confidence: "confirmed".into(),
            instrument: "Regulation (EU) 2023/915".into(),
            source_ref: Some("Annex I, entry 3.1.1".into()),
            source: Some("eu-2023-915".into()),
            change_type: None,
            issuer: None,
            monograph: None,
        }
    }

    fn layer(cells: Vec<Cell>) -> RegulatoryStatus {
        let mut vocabulary = Vocabulary::default();
        vocabulary.analytes.insert(
            "lead".into(),
            Analyte {
                name: "Lead".into(),
                description: "Pb".into(),
                cas: vec!["7439-92-1".into()],
            },
        );
        vocabulary.matrices.insert(
            "infant_formula".into(),
            Matrix {
                name: "Infant formula".into(),
                kind: "food".into(),
                description: "powder".into(),
            },
        );
        RegulatoryStatus {
            dataset_version: "rs-000000000000".into(),
            written: Default::default(),
            vocabulary,
            files: vec![LoadedFile {
                file: "regulatory-status/eu.json".into(),
                content: JurisdictionFile {
                    jurisdiction: "EU".into(),
                    sources: vec![Source {
                        id: "eu-2023-915".into(),
                        title: "Regulation (EU) 2023/915".into(),
                        publisher: "European Commission".into(),
                        url: "https://eur-lex.europa.eu/eli/reg/2023/915/oj".into(),
                        date: "2023-04-25".into(),
                    }],
                    cells,
                    gaps: vec![],
                },
            }],
        }
    }

    fn cell(timeline: Vec<Value>) -> Cell {
        Cell {
            analyte: "lead".into(),
            matrix: "infant_formula".into(),
            jurisdiction: "EU".into(),
            legal_status_note: None,
            governance_timeline: timeline,
        }
    }

    fn problems(rs: &RegulatoryStatus) -> Vec<String> {
        let mut out = Vec::new();
        validate(rs, &mut out);
        out.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_clean_layer_has_no_problem() {
        let mut old = good_value();
        old.status = "superseded".into();
        old.effective_from = Some("2016-01-01".into());
        assert_eq!(
            problems(&layer(vec![cell(vec![old, good_value()])])),
            Vec::<String>::new()
        );
    }

    #[test]
    fn each_value_rule_names_its_path() {
        type Break = fn(&mut Value);
        let table: &[(Break, &str)] = &[
            (|v| v.source_ref = None, ".source_ref: missing"),
            (|v| v.source_ref = Some("  ".into()), ".source_ref: missing"),
            (|v| v.source = None, ".source: missing"),
            (
                |v| v.source = Some("eu-1881".into()),
                ".source: \"eu-1881\" is not the id",
            ),
            (
                |v| v.status = "repealed".into(),
                ".status: \"repealed\" is not one of",
            ),
            (
                |v| v.confidence = "likely".into(),
                ".confidence: \"likely\" is not one of",
            ),
            (
                |v| v.legal_status = "ban".into(),
                ".legal_status: \"ban\" is not one of",
            ),
            (
                |v| v.change_type = Some("ban".into()),
                ".change_type: \"ban\" is not one of",
            ),
            (
                |v| v.effective_from = Some("2026-02-30".into()),
                ".effective_from: \"2026-02-30\"",
            ),
            (
                |v| v.effective_from = Some("1/1/2020".into()),
                ".effective_from: \"1/1/2020\"",
            ),
            (|v| v.effective_from = None, ".effective_from: missing"),
            (
                |v| v.compliance_deadline = Some("2029".into()),
                ".compliance_deadline: \"2029\"",
            ),
            (
                |v| v.threshold_ppb = Some(-1.0),
                ".threshold_ppb: -1 is not a concentration",
            ),
            (
                |v| v.legal_status = "none".into(),
                ".threshold_ppb: 10: a value with",
            ),
            (|v| v.instrument = String::new(), ".instrument: empty"),
        ];
        for (break_it, expected) in table {
            let mut v = good_value();
            break_it(&mut v);
            let got = problems(&layer(vec![cell(vec![v])]));
            let want =
                format!("regulatory-status/eu.json: cells[0].governance_timeline[0]{expected}");
            assert!(
                got.len() == 1 && got[0].starts_with(&want),
                "{want} in {got:?}"
            );
        }
    }

    #[test]
    fn each_cell_rule_names_its_path() {
        type Break = fn(&mut Cell);
        let table: &[(Break, &str)] = &[
            (
                |c| c.analyte = "Lead".into(),
                "cells[0].analyte: \"Lead\" is not an analyte",
            ),
            (
                |c| c.matrix = "rice".into(),
                "cells[0].matrix: \"rice\" is not a matrix",
            ),
            (
                |c| c.jurisdiction = "UK".into(),
                "cells[0].jurisdiction: \"UK\" is not one of",
            ),
            (
                |c| c.jurisdiction = "US".into(),
                "cells[0].jurisdiction: US in a file of",
            ),
            (
                |c| c.governance_timeline.clear(),
                "cells[0].governance_timeline: empty",
            ),
            (
                |c| c.governance_timeline.push(good_value()),
                "cells[0].governance_timeline[1].status: a second confirmed in_force",
            ),
        ];
        for (break_it, expected) in table {
            let mut c = cell(vec![good_value()]);
            break_it(&mut c);
            let got = problems(&layer(vec![c]));
            let want = format!("regulatory-status/eu.json: {expected}");
            assert!(
                got.len() == 1 && got[0].starts_with(&want),
                "{want} in {got:?}"
            );
        }
    }

    #[test]
    fn in_force_values_may_follow_each_other_only_through_superseded_or_unconfirmed_ones() {
        let mut later = good_value();
        later.effective_from = Some("2030-01-01".into());
        let mut announced = later.clone();
        announced.confidence = "announced".into();
        assert!(problems(&layer(vec![cell(vec![good_value(), announced])])).is_empty());
        let got = problems(&layer(vec![cell(vec![later, good_value()])]));
        assert_eq!(got.len(), 1, "{got:?}");
        // The later one (listed first) is the one reported.
        assert!(got[0].contains("governance_timeline[0].status"), "{got:?}");
        assert!(got[0].contains("governance_timeline[1] is in force from 2023-05-25"));
    }

    #[test]
    fn file_and_vocabulary_rules() {
        let mut rs = layer(vec![cell(vec![good_value()]), cell(vec![good_value()])]);
        rs.files[0].content.jurisdiction = "EEA".into();
        let twice = rs.files[0].content.sources[0].clone();
        rs.files[0].content.sources.push(twice);
        rs.files[0].content.sources[1].date = "2023-04".into();
        rs.vocabulary.matrices.insert(
            "Rice".into(),
            Matrix {
                name: "Rice".into(),
                kind: "grain".into(),
                description: "rice".into(),
            },
        );
        if let Some(lead) = rs.vocabulary.analytes.get_mut("lead") {
            lead.cas.push("7439-92-2".into());
        }
        let got = problems(&rs);
        let expected = [
            "regulatory-status/vocabulary.json: matrices.Rice: \"Rice\" is not an id",
            "regulatory-status/vocabulary.json: analytes.lead.cas[1]: `7439-92-2` has check digit",
            "regulatory-status/vocabulary.json: matrices.Rice.kind: \"grain\" is not a kind: one of food, article, drug, listing",
            "regulatory-status/eu.json: jurisdiction: \"EEA\" is not one of US, EU, CA_AB899",
            "regulatory-status/eu.json: sources[1].id: \"eu-2023-915\" is defined twice",
            "regulatory-status/eu.json: sources[1].date: \"2023-04\" is not a date",
            "regulatory-status/eu.json: cells[0].jurisdiction: EU in a file of jurisdiction EEA",
            "regulatory-status/eu.json: cells[1].jurisdiction: EU in a file of jurisdiction EEA",
            "regulatory-status/eu.json: cells[1]: duplicate cell (lead, infant_formula, EU): \
             also cells[0] of regulatory-status/eu.json",
        ];
        assert_eq!(got.len(), expected.len(), "{got:#?}");
        for (g, e) in got.iter().zip(expected) {
            assert!(g.starts_with(e), "{g} / {e}");
        }
    }
}
