//! `GET /api/dashboard`: the key holder's page. The key is typed into the page and sent only
//! in the `X-API-Key` header of same-origin requests (never in a URL), kept in the tab's
//! session storage; the page's script draws 30 days of usage as an SVG chart, lists the
//! account's webhooks with their last deliveries, and rotates the key (`POST /api/keys/rotate`,
//! the new key shown once and kept in the tab instead). Rendered once, with no account data in
//! it.

use askama::Template;

use super::page;
use crate::render::Rendered;

/// Days of usage the chart shows (the most `GET /api/keys/usage` gives).
pub const CHART_DAYS: u32 = 30;

/// Deliveries listed per webhook.
const DELIVERIES_SHOWN: u32 = 5;

#[derive(Template)]
#[template(path = "pages/dashboard.html", escape = "html")]
struct Page {
    nav: &'static str,
    days: u32,
    deliveries: u32,
}

/// `GET /api/dashboard`
pub fn dashboard() -> Rendered {
    page(&Page {
        nav: "dashboard",
        days: CHART_DAYS,
        deliveries: DELIVERIES_SHOWN,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_never_goes_into_a_url() {
        let html = String::from_utf8(dashboard().body).unwrap();
        assert!(html.contains("\"X-API-Key\""));
        assert!(!html.contains("api_key="));
        assert!(html.contains("sessionStorage") && !html.contains("localStorage"));
        assert!(html.contains("id=\"rotate\"") && html.contains("\"/api/keys/rotate\""));
    }
}
