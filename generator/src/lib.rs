//! saferef-generator: the dataset and everything computed from it, in the order data flows.
//!
//! - `ingest`: public source tables -> the reviewed records in `data/`.
//! - `model`: the stored shapes, the loaded `Dataset` and the `Problem`s found in it.
//! - `load`: `data/` (or a build's snapshot) -> `Dataset`, overlays applied.
//! - `validate`: `check`, every part's rules behind one entry.
//! - `aggregate`: the risk engine (per-context tiers, product synthesis) and the entity graph.
//! - `api`: the endpoint catalogue every router, reference and example reads.
//! - `render`: one pure function per response, shared by the static build and the runtime.
//! - `build`: the static tree, its routing files and the release changelog.

pub mod aggregate;
pub mod api;
pub mod build;
pub mod ingest;
pub mod load;
pub mod model;
pub mod render;
pub mod validate;

/// The service version reported by `GET /api` and `GET /api/health`.
pub const SERVICE_VERSION: &str = "1.7.0";
