//! A problem found in the dataset: where (file and JSON path) and what. Loading and `check`
//! collect every problem rather than stopping at the first.

use std::fmt;

/// One problem in the dataset: where (file and JSON path) and what.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    pub file: String,
    /// JSON path inside the file (`regulatory.classifications[2].agency`), or empty.
    pub path: String,
    pub message: String,
    /// The line in the file, where it is known (a curated entry, a JSON syntax error).
    pub line: Option<usize>,
}

impl Problem {
    pub fn new(
        file: impl Into<String>,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Problem {
        Problem {
            file: file.into(),
            path: path.into(),
            message: message.into(),
            line: None,
        }
    }

    /// The same problem, placed on a line of its file.
    pub fn at_line(self, line: impl Into<Option<usize>>) -> Problem {
        Problem {
            line: line.into(),
            ..self
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if !self.path.is_empty() {
            write!(f, ": {}", self.path)?;
        }
        write!(f, ": {}", self.message)
    }
}
