//! The exposure contexts (`data/contexts.json`) and how a requested context name resolves.

use serde::{Deserialize, Serialize};

use crate::model::quoted;

/// The 19 exposure contexts the rules know, in the order of `data/contexts.json` (a test holds
/// the file to it). A requested name or alias is parsed into one once, at the edge
/// (`Contexts::parse`); past it, a context is this type, never a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Context {
    HumanAdult,
    HumanChild,
    HumanTeen,
    HumanInfant,
    HumanPregnant,
    HumanNursing,
    HumanElderly,
    HumanImmunocompromised,
    Dog,
    Cat,
    ExposureDermal,
    ExposureInhalation,
    ExposureIngestion,
    ExposureOcular,
    OccupationalExposure,
    Environmental,
    AquaticLife,
    TerrestrialWildlife,
    Pollinator,
}

/// What a context is about: which rules apply to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextKind {
    Human,
    Animal,
    Route,
    Environmental,
}

impl Context {
    pub const ALL: [Context; 19] = [
        Context::HumanAdult,
        Context::HumanChild,
        Context::HumanTeen,
        Context::HumanInfant,
        Context::HumanPregnant,
        Context::HumanNursing,
        Context::HumanElderly,
        Context::HumanImmunocompromised,
        Context::Dog,
        Context::Cat,
        Context::ExposureDermal,
        Context::ExposureInhalation,
        Context::ExposureIngestion,
        Context::ExposureOcular,
        Context::OccupationalExposure,
        Context::Environmental,
        Context::AquaticLife,
        Context::TerrestrialWildlife,
        Context::Pollinator,
    ];

    /// The context's name on the wire and in `data/contexts.json`.
    pub const fn name(self) -> &'static str {
        match self {
            Context::HumanAdult => "human_adult",
            Context::HumanChild => "human_child",
            Context::HumanTeen => "human_teen",
            Context::HumanInfant => "human_infant",
            Context::HumanPregnant => "human_pregnant",
            Context::HumanNursing => "human_nursing",
            Context::HumanElderly => "human_elderly",
            Context::HumanImmunocompromised => "human_immunocompromised",
            Context::Dog => "dog",
            Context::Cat => "cat",
            Context::ExposureDermal => "exposure_dermal",
            Context::ExposureInhalation => "exposure_inhalation",
            Context::ExposureIngestion => "exposure_ingestion",
            Context::ExposureOcular => "exposure_ocular",
            Context::OccupationalExposure => "occupational_exposure",
            Context::Environmental => "environmental",
            Context::AquaticLife => "aquatic_life",
            Context::TerrestrialWildlife => "terrestrial_wildlife",
            Context::Pollinator => "pollinator",
        }
    }

    pub const fn kind(self) -> ContextKind {
        match self {
            Context::HumanAdult
            | Context::HumanChild
            | Context::HumanTeen
            | Context::HumanInfant
            | Context::HumanPregnant
            | Context::HumanNursing
            | Context::HumanElderly
            | Context::HumanImmunocompromised => ContextKind::Human,
            Context::Dog | Context::Cat => ContextKind::Animal,
            Context::ExposureDermal
            | Context::ExposureInhalation
            | Context::ExposureIngestion
            | Context::ExposureOcular
            | Context::OccupationalExposure => ContextKind::Route,
            Context::Environmental
            | Context::AquaticLife
            | Context::TerrestrialWildlife
            | Context::Pollinator => ContextKind::Environmental,
        }
    }

    /// The context of a canonical name (not an alias: `Contexts::parse` resolves those).
    pub fn from_name(name: &str) -> Option<Context> {
        Context::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl std::fmt::Display for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Published as the strings an answer names a context by: the names of `Context::ALL`. Answer
/// types that hold a context's name take this schema (`#[schemars(with = "Context")]`).
impl schemars::JsonSchema for Context {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Context".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names = Context::ALL.map(Context::name);
        schemars::json_schema!({ "type": "string", "enum": names })
    }
}

/// A context as `data/contexts.json` describes it.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextInfo {
    pub name: String,
    pub category: String,
    pub label: String,
    pub description: String,
    pub aliases: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Contexts {
    #[serde(default)]
    pub description: String,
    pub default: String,
    pub contexts: Vec<ContextInfo>,
}

/// Why a requested context was not accepted (a 400). It holds the request's value quoted and
/// cut (`render::lists::quoted`), so a hostile value cannot make the error large.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContextError {
    #[error(
        "malformed context {0}: a context is 2 to 40 lowercase letters, digits or underscores, starting with a letter; valid contexts: {1}"
    )]
    Malformed(String, String),
    #[error("unknown context {0}; valid contexts: {1}")]
    Unknown(String, String),
}

/// `^[a-z][a-z0-9_]{1,39}$`.
pub fn is_context_name(s: &str) -> bool {
    let b = s.as_bytes();
    (2..=40).contains(&b.len())
        && b[0].is_ascii_lowercase()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
}

impl Contexts {
    /// Resolves a name or alias to its context.
    pub fn resolve(&self, requested: &str) -> Result<&ContextInfo, ContextError> {
        if !is_context_name(requested) {
            return Err(ContextError::Malformed(quoted(requested), self.names()));
        }
        self.contexts
            .iter()
            .find(|c| c.name == requested || c.aliases.iter().any(|a| a == requested))
            .ok_or_else(|| ContextError::Unknown(quoted(requested), self.names()))
    }

    /// Parses a requested name or alias into its context, once, at the edge. A context the
    /// file describes but the rules do not know is unknown: the file is held to the enum.
    pub fn parse(&self, requested: &str) -> Result<Context, ContextError> {
        Context::from_name(&self.resolve(requested)?.name)
            .ok_or_else(|| ContextError::Unknown(quoted(requested), self.names()))
    }

    pub fn get(&self, name: &str) -> Option<&ContextInfo> {
        self.contexts.iter().find(|c| c.name == name)
    }

    fn names(&self) -> String {
        self.contexts
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contexts() -> Contexts {
        serde_json::from_str(include_str!("../../../data/contexts.json")).unwrap()
    }

    #[test]
    fn names_and_aliases_resolve() {
        let c = contexts();
        assert_eq!(c.resolve("human_adult").unwrap().name, "human_adult");
        assert_eq!(c.resolve("bees").unwrap().name, "pollinator");
        assert_eq!(c.resolve("pregnancy").unwrap().name, "human_pregnant");
        assert_eq!(
            c.resolve("workplace").unwrap().name,
            "occupational_exposure"
        );
    }

    #[test]
    fn bad_contexts_are_named_with_the_valid_ones() {
        let c = contexts();
        let e = c.resolve("Adult").unwrap_err();
        assert!(matches!(e, ContextError::Malformed(..)));
        assert!(e.to_string().contains("human_adult, human_child"));
        assert!(matches!(
            c.resolve("martian").unwrap_err(),
            ContextError::Unknown(..)
        ));
        assert!(matches!(
            c.resolve("a").unwrap_err(),
            ContextError::Malformed(..)
        ));
    }

    #[test]
    fn the_file_has_the_nineteen_contexts_of_the_enum() {
        let c = contexts();
        let names: Vec<&str> = c.contexts.iter().map(|c| c.name.as_str()).collect();
        let known: Vec<&str> = Context::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(names, known);
        assert_eq!(Context::from_name(&c.default), Some(Context::HumanAdult));
        let mut all: Vec<&str> = c
            .contexts
            .iter()
            .flat_map(|c| {
                c.aliases
                    .iter()
                    .map(String::as_str)
                    .chain([c.name.as_str()])
            })
            .collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "an alias names two contexts");
        assert!(all.iter().all(|a| is_context_name(a)));
    }
}
