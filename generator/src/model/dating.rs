//! When a value came into force and how precisely that is known (data/README.md "Dates").
//!
//! A classification, listing or reference value carries `effective_from` (its instrument's
//! date: an ATP's date of application, a Prop 65 listing date, an SVHC inclusion date, an IARC
//! or EFSA publication), `date_precision` (`day`, `month` or `year`: a year-only date is
//! written `YYYY`), and, once it ended, `effective_until` (the date the value that replaced it,
//! or the judgment that annulled it, took effect). A value whose date no source gives has
//! none of the three.

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};

/// How much of `effective_from` the source states.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum DatePrecision {
    Day,
    Month,
    Year,
}

/// The shape of a stated date (`Stated::parse`), as the OpenAPI document publishes it.
pub const STATED_DATE: &str = r"^[0-9]{4}(-[0-9]{2}){0,2}$";

/// A stated date: `YYYY-MM-DD`, `YYYY-MM` or `YYYY`, with its precision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stated {
    pub first: NaiveDate,
    pub precision: DatePrecision,
}

impl Stated {
    pub fn parse(text: &str) -> Option<Stated> {
        let parts: Vec<&str> = text.split('-').collect();
        let number = |i: usize| parts.get(i).and_then(|p| p.parse::<u32>().ok());
        let (year, precision) = (i32::try_from(number(0)?).ok()?, parts.len());
        if parts[0].len() != 4 || parts.iter().skip(1).any(|p| p.len() != 2) {
            return None;
        }
        let (first, precision) = match precision {
            1 => (NaiveDate::from_ymd_opt(year, 1, 1)?, DatePrecision::Year),
            2 => (
                NaiveDate::from_ymd_opt(year, number(1)?, 1)?,
                DatePrecision::Month,
            ),
            3 => (
                NaiveDate::from_ymd_opt(year, number(1)?, number(2)?)?,
                DatePrecision::Day,
            ),
            _ => return None,
        };
        Some(Stated { first, precision })
    }

    /// The day from which the value is surely in force: the last day of the stated period, so
    /// an `as_of` answer never shows a value before it applied (a year-only 2023 opinion
    /// counts from 2023-12-31).
    pub fn in_force_from(self) -> NaiveDate {
        match self.precision {
            DatePrecision::Day => self.first,
            DatePrecision::Month => last_of_month(self.first),
            DatePrecision::Year => {
                NaiveDate::from_ymd_opt(self.first.year(), 12, 31).unwrap_or(self.first)
            }
        }
    }
}

fn last_of_month(d: NaiveDate) -> NaiveDate {
    let next = if d.month() == 12 {
        NaiveDate::from_ymd_opt(d.year() + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(d.year(), d.month() + 1, 1)
    };
    next.and_then(|n| n.pred_opt()).unwrap_or(d)
}

/// Whether a value dated `from` (a stated date) and ended `until` (a day, when it ended) was
/// in force on `day`. An undated value is held as it is today by the caller, not here.
pub fn in_force(from: &str, until: Option<&str>, day: NaiveDate) -> Option<bool> {
    let from = Stated::parse(from)?.in_force_from();
    let ended = until
        .and_then(Stated::parse)
        .is_some_and(|u| u.in_force_from() <= day);
    Some(from <= day && !ended)
}

/// The date of application of the EU CLP Annex VI entries of each ATP (the code ECHA's
/// consolidated table prints in its `atp` column: the ATP that last changed the entry), with
/// the instrument that sets it. CLP00 is the date the Regulation applies to substances.
/// `ATP01corr` (a corrigendum) is not here: its entries carry no date.
pub const CLP_ATP_APPLICATION: &[(&str, &str, &str)] = &[
    (
        "CLP00",
        "2010-12-01",
        "Regulation (EC) No 1272/2008, Article 62",
    ),
    (
        "ATP01",
        "2010-12-01",
        "Commission Regulation (EC) No 790/2009, Article 2",
    ),
    (
        "ATP02",
        "2012-12-01",
        "Commission Regulation (EU) No 286/2011, Article 2",
    ),
    (
        "ATP03",
        "2013-12-01",
        "Commission Regulation (EU) No 618/2012, Article 2",
    ),
    (
        "ATP05",
        "2015-01-01",
        "Commission Regulation (EU) No 944/2013, Article 2",
    ),
    (
        "ATP06",
        "2016-01-01",
        "Commission Regulation (EU) No 605/2014, Article 3(3) as replaced by Commission Regulation (EU) 2015/491",
    ),
    (
        "ATP07",
        "2017-01-01",
        "Commission Regulation (EU) 2015/1221, Article 2",
    ),
    (
        "ATP09",
        "2018-03-01",
        "Commission Regulation (EU) 2016/1179, Article 2",
    ),
    (
        "ATP10",
        "2018-12-01",
        "Commission Regulation (EU) 2017/776, Article 2",
    ),
    (
        "ATP13",
        "2020-05-01",
        "Commission Regulation (EU) 2018/1480, Article 2",
    ),
    (
        "ATP14",
        "2021-10-01",
        "Commission Delegated Regulation (EU) 2020/217, Article 3",
    ),
    (
        "ATP15",
        "2022-03-01",
        "Commission Delegated Regulation (EU) 2020/1182, Article 2",
    ),
    (
        "ATP17",
        "2022-12-17",
        "Commission Delegated Regulation (EU) 2021/849, Article 2",
    ),
    (
        "ATP18",
        "2023-12-01",
        "Commission Delegated Regulation (EU) 2022/692, as corrected (OJ L 146, 25.5.2022)",
    ),
    (
        "ATP20",
        "2025-02-01",
        "Commission Delegated Regulation (EU) 2023/1435",
    ),
    (
        "ATP21",
        "2025-09-01",
        "Commission Delegated Regulation (EU) 2024/197",
    ),
    (
        "ATP22",
        "2026-05-01",
        "Commission Delegated Regulation (EU) 2024/2564",
    ),
    (
        "ATP23",
        "2027-02-01",
        "Commission Delegated Regulation (EU) 2025/1222",
    ),
];

/// The application date of an ATP code ("ATP14", "CLP00").
pub fn atp_application(code: &str) -> Option<&'static str> {
    CLP_ATP_APPLICATION
        .iter()
        .find(|(c, _, _)| *c == code)
        .map(|(_, date, _)| *date)
}

/// The earliest date a source of each kind can give: IARC Monographs began in 1971 (Volume
/// 1), the Prop 65 list in 1987, the SVHC Candidate List in 2008, CLP in 2009 (its first ATP),
/// EFSA in 2002 (its founding). `check` refuses a date before it.
pub fn earliest(kind: &str) -> Option<NaiveDate> {
    let (y, m, d) = match kind {
        "IARC" => (1971, 1, 1),
        "Prop 65" => (1987, 1, 1),
        "SVHC" => (2008, 1, 1),
        "CLP" => (2009, 1, 1),
        "EFSA" => (2002, 1, 1),
        _ => return None,
    };
    NaiveDate::from_ymd_opt(y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn stated_dates_count_from_the_last_day_they_allow() {
        let table = [
            ("2023-11-30", DatePrecision::Day, "2023-11-30"),
            ("2024-02", DatePrecision::Month, "2024-02-29"),
            ("2023", DatePrecision::Year, "2023-12-31"),
        ];
        for (text, precision, from) in table {
            let s = Stated::parse(text).unwrap();
            assert_eq!((s.precision, s.in_force_from()), (precision, day(from)));
        }
        for bad in [
            "23",
            "2023-1-01",
            "2023-13-01",
            "2023-02-30",
            "x",
            "2023-01-01-01",
        ] {
            assert_eq!(Stated::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn in_force_between_from_and_until() {
        let f = |day_: &str| in_force("2021-10-01", Some("2025-08-01"), day(day_));
        assert_eq!(f("2021-09-30"), Some(false));
        assert_eq!(f("2021-10-01"), Some(true));
        assert_eq!(f("2025-07-31"), Some(true));
        assert_eq!(f("2025-08-01"), Some(false));
        assert_eq!(in_force("unknown", None, day("2025-01-01")), None);
    }

    #[test]
    fn the_atp_table_is_in_order_and_dated() {
        let dates: Vec<NaiveDate> = CLP_ATP_APPLICATION.iter().map(|(_, d, _)| day(d)).collect();
        assert!(dates.windows(2).all(|w| w[0] <= w[1]));
        assert!(dates.iter().all(|d| *d >= earliest("CLP").unwrap()));
        assert_eq!(atp_application("ATP14"), Some("2021-10-01"));
        assert_eq!(atp_application("ATP01corr"), None);
    }
}
