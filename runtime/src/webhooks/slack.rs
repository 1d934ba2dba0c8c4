//! `format=slack`: an event as a Slack Block Kit message (a header, a section of fields, a
//! context line) with a plain-text fallback, ready for a Slack incoming-webhook URL.

use serde_json::{Value, json};

use super::payload::Event;

/// Slack's limits: 150 characters of header, 10 fields of 2,000 characters.
const HEADER_MAX: usize = 150;
const FIELDS_MAX: usize = 10;
const FIELD_MAX: usize = 2000;

pub fn message(event: &Event) -> Value {
    let subject = ["name", "compound_id", "id"]
        .iter()
        .find_map(|k| event.data.get(*k).and_then(Value::as_str));
    let title = match subject {
        Some(s) => format!("{}: {s}", headline(&event.kind)),
        None => headline(&event.kind).to_string(),
    };
    let mut fields = vec![field("Event", &event.kind)];
    if let Some(data) = event.data.as_object() {
        for (key, value) in data {
            if fields.len() == FIELDS_MAX {
                break;
            }
            let text = match value {
                Value::String(s) => s.clone(),
                Value::Number(_) | Value::Bool(_) => value.to_string(),
                // Nested values stay in the JSON format; the message names them only.
                Value::Array(a) => format!("{} items", a.len()),
                Value::Object(_) | Value::Null => continue,
            };
            fields.push(field(key, &text));
        }
    }
    let when = chrono::DateTime::from_timestamp(event.created, 0)
        .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_default();
    json!({
        "text": escape(&format!("saferef {title}")),
        "blocks": [
            {"type": "header", "text": {"type": "plain_text", "text": clip(&title, HEADER_MAX)}},
            {"type": "section", "fields": fields},
            {"type": "context", "elements": [
                {"type": "mrkdwn", "text": escape(&format!("{} · {when} · saferef", event.id))}
            ]}
        ]
    })
}

fn headline(kind: &str) -> &'static str {
    match kind {
        "compound.added" => "Compound added",
        "compound.updated" => "Compound updated",
        "compound.risk_changed" => "Risk level changed",
        "regulatory.updated" => "Regulatory update",
        "webhook.test" => "Test event",
        _ => "Event",
    }
}

fn field(name: &str, value: &str) -> Value {
    let text = format!("*{}*\n{}", escape(name), escape(value));
    json!({"type": "mrkdwn", "text": clip(&text, FIELD_MAX)})
}

/// Slack's mrkdwn escapes: the three characters that start markup.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_becomes_header_fields_and_context() {
        let event = Event {
            id: "evt_1".into(),
            kind: "compound.risk_changed".into(),
            created: 1_700_000_000,
            data: json!({"compound_id": "hq-c-org-000001", "name": "A <b> & c", "from": "low",
                         "to": "high", "nested": {"x": 1}, "sources": [1, 2]}),
        };
        let m = message(&event);
        let blocks = m["blocks"].as_array().unwrap();
        assert_eq!(blocks[0]["type"], "header");
        assert_eq!(blocks[0]["text"]["text"], "Risk level changed: A <b> & c");
        let fields = blocks[1]["fields"].as_array().unwrap();
        assert_eq!(fields[0]["text"], "*Event*\ncompound.risk_changed");
        assert!(
            fields
                .iter()
                .any(|f| f["text"] == "*name*\nA &lt;b&gt; &amp; c")
        );
        assert!(fields.iter().any(|f| f["text"] == "*sources*\n2 items"));
        assert_eq!(fields.len(), 6, "the nested object is left out");
        assert_eq!(
            blocks[2]["elements"][0]["text"],
            "evt_1 · 2023-11-14 22:13 UTC · saferef"
        );
        assert_eq!(clip(&"x".repeat(200), HEADER_MAX).chars().count(), 150);
    }
}
