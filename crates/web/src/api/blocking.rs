//! The bridge from the async handlers to the blocking pool, where searches run.

use axum::http::StatusCode;

use crate::error::AppError;

/// Runs CPU work on the blocking pool, below the async threads' priority (see
/// [`crate::priority`]); a panic there becomes a JSON 500, never a dropped connection.
pub(super) async fn run_blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    let work = move || {
        crate::priority::lower_current_thread();
        work()
    };
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        AppError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the search stopped unexpectedly: {e}"),
        )
    })
}
