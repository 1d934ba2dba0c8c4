//! The floor `scripts/bench-runtime` measures the service against: a bare warp handler on the
//! same tokio runtime settings as `saferef-serve`, answering `GET /api/health` with the bytes
//! of the file it is given (the service's own `/api/health` body) and nothing else: no key,
//! quota, routing table, logging or ETag.
//!
//! `cargo run --release -p saferef-runtime --example bare_warp -- BODY_FILE`; prints
//! `listening on http://ADDR` first, as `saferef-serve` does.

use warp::Filter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let file = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: bare_warp BODY_FILE"))?;
    let body = bytes::Bytes::from(std::fs::read(&file)?);
    let health = warp::path!("api" / "health").map(move || {
        warp::reply::with_header(
            warp::reply::Response::new(body.clone().into()),
            "content-type",
            "application/json",
        )
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("listening on http://{}", listener.local_addr()?);
    warp::serve(health).incoming(listener).run().await;
    Ok(())
}
