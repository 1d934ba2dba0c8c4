//! The wire types of the runtime's own endpoints (keys, accounts, billing, watchlist,
//! webhooks, health, freshness, and the account tier): their request bodies and answers. The runtime
//! (`saferef-runtime`'s `http/`) reads and writes exactly these types, and the OpenAPI
//! document derives their schemas from them (`openapi_schemas`), so a field the runtime
//! answers is a field the document states.

pub mod accounts;
pub mod billing;
pub mod freshness;
pub mod health;
pub mod keys;
pub mod tier;
pub mod watchlist;
pub mod webhooks;
