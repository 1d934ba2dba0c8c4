//! Scheduled work that runs once across every instance sharing the store (the daily
//! freshness summary, the hourly retry of payment-provider deletions): each run is claimed for
//! its period with a set-if-absent mark, and only the instance that set it does the work. The
//! mark outlives its period, so an instance that starts late does not run it again.

use std::time::Duration;

use crate::store::keyspace;
use crate::store::{Store, StoreError};

pub const HOUR: Duration = Duration::from_secs(3600);
pub const DAY: Duration = Duration::from_secs(24 * 3600);

/// Whether this instance runs `job` for `period` (a date, an hour); kept for `keep`, which
/// must be at least the period's length.
pub async fn claim(
    store: &Store,
    job: &str,
    period: &str,
    keep: Duration,
) -> Result<bool, StoreError> {
    let holder = format!("pid {}", std::process::id());
    store
        .put_if_absent(&keyspace::job(job, period), holder.as_bytes(), Some(keep))
        .await
}
