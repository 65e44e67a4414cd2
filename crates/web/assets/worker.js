// The static page's searches: a Web Worker running taquin's core compiled to WebAssembly
// (crates/wasm), so that no search blocks the page. It answers the web API's routes with the
// same JSON as the server. Messages in: {id, path, body, deviceMemory}, the last the device's
// memory in GiB, which sets the searches' memory budget (absent where the browser does not tell
// it); out: {id, line} for each line of a streamed solve, then {id, answer, memory} or {id,
// error, memory}, `memory` being the bytes of WebAssembly memory the worker now holds (it never
// shrinks: workers.js ends a worker that grew large rather than keep it idle).
import init, * as taquin from "./pkg/taquin_wasm.js";

const MODULE = "pkg/taquin_wasm_bg.wasm";

/** A folder copied without its module: said as such, not as a search that failed. */
const missing = (why) => ({
  missing: { code: "incomplete", error: `this folder is incomplete: ${MODULE} could not be loaded (${why})` },
});

// The module is fetched once per worker, here rather than by the glue, so that a folder
// without it says which file is missing. A host that serves .wasm without its media type
// (application/wasm) still works: the glue then compiles from the downloaded bytes.
const ready = fetch(new URL(`./${MODULE}`, import.meta.url)).then(
  (response) => {
    if (!response.ok) throw missing(response.status);
    return init({ module_or_path: response });
  },
  (e) => {
    throw missing(e && e.message ? e.message : e);
  },
);
let wasm = null;

const ROUTES = {
  "/api/info": () => taquin.info(),
  "/api/validate": (body) => taquin.validate(body),
  "/api/generate": (body) => taquin.generate(body),
  "/api/hint": (body) => taquin.hint(body),
  "/api/trace": (body) => taquin.trace(body),
  "/api/solve": (body) => taquin.solve(body, null),
  "/api/solve/stream": (body, id) => taquin.solve(body, (line) => postMessage({ id, line: JSON.parse(line) })),
};

const memory = () => (wasm && wasm.memory ? wasm.memory.buffer.byteLength : 0);

self.onmessage = async (event) => {
  const { id, path, body, deviceMemory } = event.data;
  try {
    wasm = await ready;
    taquin.set_device_memory(typeof deviceMemory === "number" ? deviceMemory : undefined);
    const route = ROUTES[path];
    if (!route) throw JSON.stringify({ code: "not_found", error: `no such route in the static page: ${path}` });
    const answer = JSON.parse(route(JSON.stringify(body ?? {}), id));
    postMessage({ id, answer, memory: memory() });
  } catch (e) {
    // The core throws the route's JSON error text; anything else is a failure of the worker.
    let error;
    if (e && e.missing) {
      error = e.missing;
    } else {
      try {
        error = JSON.parse(e);
      } catch (_) {
        error = { code: "internal", error: `the search stopped unexpectedly: ${e && e.message ? e.message : e}` };
      }
    }
    postMessage({ id, error, memory: memory() });
  }
};
