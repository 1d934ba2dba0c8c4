//! The documents the service publishes as written by the data team: `data/documents/*.md`
//! (disclaimer, terms, privacy) and `data/release-notes/*.md`, each a Markdown body under a
//! front-matter block of `key: value` lines between `---` fences.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A Markdown file split into its front matter and body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MarkdownFile {
    /// Path relative to the repository (`data/documents/terms.md`), as responses cite it.
    pub source_file: String,
    pub front: BTreeMap<String, String>,
    pub body: String,
}

impl MarkdownFile {
    /// Parses `text`; an error says what is wrong with the front matter.
    pub fn parse(source_file: &str, text: &str) -> Result<MarkdownFile, String> {
        let text = text.replace("\r\n", "\n");
        let rest = text
            .strip_prefix("---\n")
            .ok_or("does not start with a `---` front-matter block")?;
        let end = rest
            .find("\n---\n")
            .ok_or("the front-matter block has no closing `---` line")?;
        let mut front = BTreeMap::new();
        for (n, line) in rest[..end].lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let (key, value) = line
                .split_once(':')
                .ok_or_else(|| format!("front-matter line {} is not `key: value`", n + 2))?;
            front.insert(key.trim().to_string(), value.trim().to_string());
        }
        Ok(MarkdownFile {
            source_file: source_file.to_string(),
            front,
            body: rest[end + 5..].trim().to_string() + "\n",
        })
    }

    /// A front-matter value that must be present.
    pub fn require(&self, key: &str) -> Result<&str, String> {
        self.front
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| format!("front matter has no `{key}`"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_and_body() {
        let f = MarkdownFile::parse(
            "d.md",
            "---\ntitle: Terms: of use\nupdated: 2026-11-21\n---\n\n# Hi\n",
        )
        .unwrap();
        assert_eq!(f.require("title").unwrap(), "Terms: of use");
        assert_eq!(f.body, "# Hi\n");
        assert!(f.require("missing").is_err());
        assert!(MarkdownFile::parse("d.md", "# no front matter").is_err());
        assert!(MarkdownFile::parse("d.md", "---\ntitle: x\n").is_err());
        assert!(MarkdownFile::parse("d.md", "---\nnot a pair\n---\n").is_err());
    }
}
