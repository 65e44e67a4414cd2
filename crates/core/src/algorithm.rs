//! The search algorithms offered by name, and how a name given by a user is read (the same
//! way, with the same error, on the command line, in the web API and in Python).

use crate::heuristic::HeuristicKind;

/// A name that is not one of those offered; the message lists the valid ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{name}': use one of {valid}")]
pub struct UnknownName {
    /// What was named: `algorithm`, `heuristic` or `move`.
    pub what: &'static str,
    /// The name as given.
    pub name: String,
    /// The valid names, comma-separated.
    pub valid: String,
}

/// The name `auto` a user gives to leave a choice to the planner.
pub const AUTO: &str = "auto";

/// `None` for [`AUTO`], else what `parse` reads; `parse`'s error then lists `auto` first.
pub(crate) fn parse_choice<T>(
    name: &str,
    parse: impl Fn(&str) -> Result<T, UnknownName>,
) -> Result<Option<T>, UnknownName> {
    if name.eq_ignore_ascii_case(AUTO) {
        return Ok(None);
    }
    parse(name).map(Some).map_err(|e| UnknownName {
        valid: format!("{AUTO}, {}", e.valid),
        ..e
    })
}

/// The search algorithms the CLI and web API offer by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// A* over the puzzle graph: optimal, memory grows with the search.
    AStar,
    /// IDA*: optimal, memory linear in the depth; the fast one. Beyond 16 cells the solver runs
    /// beam searches between its iterations, which can spare it the last one.
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

    /// The algorithm with this [`name`](Algorithm::name) in any case (`IDAstar`), if any.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(name))
    }

    /// The algorithm a user named; the error lists every name.
    ///
    /// ```
    /// use taquin::Algorithm;
    /// assert_eq!(Algorithm::parse("idastar"), Ok(Algorithm::IdaStar));
    /// assert_eq!(Algorithm::parse("IDAstar"), Ok(Algorithm::IdaStar));
    /// assert_eq!(Algorithm::parse_choice("auto"), Ok(None));
    /// let e = Algorithm::parse_choice("dijkstra").unwrap_err();
    /// assert!(e.to_string().starts_with("unknown algorithm 'dijkstra': use one of auto, astar, idastar"));
    /// ```
    pub fn parse(name: &str) -> Result<Algorithm, UnknownName> {
        Algorithm::from_name(name).ok_or_else(|| UnknownName {
            what: "algorithm",
            name: name.to_string(),
            valid: Algorithm::ALL.map(Algorithm::name).join(", "),
        })
    }

    /// The algorithm a user named, or `None` for `auto` (the planner's choice).
    pub fn parse_choice(name: &str) -> Result<Option<Algorithm>, UnknownName> {
        parse_choice(name, Algorithm::parse)
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

    /// Why `heuristic`, asked of this algorithm, goes unused, with the heuristic written in
    /// the front end's words (`given`: `-H pdb:8`, `"heuristic": "pdb:8"`); `None` when the
    /// algorithm is guided by it. Front ends say so beside the answer rather than refuse it:
    /// the answer is the same, and a script that runs every algorithm with one heuristic
    /// should not fail on the two that take none.
    ///
    /// ```
    /// use taquin::{Algorithm, HeuristicKind};
    /// let why = Algorithm::Bfs.unused_heuristic(HeuristicKind::Manhattan, "-H manhattan");
    /// assert_eq!(why.as_deref(), Some("bfs uses no heuristic, so -H manhattan is not used"));
    /// assert!(Algorithm::Lookahead.unused_heuristic(HeuristicKind::Manhattan, "-H manhattan").is_none());
    /// assert!(Algorithm::AStar.unused_heuristic(HeuristicKind::Misplaced, "-H misplaced").is_none());
    /// ```
    pub fn unused_heuristic(self, heuristic: HeuristicKind, given: &str) -> Option<String> {
        let uses = match self {
            _ if self.takes_heuristic() => return None,
            // The look-ahead player's own heuristic, asked by name, is used.
            Algorithm::Lookahead if heuristic == HeuristicKind::Manhattan => return None,
            Algorithm::Lookahead => format!("always uses {}", HeuristicKind::Manhattan.name()),
            _ => "uses no heuristic".to_string(),
        };
        Some(format!("{self} {uses}, so {given} is not used"))
    }
}

/// A setting that only some algorithms use; given with another, every front end refuses it
/// rather than solve without it ([`Setting::unused_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// Weighted A*'s weight.
    Weight,
    /// The real-time players' look-ahead depth.
    Depth,
    /// The threads of one search: IDA* splits its iterations over them, the anytime search
    /// shares its beams' layers among them (with one, it runs on one thread).
    Threads,
}

impl Setting {
    /// The algorithms that use the setting.
    pub fn users(self) -> &'static [Algorithm] {
        match self {
            Setting::Weight => &[Algorithm::WeightedAStar],
            Setting::Depth => &[Algorithm::Lookahead, Algorithm::Lrta],
            Setting::Threads => &[Algorithm::IdaStar, Algorithm::Anytime],
        }
    }

    /// Why the setting, named `name` in the front end's words (`--weight`, `weight`), does not
    /// fit `algorithm` (`None`: the planner's choice), with what to do instead: drop it, or
    /// choose one of its users, written by `choose` (`-a weighted-astar`,
    /// `algorithm="weighted-astar"`); `None` when the algorithm uses it.
    ///
    /// ```
    /// use taquin::{Algorithm, Setting};
    /// let why = Setting::Weight.unused_with("--weight", Some(Algorithm::IdaStar), |a| format!("-a {a}"));
    /// assert_eq!(
    ///     why.as_deref(),
    ///     Some("--weight applies to weighted-astar only, not to idastar: drop it or choose -a weighted-astar")
    /// );
    /// assert!(Setting::Weight.unused_with("--weight", Some(Algorithm::WeightedAStar), |a| a.into()).is_none());
    /// ```
    pub fn unused_with(
        self,
        name: &str,
        algorithm: Option<Algorithm>,
        choose: impl Fn(&str) -> String,
    ) -> Option<String> {
        let users = self.users();
        if algorithm.is_some_and(|a| users.contains(&a)) {
            return None;
        }
        let names: Vec<&str> = users.iter().map(|a| a.name()).collect();
        let choices: Vec<String> = names.iter().map(|n| choose(n)).collect();
        let chosen = match algorithm {
            Some(a) => a.name(),
            None => "auto (the planner picks idastar or anytime)",
        };
        Some(format!(
            "{name} applies to {} only, not to {chosen}: drop it or choose {}",
            names.join(" and "),
            choices.join(" or ")
        ))
    }
}

/// [`Algorithm::parse`], for `str::parse` and whatever reads through [`std::str::FromStr`].
///
/// ```
/// use taquin::Algorithm;
/// let a: Algorithm = "weighted-astar".parse()?;
/// assert_eq!(a, Algorithm::WeightedAStar);
/// assert!("dijkstra".parse::<Algorithm>().is_err());
/// # Ok::<(), taquin::algorithm::UnknownName>(())
/// ```
impl std::str::FromStr for Algorithm {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Algorithm, UnknownName> {
        Algorithm::parse(name)
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
