// The static page's searches: a Web Worker running taquin's core compiled to WebAssembly
// (crates/wasm), so that no search blocks the page. It answers the web API's routes with the
// same JSON as the server. Messages in: {id, path, body}; out: {id, line} for each line of a
// streamed solve, then {id, answer} or {id, error}.
import init, * as taquin from "./pkg/taquin_wasm.js";

// The module is fetched once per worker; a host that serves .wasm without its media type
// (application/wasm) still works: the glue then compiles from the downloaded bytes.
const ready = init({ module_or_path: new URL("./pkg/taquin_wasm_bg.wasm", import.meta.url) });

const ROUTES = {
  "/api/info": () => taquin.info(),
  "/api/validate": (body) => taquin.validate(body),
  "/api/generate": (body) => taquin.generate(body),
  "/api/hint": (body) => taquin.hint(body),
  "/api/trace": (body) => taquin.trace(body),
  "/api/solve": (body) => taquin.solve(body, null),
  "/api/solve/stream": (body, id) => taquin.solve(body, (line) => postMessage({ id, line: JSON.parse(line) })),
};

self.onmessage = async (event) => {
  const { id, path, body } = event.data;
  try {
    await ready;
    const route = ROUTES[path];
    if (!route) throw JSON.stringify({ code: "not_found", error: `no such route in the static page: ${path}` });
    postMessage({ id, answer: JSON.parse(route(JSON.stringify(body ?? {}), id)) });
  } catch (e) {
    // The core throws the route's JSON error text; anything else is a failure of the worker.
    let error;
    try {
      error = JSON.parse(e);
    } catch (_) {
      error = { code: "internal", error: `the search stopped unexpectedly: ${e && e.message ? e.message : e}` };
    }
    postMessage({ id, error });
  }
};
