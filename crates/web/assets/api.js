// The client of taquin's JSON API, and the words a web user reads when a request fails: the
// server's messages are written for every client, some advise command-line flags, which a
// person in a browser cannot use.
//
// The same page runs in two modes: served by `taquin serve`, it calls the server's API; as a
// static folder (scripts/site.sh), whose site.json says so, the same routes are answered in the
// browser by Web Workers running the core as WebAssembly (workers.js).

export class ApiError extends Error {
  constructor(message, code, data) {
    super(message);
    this.code = code;
    this.data = data || {};
  }
}

const UNREACHABLE = "The game's server does not answer: check that it is still running, then reload the page.";

// A static folder copied without its site.json: the page cannot tell it from a server (whose
// routes then fail with a static host's 404 or 501), so it says what is missing instead.
const INCOMPLETE = "This folder is incomplete: site.json is missing beside index.html. Copy the whole folder that scripts/site.sh wrote.";

let site = null;

/**
 * What site.json says: {mode: "static", solver_bytes} in a static folder, {mode: "server"}
 * under `taquin serve`, {mode: "missing"} when the host has no such file (a static folder
 * copied incompletely: the server always answers it), and {} when nothing answers.
 */
export function siteInfo() {
  if (!site) {
    // Relative to the page, so the folder can live under any path of a static host.
    site = fetch(new URL("site.json", document.baseURI), { cache: "no-cache" })
      .then((r) => (r.ok ? r.json() : r.status === 404 ? { mode: "missing" } : {}))
      .catch(() => ({}));
  }
  return site;
}

/** True when the page is a static folder (its site.json says so), false under `taquin serve`. */
export async function isStatic() {
  return (await siteInfo()).mode === "static";
}

/** Answers the route in the browser (a static folder), or refuses an incomplete folder's. */
async function inBrowser() {
  const mode = (await siteInfo()).mode;
  if (mode === "missing") throw new ApiError(INCOMPLETE, "incomplete");
  return mode === "static";
}

/** A route answered in the browser: the same answer or error as the server's. */
async function local(path, body, signal, onLine) {
  const { call } = await import("./workers.js");
  try {
    return await call(path, body, signal, onLine);
  } catch (e) {
    if (e && e.error) throw new ApiError(e.error.error, e.error.code, e.error);
    throw e;
  }
}

async function send(path, body, signal) {
  try {
    return await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError(UNREACHABLE, "unreachable");
  }
}

async function failure(response) {
  const data = await response.json().catch(() => ({}));
  return new ApiError(data.error || `the server answered ${response.status}`, data.code, data);
}

/** GET (no body) or POST a JSON body; resolves to the JSON answer, rejects with an ApiError. */
export async function api(path, body, signal) {
  if (await inBrowser()) return local(path, body, signal);
  const response = await send(path, body, signal);
  if (!response.ok) throw await failure(response);
  try {
    return await response.json();
  } catch (e) {
    if (e.name === "AbortError") throw e;
    // A body cut off by a server that went away is no answer at all; a body that is not JSON is.
    if (!(e instanceof SyntaxError)) throw new ApiError(UNREACHABLE, "unreachable");
    throw new ApiError(`the server answered ${response.status} without JSON`, "bad_answer");
  }
}

/**
 * POSTs to a newline-delimited JSON route, calls onLine for each line as it arrives, and
 * resolves to the last line (the result or the error).
 */
export async function stream(path, body, signal, onLine) {
  if (await inBrowser()) {
    // The server's stream ends with a {"solution"} or {"error"} line: the same here.
    let last;
    try {
      last = { solution: await local(path, body, signal, onLine) };
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      last = { error: e.data };
    }
    onLine(last);
    return last;
  }
  const response = await send(path, body, signal);
  if (!response.ok) throw await failure(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let last = null;
  const take = (text) => {
    if (!text.trim()) return;
    last = JSON.parse(text);
    onLine(last);
  };
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (e) {
      // A cancel aborts the stream; anything else that breaks it is a server that went away
      // (the browser says "network error").
      if (signal && signal.aborted) throw e.name === "AbortError" ? e : new DOMException("aborted", "AbortError");
      throw new ApiError(UNREACHABLE, "unreachable");
    }
    const { value, done } = chunk;
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      take(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  }
  take(buffer);
  // The stream ends with its answer: a progress or waiting line last is a stream cut short.
  if (!last || !(last.solution || last.error)) throw new ApiError("the server closed the stream without an answer", "bad_answer");
  return last;
}

const LIMIT_WORDS = { time: "time limit", nodes: "node limit", memory: "memory limit" };

// What a person can do about a limit, by what hit it and where: only what that part of the
// page offers (the Solve card has a time limit and every algorithm; a hint and a comparison
// have neither), and never more time for a memory limit.
const LIMIT_ADVICE = {
  solve: {
    memory: "A* and breadth-first search keep every board they reach: choose IDA* or auto, which need little memory.",
    other: "Choose a longer time limit, or the algorithm auto, which gives the best solution found in time.",
  },
  hint: {
    memory: "Solve the board instead: its solution shows a good next move.",
    other: "The best move of a board this far from the goal takes too long to find: Solve it instead, and its solution shows a good next move.",
  },
  compare: { memory: "", other: "" },
};

/**
 * What to tell a person about a failed request: the page's own words for the errors a player
 * can act on, with advice for the part of the page that asked (`context`: solve, hint or
 * compare), and otherwise the server's message without advice meant for the command line.
 */
export function userMessage(err, context = "solve") {
  if (!(err instanceof ApiError)) return String(err && err.message ? err.message : err);
  const d = err.data;
  switch (err.code) {
    case "limit_reached": {
      const what = LIMIT_WORDS[d.limit] || "search limit";
      const nodes = typeof d.generated === "number" ? ` after ${d.generated.toLocaleString("en")} nodes` : "";
      const bound = typeof d.lower_bound === "number" ? `: the solution needs at least ${d.lower_bound} moves` : "";
      const advice = (LIMIT_ADVICE[context] || LIMIT_ADVICE.solve)[d.limit === "memory" ? "memory" : "other"];
      return `The ${what} was reached${nodes}${bound}.${advice ? ` ${advice}` : ""}`;
    }
    case "busy":
      return "The server is busy with other searches: try again in a few seconds.";
    case "cancelled":
      // The person's own Cancel aborts the request and never reaches here: this is the server
      // stopping every search as it shuts down.
      return `The server stopped the search as it shut down. ${UNREACHABLE}`;
    case "unsupported": {
      // The pair of algorithm and heuristic, or the heuristic on this board, cannot run: the
      // menus offer what can (the comparison's row says it of its own heuristic, and has no
      // heuristic menu to point to).
      const said = sentence(withoutFlags(err.message));
      // The core's message may already say what to choose instead: said once.
      const advice = context === "compare" || /\bchoose\b/i.test(said)
        ? ""
        : " Choose another algorithm or heuristic, or auto, which picks one that fits the board.";
      return `${said}${advice}`;
    }
    default:
      return sentence(withoutFlags(err.message));
  }
}

/** A message as a sentence: a capital first letter and a full stop. */
export function sentence(message) {
  const text = String(message).trim();
  if (!text) return text;
  const capital = text[0].toUpperCase() + text.slice(1);
  return /[.!?)]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * Drops the parts of a message that advise a command-line flag or command ("pass --pdb-dir",
 * "run `taquin pdb build`"): a clause separated by ";" or ", or", or advice after a colon
 * ("...: use --heuristic ..."), goes when it names one.
 */
export function withoutFlags(message) {
  const cli = /(^|\s|`|\()--[a-z]|`taquin\b|\btaquin [a-z]+ --/;
  const kept = String(message)
    .split(/;\s+/)
    .map((part) => {
      const alternatives = (t) => t.split(/,?\s+or\s+(?=(?:pass|run|use|set)\b)/).filter((p) => !cli.test(p)).join(" or ");
      // Advice after a colon goes whole when what is left of it still names a flag: what
      // comes before the colon still stands.
      const [said, ...advice] = part.split(/:\s+(?=(?:pass|run|use|set|build|rebuild)\b)/);
      const text = [alternatives(said), ...advice.map(alternatives).filter((a) => a.trim() && !cli.test(a))].join(": ");
      // A clause cut inside parentheses leaves them open.
      const open = (text.match(/\(/g) || []).length - (text.match(/\)/g) || []).length;
      return open > 0 ? `${text})` : text;
    })
    .filter((part) => part.trim() && !cli.test(part));
  const text = kept.join("; ").replace(/\s*\(\s*\)/g, "").trim();
  return text || "The server could not do this.";
}
