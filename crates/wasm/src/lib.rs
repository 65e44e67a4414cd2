//! The taquin core for the static web page: the web API's routes as functions that a Web Worker
//! calls (assets/worker.js), each taking the route's JSON request text and returning its JSON
//! answer text, or throwing the route's JSON error text. The checks, searches and errors are
//! the server's own ([`taquin_api`]), so the page's code reads both the same.
//!
//! A browser tab has one thread here: the planner's choices run single-threaded (the anytime
//! search runs its improver, then its prover), and tables are built in memory.

mod api;

use std::cell::RefCell;

use serde_json::Value;
use wasm_bindgen::prelude::*;

use taquin_api::ApiError;

fn answer(result: Result<Value, ApiError>) -> Result<String, JsValue> {
    result
        .map(|v| v.to_string())
        .map_err(|e| JsValue::from_str(&e.body().to_string()))
}

/// Sets the memory budget of this worker's searches from the device's memory in GiB (the
/// page's `navigator.deviceMemory`; `undefined` where the browser does not tell it). Returns
/// the budget in bytes, which `info` reports as `max_memory_bytes`.
#[wasm_bindgen]
pub fn set_device_memory(gib: Option<f64>) -> usize {
    api::set_device_memory(gib)
}

/// `GET /api/info`.
#[wasm_bindgen]
pub fn info() -> String {
    api::info().to_string()
}

/// `POST /api/validate`.
#[wasm_bindgen]
pub fn validate(body: &str) -> Result<String, JsValue> {
    answer(api::validate(body))
}

thread_local! {
    /// The callback of the solve under way: the core's progress callback must be shareable
    /// between threads, which a JavaScript function is not, so it is reached from here (the
    /// worker has one thread).
    static ON_LINE: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

fn send_line(line: Value) {
    ON_LINE.with(|f| {
        if let Some(f) = f.borrow().as_ref() {
            // A failing callback must not stop the search: its line is lost, nothing more.
            let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&line.to_string()));
        }
    });
}

/// `POST /api/solve`; `on_line` (may be null) receives each `progress`/`improved` line of
/// `/api/solve/stream` as JSON text.
#[wasm_bindgen]
pub fn solve(body: &str, on_line: Option<js_sys::Function>) -> Result<String, JsValue> {
    let streaming = on_line.is_some();
    ON_LINE.with(|f| *f.borrow_mut() = on_line);
    let result = api::solve(body, streaming.then_some(send_line as fn(Value)));
    ON_LINE.with(|f| *f.borrow_mut() = None);
    answer(result)
}

/// `POST /api/hint`.
#[wasm_bindgen]
pub fn hint(body: &str) -> Result<String, JsValue> {
    answer(api::hint(body))
}

/// `POST /api/generate`; a request with no seed gets one from `Math.random`.
#[wasm_bindgen]
pub fn generate(body: &str) -> Result<String, JsValue> {
    let fresh = (js_sys::Math::random() * (1u64 << 53) as f64) as u64;
    answer(api::generate(body, fresh))
}

/// `POST /api/trace`.
#[wasm_bindgen]
pub fn trace(body: &str) -> Result<String, JsValue> {
    answer(api::trace(body))
}

/// Moves rewritten from notation `from` to `to` (`blank`, `tiles`), with both lengths.
#[wasm_bindgen]
pub fn convert(moves: &str, from: &str, to: &str) -> Result<String, JsValue> {
    answer(api::convert(moves, from, to))
}
