//! The runtime's integration tests: the real `saferef-serve` binary or the server on loopback,
//! against the embedded store and a real Redis, with real browsers, clients and parsers.
//! One binary, one module per concern; shared helpers in `tests/support`.

mod accounts;
mod as_of;
mod badges;
mod browser_cors;
mod browser_pages;
mod catalogue;
mod changelog;
mod compound;
mod conventions;
mod cors;
mod defaults;
mod edge_cache;
mod entities;
mod export;
mod faults;
mod fleet;
mod fuzz;
#[path = "../fuzzing/mod.rs"]
mod fuzzing;
mod generated_client;
mod health;
mod hostile;
mod keys;
mod local_mode;
mod logging;
mod lookup;
mod netlify_dev;
mod openapi_answers;
mod protocol;
mod published_client;
mod retired;
mod schemathesis;
mod static_tree;
mod store_contract;
#[path = "../support/mod.rs"]
mod support;
mod webhooks;
