//! The generator's integration tests: the build, the check, the ingest, the panel and the
//! snapshots, against the committed dataset and small fixtures. One binary, one module per
//! concern.

mod as_of;
mod badge_render;
mod changelog_diff;
mod check_fixture;
mod compound_panel;
mod entity_snapshots;
mod fuzz;
#[path = "../fuzzing/mod.rs"]
mod fuzzing;
mod ingest_fixture;
mod netlify_config;
mod openapi_lint;
mod panel;
mod site_build;
mod site_build_faults;
mod tier_rules;
