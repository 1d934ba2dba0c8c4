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
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}: {}: {}", self.file, self.path, self.message)
        }
    }
}
