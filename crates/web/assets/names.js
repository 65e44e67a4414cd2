// The words a person reads for each algorithm and heuristic. The menus and the solution's
// statistics both take them from here, so the page never says one thing in a menu and another
// (a JSON name, or "constructive + none") in a report.

const ALGORITHMS = {
  auto: "auto (recommended)",
  astar: "A*",
  idastar: "IDA*",
  bfs: "breadth-first search",
  "weighted-astar": "weighted A*",
  greedy: "greedy best-first",
  constructive: "constructive (row by row)",
  lookahead: "look-ahead player",
  lrta: "LRTA* (real-time)",
};

const HEURISTICS = {
  auto: "auto (recommended)",
  misplaced: "misplaced tiles",
  manhattan: "Manhattan distance",
  "linear-conflict": "linear conflict",
  "walking-distance": "walking distance",
};

/** The label of an algorithm's API name. */
export const algorithmName = (name) => ALGORITHMS[name] || name;

/**
 * The label of a heuristic's API name: "pdb:5-5-5" reads "pattern database 5-5-5", "zpdb:7-8"
 * "pattern database 7-8 (zero-aware)", and the planner's combined sets name each part.
 */
export function heuristicName(name) {
  if (HEURISTICS[name]) return HEURISTICS[name];
  if (typeof name !== "string") return name;
  if (name.startsWith("pdb:")) return `pattern database ${name.slice(4)}`;
  if (name.startsWith("zpdb:")) return `pattern database ${name.slice(5).replace("+", " and ")} (zero-aware)`;
  return name;
}

/** "IDA* with walking distance", or the algorithm alone when no heuristic guides it. */
export function solverName(algorithm, heuristic) {
  const a = algorithmName(algorithm);
  if (!heuristic || heuristic === "none") return a;
  return `${a} with ${heuristicName(heuristic)}`;
}

/**
 * The planner's one-line decision in the page's words: the server writes it as
 * "idastar + pdb:8: why", which reads "IDA* with pattern database 8: why". Any other text is
 * shown as it comes.
 */
export function planText(plan) {
  const m = /^(\S+) \+ (\S+): ([\s\S]*)$/.exec(plan);
  return m ? `${solverName(m[1], m[2])}: ${m[3]}` : plan;
}
