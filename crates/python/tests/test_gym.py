"""The Gymnasium environments: gymnasium's own checker, rewards and flags, masks, options, the
vector environment against the single one."""

import copy
import pickle

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import taquin  # noqa: E402
import taquin.gym  # noqa: E402
from taquin import Board  # noqa: E402
from taquin.gym import SlidingPuzzleEnv, SlidingPuzzleVectorEnv  # noqa: E402


@pytest.mark.parametrize("size, mode", [("3x3", "ansi"), ("4x4", "rgb_array"), ((5, 2), "ansi")])
def test_passes_gymnasiums_checker(size, mode):
    check_env(gymnasium.make("taquin/SlidingPuzzle-v0", size=size, render_mode=mode).unwrapped)


def test_registered_and_made():
    env = gymnasium.make("taquin/SlidingPuzzle-v0", goal="0 1 2/3 4 5/6 7 8", max_steps=5)
    obs, info = env.reset(seed=1)
    assert obs.shape == (3, 3) and obs.dtype == np.uint8
    assert info["action_mask"].dtype == np.int8


def test_following_the_solution_terminates_on_the_goal():
    env = SlidingPuzzleEnv(size="3x3")
    start = "6 4 7/8 5 0/3 2 1"
    obs, info = env.reset(options={"state": start})
    assert (obs == np.array(Board(start).rows)).all()
    total = 0.0
    moves = taquin.solve(start).moves
    for i, m in enumerate(moves):
        assert info["action_mask"][taquin.gym.ACTIONS.index(m)] == 1
        obs, reward, terminated, truncated, info = env.step(taquin.gym.ACTIONS.index(m))
        total += reward
        assert terminated == (i == len(moves) - 1) and not truncated
    assert total == -31 and env.board == Board.solved(3)


def test_illegal_moves_cost_a_step_and_change_nothing():
    env = SlidingPuzzleEnv(size="3x3", max_steps=3)
    obs, info = env.reset(options={"state": Board.solved(3)})
    assert info["action_mask"].tolist() == [1, 0, 1, 0]
    obs2, reward, terminated, truncated, _ = env.step(1)  # down, off the board
    assert (obs2 == obs).all() and reward == -1.0 and terminated  # still on the goal
    env.reset(options={"state": "1 2 3/4 5 6/7 0 8"})
    flags = [env.step(1)[2:4] for _ in range(3)]
    assert flags == [(False, False), (False, False), (False, True)]


def test_scramble_and_seed():
    env = SlidingPuzzleEnv(size="4x4", scramble=6)
    a, _ = env.reset(seed=3)
    b, _ = env.reset(seed=3)
    assert (a == b).all()
    assert taquin.solve(env.board).length <= 6
    env.reset(seed=3, options={"scramble": 2})
    assert taquin.solve(env.board).length <= 2
    env.reset(seed=4)
    with pytest.raises(taquin.UnsolvableError):
        env.reset(options={"state": "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0"})
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"shuffle": 3})
    for bad in (-1, 2.5, "3"):
        with pytest.raises(ValueError, match="scramble must be a number of moves, 0 or more"):
            env.reset(options={"scramble": bad})
    with pytest.raises(ValueError, match="scramble must be a number of moves"):
        SlidingPuzzleEnv(size="3x3", scramble=-2)
    with pytest.raises(ValueError, match="scramble must be a number of moves"):
        SlidingPuzzleVectorEnv(2, size="3x3", scramble=-2)
    with pytest.raises(ValueError, match="invalid action 7"):
        env.step(7)


def test_render():
    env = SlidingPuzzleEnv(size="3x3", render_mode="ansi")
    env.reset(options={"state": "6 4 7/8 5 0/3 2 1"})
    assert env.render() == "6 4 7\n8 5 .\n3 2 1\n"
    env = SlidingPuzzleEnv(size="3x3", render_mode="rgb_array")
    env.reset(options={"state": "6 4 7/8 5 0/3 2 1"})
    image = env.render()
    assert image.shape == (96, 96, 3) and image.dtype == np.uint8
    assert image[64 - 16 + 16, 64 + 16].sum() == 0  # the blank's cell is black
    with pytest.raises(ValueError, match="render_mode"):
        SlidingPuzzleEnv(render_mode="human")


def test_too_large_for_the_environment():
    with pytest.raises(ValueError, match="at most 256 cells"):
        SlidingPuzzleEnv(size="17x16")


def test_vector_env_steps_like_single_envs():
    n = 16
    venv = SlidingPuzzleVectorEnv(n, size="3x3", scramble=4, max_steps=50)
    obs, info = venv.reset(seed=2)
    assert obs.shape == (n, 3, 3) and info["action_mask"].shape == (n, 4)
    singles = []
    for i in range(n):
        env = SlidingPuzzleEnv(size="3x3", max_steps=50)
        env.reset(options={"state": obs[i]})
        singles.append(env)
    rng = np.random.default_rng(0)
    for _ in range(60):
        actions = rng.integers(0, 4, size=n)
        resetting = [False] * n
        obs, rewards, term, trunc, info = venv.step(actions)
        for i, env in enumerate(singles):
            if rewards[i] == 0:  # autoreset step: the board was replaced
                env.reset(options={"state": obs[i]})
                resetting[i] = True
                continue
            o, r, t, tr, inf = env.step(actions[i])
            assert (o == obs[i]).all() and r == rewards[i]
            assert (t, tr) == (term[i], trunc[i])
            assert (inf["action_mask"] == info["action_mask"][i]).all()


def test_vector_env_made_by_gymnasium_and_set_state():
    venv = gymnasium.make_vec(
        "taquin/SlidingPuzzleVector-v0", num_envs=3, vectorization_mode="vector_entry_point", size="3x3"
    )
    venv.reset(seed=0)
    venv.unwrapped.set_state(1, "1 2 3/4 5 6/7 0 8")
    obs, rewards, term, trunc, _ = venv.step(np.array([0, 3, 0]))
    assert term[1] and (obs[1] == np.array(Board.solved(3).rows)).all()
    obs, rewards, term, trunc, _ = venv.step(np.array([0, 0, 0]))
    assert rewards[1] == 0 and not term[1]
    with pytest.raises(ValueError, match="2 actions given for 3 boards"):
        venv.step(np.array([0, 1]))


SNAIL_4 = "1 2 3 4/12 13 14 5/11 0 15 6/10 9 8 7"


def _makers():
    """Both environments, made from the same keyword arguments."""
    return [SlidingPuzzleEnv, lambda **kw: SlidingPuzzleVectorEnv(2, **kw)]


@pytest.mark.parametrize("size", ["4x4", 4, (4, 4), [4, 4]])
def test_every_documented_size_form_gives_the_same_board(size):
    for make in _makers():
        assert make(size=size).goal == Board.solved(4)


@pytest.mark.parametrize("size", [4.5, "4", "4x4x4", (4, 4, 4), True, -3, "four"])
def test_a_size_that_is_none_of_the_forms_is_refused_by_name(size):
    for make in _makers():
        with pytest.raises(ValueError, match="invalid size"):
            make(size=size)


def test_a_named_goal_is_laid_out_on_the_size():
    for make in _makers():
        assert make(size="4x4", goal="snail").goal == Board(SNAIL_4)
        assert make(size=(3, 2), goal="korf").goal == Board("0 1 2/3 4 5")
        # With no size, on the default 3x3 board, as without a goal.
        assert make(goal="snail").goal == Board("1 2 3/8 0 4/7 6 5")
        assert make().goal == Board.solved(3)
        with pytest.raises(taquin.InvalidBoardError, match="use standard, korf or snail"):
            make(size="4x4", goal="snial")


def test_the_snail_goal_is_reached_by_stepping():
    env = SlidingPuzzleEnv(size="4x4", goal="snail")
    obs, info = env.reset(options={"state": "1 2 3 4/12 13 14 5/11 15 0 6/10 9 8 7"})
    obs, reward, terminated, truncated, info = env.step(taquin.gym.ACTIONS.index("L"))
    assert terminated and (obs == np.array(Board(SNAIL_4).rows)).all()
    env.reset(seed=1, options={"scramble": 5})
    assert taquin.solve(env.board, goal="snail").length <= 5


def test_a_goal_board_sets_the_size_and_must_match_a_size_given():
    for make in _makers():
        assert make(goal="0 1 2/3 4 5").goal == Board("0 1 2/3 4 5")
        assert make(size="3x2", goal="0 1 2/3 4 5").goal == Board("0 1 2/3 4 5")
        with pytest.raises(ValueError, match="4x4 given but the goal is 3x3"):
            make(size="4x4", goal="1 2 3/4 5 6/7 8 0")


def test_gymnasium_make_passes_size_and_goal():
    env = gymnasium.make("taquin/SlidingPuzzle-v0", size=4, goal="snail")
    assert env.unwrapped.goal == Board(SNAIL_4)
    assert env.observation_space.shape == (4, 4)


#: The ways to copy an environment.
COPIES = [copy.deepcopy, lambda env: pickle.loads(pickle.dumps(env))]


def test_the_single_environment_deep_copies_and_pickles():
    env = SlidingPuzzleEnv(size="4x4", scramble=12, max_steps=40, render_mode="ansi")
    env.reset(seed=5)
    env.step(0)
    for twin_of in COPIES:
        twin = twin_of(env)
        assert twin.board == env.board and twin.render() == env.render()
        # The copy goes on as the original does, step for step and reset for reset (its own
        # random generator copied), and neither moves the other.
        for action in (1, 2, 3, 0, 2):
            a, b = env.step(action), twin.step(action)
            assert (a[0] == b[0]).all() and a[1:4] == b[1:4]
        a, _ = env.reset()
        b, _ = twin.reset()
        assert (a == b).all()
    made = gymnasium.make("taquin/SlidingPuzzle-v0", size="3x3")
    made.reset(seed=1)
    assert copy.deepcopy(made).unwrapped.board == made.unwrapped.board


def test_the_vector_environment_deep_copies_and_pickles():
    venv = SlidingPuzzleVectorEnv(8, size="3x3", scramble=3, max_steps=6)
    venv.reset(seed=3)
    venv.set_state(2, "1 2 3/4 5 6/7 0 8")
    rng = np.random.default_rng(1)
    for twin_of in COPIES:
        twin = twin_of(venv)
        # Enough steps for boards to finish and be drawn anew: the copy draws the same ones.
        for _ in range(20):
            actions = rng.integers(0, 4, size=8)
            a, b = venv.step(actions), twin.step(actions)
            for x, y in zip(a[:4], b[:4]):
                assert (x == y).all()
        a, _ = venv.reset()
        b, _ = twin.reset()
        assert (a == b).all()


def test_the_vector_environment_refuses_what_it_does_not_take():
    venv = SlidingPuzzleVectorEnv(3, size="3x3")
    venv.reset(seed=0)
    # Options are refused, not ignored: the single environment applies or refuses them too.
    with pytest.raises(ValueError, match=r"takes no options, not \['state'\]: .*set_state"):
        venv.reset(seed=0, options={"state": "1 2 3/4 5 6/7 0 8"})
    for bad in (-1, 0, 2.5, True, "3"):
        with pytest.raises(ValueError, match="num_envs must be a whole number of boards, 1 or more"):
            SlidingPuzzleVectorEnv(bad, size="3x3")
    for index in (-1, 3, 2**70):
        with pytest.raises(ValueError, match=f"index {index} out of range: there are 3 boards: give 0 to 2"):
            venv.set_state(index, "1 2 3/4 5 6/7 0 8")
    # Actions are whole numbers, as the action space defines them: a float is not cut to one.
    for bad in (np.array([0.5, 1, 2]), [1.0, 2.0, 3.0], np.array([[0, 1, 2]]), np.array([True, False, True])):
        with pytest.raises(ValueError, match="give one whole number per board"):
            venv.step(bad)
    venv.step([0, 1, 2])
    venv.step(np.array([3, 2, 1], dtype=">i2"))


def test_the_single_environment_refuses_an_action_that_is_no_whole_number():
    env = SlidingPuzzleEnv(size="3x3")
    env.reset(seed=0)
    for bad in (0.5, 2.0, np.float32(1), "1", None, True):
        with pytest.raises(ValueError, match="an action is a whole number"):
            env.step(bad)
    for good in (np.int64(2), np.array(2), 2):
        env.step(good)


@pytest.mark.parametrize("num_envs", [0, 2**20 + 1, 10**10, 2**62, 2**70])
def test_a_number_of_boards_out_of_range_is_refused_by_name_before_any_memory_is_taken(num_envs):
    # 10**10 boards aborted the interpreter, 2**62 panicked: refused with the limit instead.
    with pytest.raises(ValueError, match=r"num_envs must be a whole number of boards, 1 or more \(at most 1048576"):
        SlidingPuzzleVectorEnv(num_envs, size="4x4")


def test_seeded_resets_draw_the_same_boards_every_time_long_draws_included():
    # Long draws run on a worker thread (so that Ctrl-C stops them), short ones on the
    # caller's: either way a seed gives the same boards every time.
    for scramble in (10, 70_000):
        env = SlidingPuzzleEnv(size="3x3", scramble=scramble)
        obs, _ = env.reset(seed=3)
        again, _ = SlidingPuzzleEnv(size="3x3", scramble=scramble).reset(seed=3)
        assert (obs == again).all()
        venv = SlidingPuzzleVectorEnv(4, size="3x3", scramble=scramble)
        a, _ = venv.reset(seed=5)
        b, _ = SlidingPuzzleVectorEnv(4, size="3x3", scramble=scramble).reset(seed=5)
        assert (a == b).all()


def test_an_action_out_of_range_is_refused_with_its_value_however_large():
    env = SlidingPuzzleEnv(size="3x3")
    env.reset(seed=0)
    # 2**70 raised a bare OverflowError ("Python int too large to convert to C long").
    for bad in (4, -1, 2**70):
        with pytest.raises(ValueError, match=f"invalid action {bad}: use 0 \\(up\\)"):
            env.step(bad)
