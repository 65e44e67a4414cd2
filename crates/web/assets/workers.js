// The static page's stand-in for the server: the web API's routes answered by Web Workers
// running taquin's core as WebAssembly (worker.js). Each call takes an idle worker, or starts
// one, so a long search never holds up a quick question; cancelling a call ends its worker
// (a WebAssembly search cannot be interrupted otherwise) and the next call starts a fresh one.

const MAX_IDLE = 2;
// A worker's WebAssembly memory only grows: a worker that ends a search holding more than this
// is ended rather than kept idle, or the tab would keep the search's hundreds of MB for its life
// (an A* search fills the whole budget, up to 512 MiB, before it says "memory limit reached"). What
// the rule trades: a worker keeps the pattern databases it built (a 4x4's, 4 MB; a 5x5's with
// its anytime search, about 80 MB: both under this), so that the next search of that size
// starts at once; a worker ended takes its tables with it, and the next search that needs them
// builds them again (seconds) in a fresh worker.
const KEEP_MEMORY = 96 << 20;
const idle = [];
let nextId = 1;

function takeWorker() {
  return idle.pop() || new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
}

function release(worker, memory) {
  if (idle.length < MAX_IDLE && !(memory > KEEP_MEMORY)) idle.push(worker);
  else worker.terminate();
}

/**
 * Sends `body` to route `path` in a worker; `onLine` receives the lines of a streamed solve.
 * Resolves to the route's JSON answer; rejects with {error} (the route's JSON error) or an
 * AbortError when `signal` fires.
 */
export function call(path, body, signal, onLine) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) {
      reject(new DOMException("aborted", "AbortError"));
      return;
    }
    const worker = takeWorker();
    const id = nextId++;
    const done = () => {
      worker.onmessage = null;
      worker.onerror = null;
      if (signal) signal.removeEventListener("abort", abort);
    };
    const abort = () => {
      done();
      worker.terminate();
      reject(new DOMException("aborted", "AbortError"));
    };
    if (signal) signal.addEventListener("abort", abort);
    worker.onmessage = (event) => {
      const msg = event.data;
      if (msg.id !== id) return;
      if ("line" in msg) {
        if (onLine) onLine(msg.line);
        return;
      }
      done();
      // A worker whose WebAssembly failed may be in a broken state, and one without its module
      // can do nothing: never reuse them.
      if (msg.error && (msg.error.code === "internal" || msg.error.code === "incomplete")) worker.terminate();
      else release(worker, msg.memory);
      if ("answer" in msg) resolve(msg.answer);
      else reject({ error: msg.error });
    };
    worker.onerror = (event) => {
      done();
      worker.terminate();
      // A worker that did not load at all is most likely a folder copied without worker.js or pkg/.
      const why = event.message || "it did not load (worker.js and pkg/ must be beside index.html)";
      reject({ error: { code: "internal", error: `the page's search worker failed: ${why}` } });
    };
    // The device's memory in GiB (Chromium's browsers tell it; others do not): the worker's
    // searches take an eighth of it, up to 512 MiB, so that a phone keeps room for the rest.
    worker.postMessage({ id, path, body, deviceMemory: navigator.deviceMemory });
  });
}
