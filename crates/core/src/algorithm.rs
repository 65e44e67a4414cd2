//! The search algorithms offered by name.

/// The search algorithms the CLI and web API offer by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// A* over the puzzle graph: optimal, memory grows with the search.
    AStar,
    /// IDA*: optimal, memory linear in the depth; the fast one.
    IdaStar,
    /// Breadth-first search: optimal, ignores the heuristic; ground truth on small boards.
    Bfs,
    /// Anytime search ([`crate::solvers::anytime`]): a first solution at once, better ones until
    /// the deadline, optimal when proven; the planner's choice beyond 16 cells.
    Anytime,
    /// Weighted A* (Pohl 1970), f = g + w·h: at most w times the optimal length.
    WeightedAStar,
    /// Greedy best-first search on h alone: fast, no bound on the length.
    Greedy,
    /// Row-by-row and column-by-column construction, for any board up to 1000x1000
    /// ([`crate::solvers::constructive`]).
    Constructive,
    /// The look-ahead player of a published student project, which cycles; the cycle is reported
    /// ([`crate::solvers::lookahead`]).
    Lookahead,
    /// Learning Real-Time A* (Korf 1990), a real-time player that always arrives
    /// ([`crate::solvers::lrta`]).
    Lrta,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 9] = [
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Bfs,
        Algorithm::Anytime,
        Algorithm::WeightedAStar,
        Algorithm::Greedy,
        Algorithm::Constructive,
        Algorithm::Lookahead,
        Algorithm::Lrta,
    ];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
            Algorithm::Bfs => "bfs",
            Algorithm::Anytime => "anytime",
            Algorithm::WeightedAStar => "weighted-astar",
            Algorithm::Greedy => "greedy",
            Algorithm::Constructive => "constructive",
            Algorithm::Lookahead => "lookahead",
            Algorithm::Lrta => "lrta",
        }
    }

    /// The algorithm with this [`name`](Algorithm::name), if any.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }

    /// True when the algorithm's results are proven optimal.
    pub fn is_optimal(self) -> bool {
        matches!(self, Algorithm::AStar | Algorithm::IdaStar | Algorithm::Bfs)
    }

    /// True when the algorithm is guided by a heuristic it can be given: BFS and the
    /// constructive solver use none (the constructive solver's small core is finished by its
    /// own IDA*), the look-ahead player always scores by Manhattan distance.
    pub fn takes_heuristic(self) -> bool {
        !matches!(
            self,
            Algorithm::Bfs | Algorithm::Constructive | Algorithm::Lookahead
        )
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
