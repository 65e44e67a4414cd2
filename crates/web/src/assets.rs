//! The page and its assets, embedded in the binary at compile time so the server runs from any
//! working directory. Plain HTML, CSS and JavaScript: no front-end build step.

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::AppState;

/// The page.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// Its style sheet.
pub const APP_CSS: &str = include_str!("../assets/app.css");
/// Its script.
pub const APP_JS: &str = include_str!("../assets/app.js");
/// The built-in picture for image tiles.
pub const PICTURE_SVG: &str = include_str!("../assets/picture.svg");
/// The tab icon.
pub const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");

/// Routes of the page and its assets.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.css",
            get(|| async { asset("text/css; charset=utf-8", APP_CSS) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/picture.svg",
            get(|| async { asset("image/svg+xml", PICTURE_SVG) }),
        )
        .route(
            "/favicon.svg",
            get(|| async { asset("image/svg+xml", FAVICON_SVG) }),
        )
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    // The assets change with the binary; "no-cache" makes the browser revalidate so a new
    // version of taquin is picked up without a hard reload.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}
