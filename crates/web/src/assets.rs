//! The page and its assets, embedded in the binary at compile time so the server runs from any
//! working directory. Plain HTML, CSS and JavaScript modules: no front-end build step.

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::AppState;

/// The page.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// Its style sheet.
pub const APP_CSS: &str = include_str!("../assets/app.css");
/// The built-in picture for image tiles.
pub const PICTURE_SVG: &str = include_str!("../assets/picture.svg");
/// The tab icon.
pub const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");

/// The page's script: ES modules the browser loads as they are, one per concern.
pub const MODULES: [(&str, &str); 12] = [
    ("/main.js", include_str!("../assets/main.js")),
    ("/state.js", include_str!("../assets/state.js")),
    ("/api.js", include_str!("../assets/api.js")),
    ("/board.js", include_str!("../assets/board.js")),
    ("/boardview.js", include_str!("../assets/boardview.js")),
    ("/notation.js", include_str!("../assets/notation.js")),
    ("/names.js", include_str!("../assets/names.js")),
    ("/player.js", include_str!("../assets/player.js")),
    ("/game.js", include_str!("../assets/game.js")),
    ("/solve.js", include_str!("../assets/solve.js")),
    ("/compare.js", include_str!("../assets/compare.js")),
    ("/tree.js", include_str!("../assets/tree.js")),
];

/// Routes of the page and its assets.
pub fn routes() -> Router<AppState> {
    let mut router = Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        // The page's file name, as the static folder serves it (scripts/site.sh): an address
        // saved from one works on the other.
        .route(
            "/index.html",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.css",
            get(|| async { asset("text/css; charset=utf-8", APP_CSS) }),
        )
        .route(
            "/picture.svg",
            get(|| async { asset("image/svg+xml", PICTURE_SVG) }),
        )
        .route(
            "/favicon.svg",
            get(|| async { asset("image/svg+xml", FAVICON_SVG) }),
        )
        // The page asks which mode it runs in; a static folder's own site.json says "static"
        // (scripts/site.sh). Answered here, so that no page load logs a 404.
        .route(
            "/site.json",
            get(|| async { asset("application/json", "{\"mode\": \"server\"}\n") }),
        );
    for (path, body) in MODULES {
        router = router.route(
            path,
            get(move || async move { asset("text/javascript; charset=utf-8", body) }),
        );
    }
    router
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
