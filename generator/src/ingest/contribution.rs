//! What a source table says about one compound: a partial record, plus hints for naming
//! and for the id kind. Parsers produce these; `ingest` merges them into records.

use serde::Serialize;
use serde_json::Value;

use crate::model::cas::Cas;
use crate::model::ids::CompoundKind;
pub use crate::model::names::clean_name;

/// What a contribution is about. Most tables key rows by CAS; a few only give a PubChem
/// CID, which the ingest resolves through the identifier tables; some rows name a group or a
/// qualified agent with no CAS ("Lead and lead compounds"), which `data/curated/groups.json`
/// resolves to member compounds or explains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    Cas(Cas),
    PubchemCid(u64),
    Named(String),
}

#[derive(Debug, Clone)]
pub struct Contribution {
    pub subject: Subject,
    /// The compound's name as this table writes it.
    pub name: Option<String>,
    /// The kind this table implies (the inorganic identifier table says `Ino`).
    pub kind: Option<CompoundKind>,
    /// Whether this table's membership puts the compound in the corpus (see `select`).
    pub selects: bool,
    /// A partial record in the stored shape; every value object names its `source`.
    pub fragment: Value,
    /// A Proposition 65 continuation row's level for the members it names (see `MemberLevel`).
    pub member_level: Option<MemberLevel>,
}

/// The NSRL or MADL OEHHA states, on a row of its own with no toxicity, for the substance that
/// row names under the group row just above it ("Lead", 15 µg/day (oral), under "Lead and lead
/// compounds"). The ingest writes it on the member's listing through that group row.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberLevel {
    /// The group row the level belongs to, as the table names it.
    pub row: String,
    pub level: String,
    /// How many compounds the continuation row names: the fewest decide ("Sodium cyanide" over
    /// "Cyanide salts that readily dissociate in solution").
    pub members: usize,
}

impl Contribution {
    pub fn new(cas: Cas, fragment: Value) -> Contribution {
        Contribution::about(Subject::Cas(cas), fragment)
    }

    /// A contribution about the compound with this PubChem CID.
    pub fn for_pubchem_cid(cid: u64, fragment: Value) -> Contribution {
        Contribution::about(Subject::PubchemCid(cid), fragment)
    }

    pub fn about(subject: Subject, fragment: Value) -> Contribution {
        Contribution {
            subject,
            name: None,
            kind: None,
            selects: false,
            fragment,
            member_level: None,
        }
    }

    /// The CAS number, if the table keyed the row by one.
    pub fn cas(&self) -> Option<&Cas> {
        match &self.subject {
            Subject::Cas(cas) => Some(cas),
            Subject::PubchemCid(_) | Subject::Named(_) => None,
        }
    }

    pub fn named(mut self, name: impl Into<String>) -> Contribution {
        let name = clean_name(&name.into());
        if !name.is_empty() {
            self.name = Some(name);
        }
        self
    }

    pub fn selecting(mut self) -> Contribution {
        self.selects = true;
        self
    }

    /// Selects the compound into the corpus when the row names it by its own CAS; a row that
    /// names a group (no CAS) reaches its members but selects none.
    pub fn selecting_if_keyed(mut self) -> Contribution {
        self.selects = matches!(self.subject, Subject::Cas(_));
        self
    }

    pub fn kind(mut self, kind: CompoundKind) -> Contribution {
        self.kind = Some(kind);
        self
    }
}

/// A model value as JSON. Model types always serialize; a failure here is a bug.
pub fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("model types serialize to JSON")
}
