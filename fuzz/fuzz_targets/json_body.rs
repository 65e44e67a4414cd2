//! The JSON request bodies of every API route, read and checked as the server does before it
//! runs anything (`taquin_web::api::check_body`). Input: a byte choosing the route, then the
//! body. Invariants: no panic; a refusal has a documented status and the usual JSON shape (a
//! `code` and an `error` that says something); an accepted body is a JSON object.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use taquin_fuzz::assert_explains;
use taquin_web::api::{check_body, BODY_ROUTES};
use taquin_web::{AppState, Config};

/// The statuses the API documents for a body it refuses.
const DOCUMENTED: [u16; 4] = [400, 413, 415, 422];

fuzz_target!(|data: &[u8]| {
    static STATE: OnceLock<AppState> = OnceLock::new();
    let state = STATE.get_or_init(|| AppState::new(Config::default()));
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let route = BODY_ROUTES[usize::from(which) % BODY_ROUTES.len()];
    match check_body(state, route, body) {
        Ok(()) => {
            // The API skips a byte-order mark before the JSON, as some Windows tools write one.
            let json = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
            let value: serde_json::Value = serde_json::from_slice(json).expect("accepted JSON");
            assert!(
                value.is_object(),
                "{route} accepted a body that is not an object"
            );
        }
        Err(e) => {
            assert!(
                DOCUMENTED.contains(&e.status.as_u16()),
                "{route}: {} {e}",
                e.status
            );
            let answer = e.body();
            assert!(answer["code"].is_string(), "{route}: no code in {answer}");
            assert_explains(&answer["error"].as_str().expect("an error message"));
        }
    }
});
