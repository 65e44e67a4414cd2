//! Board and goal text: `Board::parse` and `goals::parse_goal` (named goals or board text).
//! Input: the board text, optionally followed by a NUL byte and the goal text.
//! Invariants: no panic; a parsed board prints to a line that parses back to it; a goal is
//! refused or has the board's size; the solvability verdict agrees with itself both ways, with
//! the parity report, with moves made on the board, and with a breadth-first search on boards
//! of up to six cells.
#![no_main]

use libfuzzer_sys::fuzz_target;
use taquin::goals::parse_goal;
use taquin::solvability::parity_report;
use taquin::{check_solvable, is_solvable, Board};
use taquin_fuzz::{assert_explains, reachable, BFS_MAX_CELLS};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (board_text, goal_text) = text.split_once('\0').unwrap_or((&text, "standard"));
    let board = match Board::parse(board_text) {
        Ok(board) => board,
        Err(e) => return assert_explains(&e),
    };
    let line = board.to_line();
    assert_eq!(
        Board::parse(&line).as_ref(),
        Ok(&board),
        "{line} does not read back"
    );
    let goal = match parse_goal(goal_text, board.width(), board.height()) {
        Ok(goal) => goal,
        Err(e) => return assert_explains(&e),
    };
    assert_eq!(
        (goal.width(), goal.height()),
        (board.width(), board.height())
    );
    let verdict = check_solvable(&board, &goal);
    if let Err(e) = &verdict {
        assert_explains(e);
    }
    let solvable = verdict.is_ok();
    assert_eq!(
        is_solvable(&goal, &board),
        solvable,
        "solvability is not symmetric"
    );
    let report = parity_report(&board, &goal);
    assert_eq!(report.width, board.width());
    // A move changes nothing: the goal stays reachable, or stays out of reach.
    for mv in board.legal_moves() {
        let next = board.moved(mv).expect("a legal move applies");
        assert_eq!(
            is_solvable(&next, &goal),
            solvable,
            "move {mv:?} changed the verdict"
        );
    }
    if board.len() <= BFS_MAX_CELLS {
        assert_eq!(
            reachable(&board, &goal),
            solvable,
            "{line} -> {}",
            goal.to_line()
        );
    }
});
