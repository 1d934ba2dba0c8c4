//! `GET /api/export`: every compound, material or product a filter keeps,
//! as JSON or CSV, the standard index or `detail=full`, with the data-quality envelope fields.
//!
//! The body is produced in pieces (`head`, `rows` per chunk, `tail`) so that the runtime can
//! stream the whole corpus without holding it: the plan keeps only the selected ids.
//! Structural fields of records under data-quality review are masked here, and only here
//! (`mask.rs`): no other response carries the sentinel.

mod columns;
mod mask;
mod rows;

use std::ops::Range;

use crate::model::Dataset;
use crate::model::quoted;
use crate::render::Rendered;
use crate::render::error::ApiError;
use crate::render::lists::{RiskIndex, select};

pub use mask::SENTINEL;

/// Where the disclaimer the envelope points at is served.
pub const DISCLAIMER_URL: &str = "/api/disclaimer";

/// Records rendered per streamed piece: small enough to keep memory flat, large enough that
/// per-piece overhead does not matter.
pub const CHUNK: usize = 64;

/// Raw query values of `GET /api/export`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ExportQuery<'a> {
    /// compounds, materials or products (required).
    pub kind: Option<&'a str>,
    /// json (default) or csv.
    pub format: Option<&'a str>,
    /// `full` for the full records; anything else gives the standard index.
    pub detail: Option<&'a str>,
    pub search: Option<&'a str>,
    /// A compound tier (read in `context`) or a product risk level.
    pub risk: Option<&'a str>,
    /// Compounds only: the context `risk` is read in (default `human_adult`).
    pub context: Option<&'a str>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Compounds,
    Materials,
    Products,
}

impl Kind {
    const NAMES: [&'static str; 3] = ["compounds", "materials", "products"];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Compounds => "compounds",
            Kind::Materials => "materials",
            Kind::Products => "products",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Csv,
}

/// Which records an export holds: the list items' fields (`index`) or the stored records
/// (`full`, from `detail=full`).
#[derive(serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Detail {
    Index,
    Full,
}

/// The JSON export's fields before its list of records (`Export::head`).
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Envelope<'a> {
    _notice: &'a str,
    _disclaimer_url: &'static str,
    /// compounds, materials or products: the name of the list that follows.
    #[serde(rename = "type")]
    kind: Kind,
    /// index or full.
    detail: Detail,
    release: &'a str,
    /// Records in the list.
    count: usize,
}

/// The JSON export's schema (the OpenAPI `Export`): the envelope, then the records under the
/// name of their type (`rows::json`: the list items' fields, or with `detail=full` the stored
/// record).
impl schemars::JsonSchema for Export {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Export".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = <Envelope<'static> as schemars::JsonSchema>::json_schema(generator);
        let records = serde_json::json!({"type": "array", "items": {"type": "object"}});
        if let Some(properties) = schema
            .get_mut("properties")
            .and_then(serde_json::Value::as_object_mut)
        {
            for name in Kind::NAMES {
                properties.insert(name.to_string(), records.clone());
            }
        }
        schema.insert(
            "description".to_string(),
            "GET /api/export?format=json: the records of one type in the reference-data envelope"
                .into(),
        );
        schema
    }
}

/// A validated export: what to write and which records, by id.
#[derive(Debug)]
pub struct Export {
    pub kind: Kind,
    pub format: Format,
    pub full: bool,
    ids: Vec<String>,
    notice: String,
    release: String,
    /// Context names in dataset order (the CSV risk columns).
    contexts: Vec<String>,
}

impl Export {
    /// Validates the query (400s as the list endpoints give them) and selects the records.
    pub fn plan(dataset: &Dataset, index: &RiskIndex, q: &ExportQuery) -> Result<Export, Rendered> {
        let kind = match q.kind {
            None => {
                return Err(Rendered::from(ApiError::bad_request(
                    "type is required: compounds, materials or products",
                )));
            }
            Some(raw) => match Kind::NAMES.iter().position(|k| k.eq_ignore_ascii_case(raw)) {
                Some(0) => Kind::Compounds,
                Some(1) => Kind::Materials,
                Some(_) => Kind::Products,
                None => {
                    return Err(Rendered::from(ApiError::bad_request(format!(
                        "unknown type {}; valid values: {}",
                        quoted(raw),
                        Kind::NAMES.join(", ")
                    ))));
                }
            },
        };
        let format = match q.format {
            None => Format::Json,
            Some(f) if f.eq_ignore_ascii_case("json") => Format::Json,
            Some(f) if f.eq_ignore_ascii_case("csv") => Format::Csv,
            Some(f) => {
                return Err(Rendered::from(ApiError::bad_request(format!(
                    "unknown format {}; valid values: json, csv",
                    quoted(f)
                ))));
            }
        };
        let only_compounds = |name: &str, given: Option<&str>| match given {
            Some(_) => Err(Rendered::from(ApiError::bad_request(format!(
                "{name} applies to type=compounds only"
            )))),
            None => Ok(()),
        };
        let ids = match kind {
            Kind::Compounds => select::compound_ids(dataset, index, q.search, q.risk, q.context)?,
            Kind::Products => {
                only_compounds("context", q.context)?;
                select::product_ids(dataset, index, q.search, q.risk)?
            }
            Kind::Materials => {
                only_compounds("context", q.context)?;
                if q.risk.is_some() {
                    return Err(Rendered::from(ApiError::bad_request(
                        "risk applies to type=compounds and type=products only",
                    )));
                }
                select::material_ids(dataset, q.search)?
            }
        };
        let Some(notice) = dataset
            .documents
            .get("disclaimer")
            .and_then(|d| d.front.get("envelope_notice"))
        else {
            // `check` requires it (validate_documents), so only an unchecked dataset lacks it.
            return Err(
                ApiError::internal("the dataset's disclaimer has no envelope_notice").into(),
            );
        };
        Ok(Export {
            kind,
            format,
            full: q.detail.is_some_and(|d| d.eq_ignore_ascii_case("full")),
            ids,
            notice: notice.clone(),
            release: dataset.release_date(),
            contexts: dataset
                .contexts
                .contexts
                .iter()
                .map(|c| c.name.clone())
                .collect(),
        })
    }

    /// How many records the export holds.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The ranges of records each streamed piece renders.
    pub fn chunks(&self) -> impl Iterator<Item = Range<usize>> + use<> {
        let n = self.ids.len();
        (0..n.div_ceil(CHUNK)).map(move |i| i * CHUNK..((i + 1) * CHUNK).min(n))
    }

    pub fn content_type(&self) -> &'static str {
        match self.format {
            Format::Json => "application/json",
            Format::Csv => "text/csv; charset=utf-8",
        }
    }

    /// `saferef-compounds-full.csv`, for `Content-Disposition`.
    pub fn file_name(&self) -> String {
        format!(
            "saferef-{}{}.{}",
            self.kind.as_str(),
            if self.full { "-full" } else { "" },
            match self.format {
                Format::Json => "json",
                Format::Csv => "csv",
            }
        )
    }

    /// What precedes the rows: the JSON envelope up to the opening of the list, or the CSV
    /// header row.
    pub fn head(&self) -> Vec<u8> {
        match self.format {
            Format::Json => {
                let envelope = Envelope {
                    _notice: &self.notice,
                    _disclaimer_url: DISCLAIMER_URL,
                    kind: self.kind,
                    detail: if self.full {
                        Detail::Full
                    } else {
                        Detail::Index
                    },
                    release: &self.release,
                    count: self.ids.len(),
                };
                let mut text = serde_json::to_string(&envelope).expect("JSON values serialize");
                text.pop(); // the closing brace: the list follows
                format!("{text},\"{}\":[", self.kind.as_str()).into_bytes()
            }
            Format::Csv => {
                self.csv(|w| w.write_record(columns::header(self.kind, self.full, &self.contexts)))
            }
        }
    }

    /// The records of `range` (a range `chunks` gave).
    pub fn rows(&self, dataset: &Dataset, index: &RiskIndex, range: Range<usize>) -> Vec<u8> {
        let start = range.start;
        let ids = &self.ids[range];
        match self.format {
            Format::Json => {
                let mut out = Vec::new();
                for (i, id) in ids.iter().enumerate() {
                    if start + i > 0 {
                        out.push(b',');
                    }
                    let row = rows::json(self.kind, self.full, dataset, index, id);
                    serde_json::to_writer(&mut out, &row).expect("JSON values serialize");
                }
                out
            }
            Format::Csv => self.csv(|w| {
                for id in ids {
                    let mut record =
                        columns::row(self.kind, self.full, dataset, index, id, &self.contexts);
                    record.push(self.notice.clone());
                    record.push(DISCLAIMER_URL.to_string());
                    w.write_record(&record)?;
                }
                Ok(())
            }),
        }
    }

    /// What follows the rows.
    pub fn tail(&self) -> Vec<u8> {
        match self.format {
            Format::Json => b"]}\n".to_vec(),
            Format::Csv => Vec::new(),
        }
    }

    /// The whole body at once, as the stream's pieces concatenate.
    pub fn body(&self, dataset: &Dataset, index: &RiskIndex) -> Vec<u8> {
        let mut out = self.head();
        for range in self.chunks() {
            out.extend(self.rows(dataset, index, range));
        }
        out.extend(self.tail());
        out
    }

    fn csv(&self, write: impl FnOnce(&mut csv::Writer<Vec<u8>>) -> csv::Result<()>) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        // Writing to memory fails only on a bug; a short piece is then the visible symptom.
        write(&mut w).expect("CSV into memory");
        w.into_inner().unwrap_or_default()
    }
}
