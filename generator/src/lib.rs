//! saferef-generator: the dataset model, loading and validation, the ingest from public
//! source tables, and (in later stages) aggregation and response rendering.

pub mod aggregate;
pub mod api;
pub mod cas;
pub mod changelog;
pub mod fragrance;
pub mod graph;
pub mod ids;
pub mod ingest;
pub mod load;
pub mod merge;
pub mod model;
pub mod output;
pub mod regulatory_status;
pub mod render;
pub mod site;
pub mod snapshot;
pub mod stats;
pub mod validate;
pub mod validate_aliases;
pub mod validate_documents;
pub mod validate_entities;

/// The service version reported by `GET /api` and `GET /api/health` (SPEC 9).
pub const SERVICE_VERSION: &str = "1.7.0";
