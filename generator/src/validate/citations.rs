//! Whole-work citations: a multi-volume reference work (Ullmann's, Kirk-Othmer, the
//! Encyclopedia of Polymer Science and Technology) is checkable only through one of its
//! articles, so a source citing the work must give the article's DOI and the article's
//! edition (data/README.md, "Citations"). An encyclopedia anyone may edit (Wikipedia, and the
//! sites that copy it) is no citation at all: its text has no author or edition to hold to
//! account, so the document it rests on is cited instead.

use crate::model::record::SourceRef;

/// The works and the DOI of the whole work; an article's DOI extends it (`<work>.<article>`).
const WORKS: &[(&str, &str)] = &[
    (
        "Ullmann's Encyclopedia of Industrial Chemistry",
        "10.1002/14356007",
    ),
    (
        "Kirk-Othmer Encyclopedia of Chemical Technology",
        "10.1002/0471238961",
    ),
    (
        "Encyclopedia of Polymer Science and Technology",
        "10.1002/0471440264",
    ),
];

/// Hosts serving Wikipedia's text: its own and the mirrors curators met in search results.
const OPEN_WIKIS: &[&str] = &[
    "wikipedia.org",
    "wikimili.com",
    "zxc.wiki",
    "wiki.x.io",
    "liquisearch.com",
    "kiwix.",
    "search.com.vn/wiki",
    "clateway.com/wiki",
];

/// Whether `s` cites Wikipedia or a copy of it.
pub(super) fn open_wiki(s: &SourceRef) -> bool {
    OPEN_WIKIS.iter().any(|host| s.url.contains(host))
}

/// The work `s` cites as a whole (without an article DOI or a dated edition), if any.
pub(super) fn whole_work(s: &SourceRef) -> Option<&'static str> {
    let (work, doi) = WORKS
        .iter()
        .find(|(work, doi)| s.title.contains(work) || s.url.contains(doi))?;
    let article = s
        .url
        .split_once(doi)
        .is_some_and(|(_, rest)| rest.len() > 1 && rest.starts_with('.'));
    let dated = s
        .edition
        .as_bytes()
        .windows(4)
        .any(|w| w.iter().all(u8::is_ascii_digit));
    (!(article && dated)).then_some(work)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(title: &str, edition: &str, url: &str) -> SourceRef {
        SourceRef {
            id: "s".into(),
            title: title.into(),
            publisher: "Wiley-VCH".into(),
            edition: edition.into(),
            url: url.into(),
            accessed: None,
        }
    }

    #[test]
    fn the_work_alone_is_rejected_an_article_with_its_edition_passes() {
        let whole = source(
            "Ullmann's Encyclopedia of Industrial Chemistry",
            "online edition",
            "https://onlinelibrary.wiley.com/doi/book/10.1002/14356007",
        );
        assert_eq!(
            whole_work(&whole),
            Some("Ullmann's Encyclopedia of Industrial Chemistry")
        );
        let article = source(
            "Herzog B. et al. Polyamides. In: Ullmann's Encyclopedia of Industrial Chemistry",
            "2013",
            "https://doi.org/10.1002/14356007.a21_179.pub3",
        );
        assert_eq!(whole_work(&article), None);
        let undated = source(
            "Polyamides. In: Ullmann's Encyclopedia of Industrial Chemistry",
            "online edition",
            "https://doi.org/10.1002/14356007.a21_179.pub3",
        );
        assert!(
            whole_work(&undated).is_some(),
            "an article needs its edition"
        );
        let titled_book = source(
            "Poly(vinyl fluoride), in Kirk-Othmer Encyclopedia of Chemical Technology",
            "2005",
            "https://onlinelibrary.wiley.com/doi/book/10.1002/0471238961",
        );
        assert!(
            whole_work(&titled_book).is_some(),
            "an article title with the book's DOI cannot be checked"
        );
        let other = source(
            "EN 10088-1:2014 Stainless steels",
            "2014",
            "https://example.org",
        );
        assert_eq!(whole_work(&other), None);
    }

    #[test]
    fn wikipedia_and_its_mirrors_are_no_citation() {
        let wiki = |url: &str| source("Field's metal", "", url);
        assert!(open_wiki(&wiki(
            "https://en.wikipedia.org/wiki/Field%27s_metal"
        )));
        assert!(open_wiki(&wiki("https://wikimili.com/en/Type_metal")));
        assert!(!open_wiki(&wiki("https://cameo.mfa.org/wiki/Balata")));
        assert!(!open_wiki(&wiki(
            "https://en.wikisource.org/wiki/Sealing-Wax"
        )));
    }
}
