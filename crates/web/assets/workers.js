// The static page's stand-in for the server: the web API's routes answered by Web Workers
// running taquin's core as WebAssembly (worker.js). Each call takes an idle worker, or starts
// one, so a long search never holds up a quick question; cancelling a call ends its worker
// (a WebAssembly search cannot be interrupted otherwise) and the next call starts a fresh one.

const MAX_IDLE = 2;
const idle = [];
let nextId = 1;

function takeWorker() {
  return idle.pop() || new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
}

function release(worker) {
  if (idle.length < MAX_IDLE) idle.push(worker);
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
      // A worker whose WebAssembly failed may be in a broken state: never reuse it.
      if (msg.error && msg.error.code === "internal") worker.terminate();
      else release(worker);
      if ("answer" in msg) resolve(msg.answer);
      else reject({ error: msg.error });
    };
    worker.onerror = (event) => {
      done();
      worker.terminate();
      reject({ error: { code: "internal", error: `the page's search worker failed: ${event.message || "it did not load"}` } });
    };
    worker.postMessage({ id, path, body });
  });
}
