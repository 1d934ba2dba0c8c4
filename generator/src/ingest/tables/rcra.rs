//! RCRA P and U lists (40 CFR 261.33(e) and (f)) as shipped in chemical-safety 1.1.6: CSV
//! with code, CAS, name, cid; one catalogue entry per file, the list letter from the code.
//!
//! The files are flattened from the eCFR tables and carry their scars, handled here:
//! - every entry appears several times (once per synonym, and the whole list repeated): one
//!   contribution per compound and code, named by the first row;
//! - names keep the hazard codes of the regulation ("Acetaldehyde (I)", "(R,T)"): they are the
//!   listing name as written, passed on as the name hint;
//! - the eCFR footnote "1" (CAS given for the parent compound only) is glued to some CAS
//!   numbers ("1 81-81-2", with a space or a no-break space): the number after it is the CAS;
//! - CAS numbers mangled by a spreadsheet ("6/4/7783" for 7783-06-4), truncated ("315-8-4") or
//!   given as "0" are not guessed at: the row is keyed by its PubChem CID when it has one;
//! - rows without a code are continuation lines of long names or blank lines, and the CID the
//!   package put on them (a failed name lookup) is not a compound: rows keyed only by such a
//!   CID ("Cyanides (soluble cyanide salts)", "Creosote") are skipped;
//! - "See F027" rows (chlorophenols, 2,4,5-T and Silvex, covered by waste code F027) are not
//!   P or U entries.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::json;

use super::call;
use super::ledger::Ledger;
use super::text::{cell, csv_error, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, to_json};
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{Classification, RcraListing};

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(&read_utf8(path)?, src).map_err(|e| csv_error(&path.display().to_string(), e))
}

/// A P or U code's list letter, what the regulation calls the list, and its paragraph.
struct RcraList {
    letter: &'static str,
    what: &'static str,
    basis: &'static str,
}

const P_LIST: RcraList = RcraList {
    letter: "P",
    what: "acutely hazardous waste",
    basis: "40 CFR 261.33(e)",
};
const U_LIST: RcraList = RcraList {
    letter: "U",
    what: "toxic waste",
    basis: "40 CFR 261.33(f)",
};

/// "P023" -> the P list; anything but a letter and three digits ("See F027") -> `None`.
fn list_of(code: &str) -> Option<&'static RcraList> {
    let (letter, digits) = code.split_at_checked(1)?;
    if digits.len() != 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match letter {
        "P" => Some(&P_LIST),
        "U" => Some(&U_LIST),
        _ => None,
    }
}

/// The CAS number of a cell, reading "1 81-81-2" (eCFR footnote 1, then the CAS) as 81-81-2.
fn cas_of(raw: &str) -> Option<Cas> {
    let tokens: Vec<&str> = raw.split_whitespace().collect();
    match tokens.as_slice() {
        [note, number] if note.len() <= 2 && note.bytes().all(|b| b.is_ascii_digit()) => {
            Cas::parse(number).ok()
        }
        _ => Cas::parse_lenient(raw).ok(),
    }
}

fn pubchem_cid(raw: Option<&str>) -> Option<u64> {
    raw?.parse::<u64>().ok().filter(|c| *c > 0)
}

fn parse(text: &str, src: &SourceDescriptor) -> Result<Parsed, csv::Error> {
    let rows: Vec<csv::StringRecord> = reader(text, b',', true)
        .records()
        .collect::<Result<_, _>>()?;
    // CIDs the package put on rows that are not entries (continuation lines, blank lines).
    let placeholder_cids: BTreeSet<u64> = rows
        .iter()
        .filter(|row| cell(row, 0).is_none())
        .filter_map(|row| pubchem_cid(cell(row, 3)))
        .collect();
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    let mut out = Vec::new();
    let mut ledger = Ledger::default();
    for row in &rows {
        let id = ledger.row(cell(row, 2).unwrap_or_default());
        let Some(code) = cell(row, 0) else {
            ledger.skip(id, "no waste code (a continuation or blank line)");
            continue;
        };
        let Some(list) = list_of(code) else {
            ledger.skip(
                id,
                format!("waste code {code} is not on the P, U or D lists"),
            );
            continue;
        };
        let subject = match cell(row, 1).and_then(cas_of) {
            Some(cas) => Subject::Cas(cas),
            None => match pubchem_cid(cell(row, 3)) {
                Some(cid) if !placeholder_cids.contains(&cid) => Subject::PubchemCid(cid),
                _ => {
                    ledger.skip(id, "neither a CAS number nor a PubChem CID of its own");
                    continue;
                }
            },
        };
        let key = match &subject {
            Subject::Cas(cas) => format!("cas {cas}"),
            Subject::PubchemCid(cid) => format!("cid {cid}"),
            Subject::Named(name) => format!("name {name}"),
        };
        if !seen.insert((key, code.to_string())) {
            ledger.skip(id, "repeats an earlier row (same code and substance)");
            continue;
        }
        ledger.about(id, [subject.clone()]);
        let classification = Classification {
            basis: Some(list.basis.into()),
            ..call::stated(
                src,
                "US EPA",
                "US EPA RCRA",
                format!("RCRA {}-listed {} ({code})", list.letter, list.what),
            )
        };
        let listing = RcraListing {
            code: code.to_string(),
            list: list.letter.to_string(),
            source: src.id.clone(),
        };
        let fragment = json!({"regulatory": {
            "classifications": [to_json(&classification)],
            "listings": {"rcra": [to_json(&listing)]},
        }});
        out.push(Contribution::about(subject, fragment).named(cell(row, 2).unwrap_or_default()));
    }
    Ok(Parsed {
        contributions: out,
        ledger,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::testing::descriptor;

    #[test]
    fn entries_deduplicated_with_hazard_codes_kept() {
        let text = "code,CAS,name,cid\n\
            U001,75-07-0,Acetaldehyde (I),177\n\
            P023,107-20-0,\"Acetaldehyde, chloro-\",33\n\
            P023,107-20-0,Chloroacetaldehyde,33\n\
            U001,75-07-0,Acetaldehyde (I),177\n";
        let got = parse(text, &descriptor("rcra"))
            .expect("table parses")
            .contributions;
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].name.as_deref(), Some("Acetaldehyde (I)"));
        let f = &got[0].fragment["regulatory"];
        assert_eq!(
            f["listings"]["rcra"][0],
            json!({"code": "U001", "list": "U", "source": "rcra"})
        );
        assert_eq!(
            f["classifications"][0]["classification"],
            "RCRA U-listed toxic waste (U001)"
        );
        assert_eq!(f["classifications"][0]["basis"], "40 CFR 261.33(f)");
        assert_eq!(f["classifications"][0]["agency"], "US EPA");
        let p = &got[1].fragment["regulatory"]["classifications"][0];
        assert_eq!(
            p["classification"],
            "RCRA P-listed acutely hazardous waste (P023)"
        );
        assert_eq!(p["basis"], "40 CFR 261.33(e)");
        assert_eq!(got[1].name.as_deref(), Some("Acetaldehyde, chloro-"));
    }

    #[test]
    fn footnoted_mangled_and_placeholder_rows() {
        let text = "code,CAS,name,cid\n\
            P001,1 81-81-2,\"Warfarin, & salts\",0\n\
            U240,1\u{a0}94-75-7,\"2,4-D, salts & esters\",0\n\
            P108,1 157-24-9,\"Strychnine, & salts\",0\n\
            U135,6/4/7783,Hydrogen sulfide,402\n\
            P128,315-8-4,Mexacarbate.,0\n\
            ,,O-[(methylamino)carbonyl] oxime,445063\n\
            P030,,\"Cyanides (soluble cyanide salts), not otherwise specified\",445063\n\
            See F027,87-86-5,Pentachlorophenol,992\n\
            see F027,93-76-5,\"Acetic acid, (2,4,5-trichlorophenoxy)-\",1480\n\
            P128,315-18-4,Mexacarbate,9414\n";
        let got = parse(text, &descriptor("rcra"))
            .expect("table parses")
            .contributions;
        let subjects: Vec<_> = got.iter().map(|c| c.subject.clone()).collect();
        assert_eq!(
            subjects,
            vec![
                Subject::Cas(Cas::parse("81-81-2").expect("valid CAS")),
                Subject::Cas(Cas::parse("94-75-7").expect("valid CAS")),
                Subject::PubchemCid(402),
                Subject::Cas(Cas::parse("315-18-4").expect("valid CAS")),
            ]
        );
        assert_eq!(
            got[2].fragment["regulatory"]["listings"]["rcra"][0]["code"],
            "U135"
        );
    }

    #[test]
    fn codes() {
        assert_eq!(list_of("P001").map(|l| l.letter), Some("P"));
        assert_eq!(list_of("U394").map(|l| l.letter), Some("U"));
        assert!(list_of("See F027").is_none());
        assert!(list_of("D004").is_none());
        assert!(list_of("P01").is_none());
        assert!(list_of("").is_none());
    }
}
