//! The parsed compound filter of `/api/compounds` and `/api/filter`: the `hazard`, category
//! and classification queries, and the AND of every part given.

use std::ops::RangeInclusive;

use super::params::quoted;
use super::risk_index::Entry;
use crate::aggregate::signals::Hazard;
use crate::model::cas::Cas;
use crate::model::contexts::Context;
use crate::model::record::CompoundRecord;
use crate::model::vocab::{self, RiskLevel};
use crate::render::error::ApiError;

/// The named hazard classes `hazard` accepts and the signals each stands for.
pub const HAZARD_CLASSES: &[(&str, &[Hazard])] = &[
    ("acute_dermal", &[Hazard::AcuteDermal]),
    ("acute_inhalation", &[Hazard::AcuteInhalation]),
    ("acute_oral", &[Hazard::AcuteOral]),
    (
        "acute_toxicity",
        &[
            Hazard::AcuteOral,
            Hazard::AcuteDermal,
            Hazard::AcuteInhalation,
        ],
    ),
    ("aquatic_acute", &[Hazard::AquaticAcute]),
    ("aquatic_chronic", &[Hazard::AquaticChronic]),
    (
        "aquatic_toxicity",
        &[Hazard::AquaticAcute, Hazard::AquaticChronic],
    ),
    ("aspiration", &[Hazard::Aspiration]),
    (
        "carcinogen",
        &[
            Hazard::Carcinogen,
            Hazard::CarcinogenInhalation,
            Hazard::CarcinogenInjected,
        ],
    ),
    ("climate_forcing", &[Hazard::ClimateForcing]),
    ("corrosive", &[Hazard::Corrosive]),
    ("developmental", &[Hazard::Developmental]),
    (
        "endocrine_disruptor",
        &[Hazard::EndocrineHuman, Hazard::EndocrineEnvironment],
    ),
    ("endocrine_environment", &[Hazard::EndocrineEnvironment]),
    ("endocrine_human", &[Hazard::EndocrineHuman]),
    ("eye_damage", &[Hazard::EyeDamage]),
    ("eye_irritant", &[Hazard::EyeIrritant]),
    ("lactation", &[Hazard::Lactation]),
    ("mutagen", &[Hazard::Mutagen]),
    ("narcotic", &[Hazard::Narcotic]),
    ("organ_repeated", &[Hazard::OrganRepeated]),
    ("organ_single", &[Hazard::OrganSingle]),
    ("ozone_depleting", &[Hazard::OzoneDepleting]),
    (
        "persistent_bioaccumulative",
        &[Hazard::PersistentBioaccumulative],
    ),
    (
        "reproductive",
        &[Hazard::Reproductive, Hazard::Developmental],
    ),
    ("respiratory_irritation", &[Hazard::RespiratoryIrritation]),
    ("respiratory_sensitiser", &[Hazard::RespiratorySensitiser]),
    ("skin_irritant", &[Hazard::SkinIrritant]),
    ("skin_sensitiser", &[Hazard::SkinSensitiser]),
];

/// What `hazard` asks for.
#[derive(Debug)]
pub(super) enum HazardQuery {
    Class(&'static str, &'static [Hazard]),
    /// A hazard statement code, its prefix upper case (`H360Fd` keeps its effect letters).
    Code(String),
    Use(&'static str),
}

impl HazardQuery {
    pub(super) fn parse(raw: &str) -> Result<HazardQuery, ApiError> {
        if let Some((name, hazards)) = HAZARD_CLASSES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(raw))
        {
            return Ok(HazardQuery::Class(name, hazards));
        }
        let code = h_code(raw);
        if vocab::is_h_code(&code) {
            return Ok(HazardQuery::Code(code));
        }
        if let Some(class) = vocab::USE_CLASSES
            .iter()
            .find(|c| c.eq_ignore_ascii_case(raw))
        {
            return Ok(HazardQuery::Use(class));
        }
        let classes: Vec<&str> = HAZARD_CLASSES.iter().map(|(n, _)| *n).collect();
        Err(ApiError::bad_request(format!(
            "unknown hazard {}; valid values: a hazard class ({}), a GHS hazard statement code (e.g. H350, H360FD, EUH059) or a use class ({})",
            quoted(raw),
            classes.join(", "),
            vocab::USE_CLASSES.join(", ")
        )))
    }

    /// The value as applied.
    pub(super) fn name(&self) -> &str {
        match self {
            HazardQuery::Class(name, _) | HazardQuery::Use(name) => name,
            HazardQuery::Code(code) => code,
        }
    }

    pub(super) fn matches(&self, record: &CompoundRecord, entry: &Entry) -> bool {
        match self {
            HazardQuery::Class(_, hazards) => hazards.iter().any(|h| entry.hazards.contains(h)),
            HazardQuery::Code(code) => record
                .safety
                .ghs
                .iter()
                .filter(|g| g.is_current())
                .flat_map(|g| &g.h_codes)
                .any(|c| code_matches(code, c)),
            HazardQuery::Use(class) => has_use(record, class),
        }
    }
}

/// `h360fd` -> `H360fd`: the statement prefix and digits upper case, effect letters as given.
pub(super) fn h_code(raw: &str) -> String {
    let end = raw.find(|c: char| c.is_ascii_digit()).map(|i| i + 3);
    match end.and_then(|e| Some((raw.get(..e)?, raw.get(e..)?))) {
        Some((head, tail)) => format!("{}{tail}", head.to_ascii_uppercase()),
        None => raw.to_string(),
    }
}

/// A bare code (`H350`, `H360`) matches its lettered forms (`H350i`, `H360FD`); a lettered
/// code matches exactly, since the letters' case carries the category.
pub(super) fn code_matches(query: &str, code: &str) -> bool {
    let bare = query.bytes().last().is_some_and(|b| b.is_ascii_digit());
    code == query
        || (bare
            && code
                .strip_prefix(query)
                .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_alphabetic())))
}

fn has_use(record: &CompoundRecord, class: &str) -> bool {
    record.kind.as_deref() == Some(class) || record.use_classes.iter().any(|u| u.class == class)
}

/// What `category_filter` asks for.
#[derive(Debug, Clone, Copy)]
pub(super) enum CategoryQuery {
    Category(&'static str),
    Use(&'static str),
}

impl CategoryQuery {
    pub(super) fn parse(raw: &str) -> Result<CategoryQuery, ApiError> {
        if let Some(c) = vocab::CATEGORIES
            .iter()
            .find(|c| c.eq_ignore_ascii_case(raw))
        {
            return Ok(CategoryQuery::Category(c));
        }
        if let Some(c) = vocab::USE_CLASSES
            .iter()
            .find(|c| c.eq_ignore_ascii_case(raw))
        {
            return Ok(CategoryQuery::Use(c));
        }
        Err(ApiError::bad_request(format!(
            "unknown category_filter {}; valid values: a category ({}) or a use class ({})",
            quoted(raw),
            vocab::CATEGORIES.join(", "),
            vocab::USE_CLASSES.join(", ")
        )))
    }

    fn matches(self, record: &CompoundRecord) -> bool {
        match self {
            CategoryQuery::Category(c) => record.category.as_deref() == Some(c),
            CategoryQuery::Use(c) => has_use(record, c),
        }
    }
}

/// The classification filters of `/api/filter`: one classification must satisfy all.
#[derive(Debug)]
pub(super) struct ClassificationQuery {
    pub(super) agency: Option<String>,
    /// Classification years; an open end is `i32::MIN` or `i32::MAX`.
    pub(super) years: Option<RangeInclusive<i32>>,
}

impl ClassificationQuery {
    fn matches(&self, record: &CompoundRecord) -> bool {
        record.regulatory.classifications.iter().any(|c| {
            self.agency.as_ref().is_none_or(|a| *a == c.agency)
                && self
                    .years
                    .as_ref()
                    .is_none_or(|y| c.year.is_some_and(|year| y.contains(&year)))
        })
    }
}

/// A parsed compound filter: every part given must match (AND).
#[derive(Debug, Default)]
pub(super) struct CompoundFilter {
    pub(super) search: Option<String>,
    pub(super) cas: Option<Cas>,
    pub(super) cas_prefix: Option<String>,
    /// The tier and the context it is read in.
    pub(super) risk: Option<(RiskLevel, Context)>,
    pub(super) hazard: Option<HazardQuery>,
    pub(super) kind: Option<&'static str>,
    pub(super) category: Option<CategoryQuery>,
    pub(super) functional_use: Option<&'static str>,
    pub(super) exposure: Option<String>,
    pub(super) classification: Option<ClassificationQuery>,
}

impl CompoundFilter {
    pub(super) fn matches(&self, record: &CompoundRecord, entry: &Entry) -> bool {
        self.search
            .as_ref()
            .is_none_or(|s| entry.terms.iter().any(|t| t.contains(s.as_str())))
            && self
                .cas
                .as_ref()
                .is_none_or(|c| c.as_str() == record.cas.as_str())
            && self
                .cas_prefix
                .as_ref()
                .is_none_or(|p| record.cas.as_str().starts_with(p.as_str()))
            && self
                .risk
                .as_ref()
                .is_none_or(|(r, ctx)| entry.tiers.get(ctx.name()) == Some(r))
            && self
                .hazard
                .as_ref()
                .is_none_or(|h| h.matches(record, entry))
            && self.kind.is_none_or(|k| record.kind.as_deref() == Some(k))
            && self.category.is_none_or(|c| c.matches(record))
            && self.functional_use.is_none_or(|u| has_use(record, u))
            && self
                .exposure
                .as_ref()
                .is_none_or(|e| record.found_in.iter().any(|f| f.category == *e))
            && self
                .classification
                .as_ref()
                .is_none_or(|c| c.matches(record))
    }
}
