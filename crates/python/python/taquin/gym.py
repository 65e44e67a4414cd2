"""Gymnasium environments of the sliding-tile puzzle (``pip install taquin[gym]``).

Importing this module registers ``taquin/SlidingPuzzle-v0`` (one board) and
``taquin/SlidingPuzzleVector-v0`` (many boards stepped at once in Rust)::

    import gymnasium as gym
    import taquin.gym

    env = gym.make("taquin/SlidingPuzzle-v0", size="3x3", max_steps=200)
    obs, info = env.reset(seed=0, options={"scramble": 10})
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample(mask=info["action_mask"]))

Actions are the blank's moves, whole numbers: 0 = up, 1 = down, 2 = left, 3 = right. A move
that would leave the board leaves it unchanged and still costs a step; ``info["action_mask"]``
(int8, 1 for the legal moves) says which are legal. Each step is rewarded -1; ``terminated`` is true on the goal,
``truncated`` after ``max_steps`` steps. Observations are the tiles as a (height, width) uint8
array, 0 for the blank. Both environments can be deep-copied and pickled.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "taquin.gym needs gymnasium: pip install 'taquin[gym]' (or pip install gymnasium)"
    ) from e

from taquin._taquin import Board, Puzzle, PuzzleBatch, _env_goal

__all__ = ["SlidingPuzzleEnv", "SlidingPuzzleVectorEnv", "ACTIONS", "register_envs"]

#: Action number -> the letter of the blank's move.
ACTIONS = ("U", "D", "L", "R")

#: Pixels per cell of the ``rgb_array`` rendering.
_CELL = 32

# 3x5 bitmaps of the digits, for labelling tiles without a font library.
_DIGITS = [
    "111101101101111", "010110010010111", "111001111100111", "111001111001111",
    "101101111001001", "111100111001111", "111100111101111", "111001001001001",
    "111101111101111", "111101111001111",
]
_GLYPHS = np.array([[c == "1" for c in d] for d in _DIGITS], dtype=bool).reshape(10, 5, 3)


def _scramble(value: Any) -> int | None:
    """A start walk's length as given (None: uniform boards), refused when it is no count."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(
            f"scramble must be a number of moves, 0 or more (or None for uniformly random "
            f"boards), not {value!r}"
        )
    return int(value)


def _num_envs(value: Any) -> int:
    """A number of boards as given, refused when it is no whole number. Its range (1 to 2**20)
    is checked in Rust."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"num_envs must be a whole number of boards, 1 or more, not {value!r}")
    return int(value)


#: What an action is, said when one is not.
_ACTION_RULE = "0 (up), 1 (down), 2 (left) or 3 (right), the direction the blank moves"


def _action(value: Any) -> int:
    """One action as the action space (``Discrete(4)``) defines it: a whole number, never a
    float cut to one (0.5 is no action 0). Its range is checked in Rust."""
    whole = isinstance(value, (int, np.integer)) or (
        isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu"
    )
    if not whole or isinstance(value, (bool, np.bool_)):
        raise ValueError(f"invalid action {value!r}: an action is a whole number, {_ACTION_RULE}")
    return int(value)


def _actions(actions: Any, count: int) -> np.ndarray:
    """One action per board, as the vector action space (``MultiDiscrete``) defines them: whole
    numbers, never floats cut to them. Their number and range are checked in Rust."""
    array = np.asarray(actions)
    if array.dtype.kind not in "iu" or array.ndim != 1:
        raise ValueError(
            f"invalid actions of dtype {array.dtype} and shape {array.shape}: give one whole number "
            f"per board (an integer dtype, shape ({count},)), each {_ACTION_RULE}"
        )
    return np.ascontiguousarray(array, dtype=np.int64)


def _seed_from(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**63 - 1))


def _render_rgb(tiles: np.ndarray) -> np.ndarray:
    """The board as an RGB image: tiles shaded by number, labelled, the blank black."""
    h, w = tiles.shape
    n = h * w
    image = np.zeros((h * _CELL, w * _CELL, 3), dtype=np.uint8)
    for r in range(h):
        for c in range(w):
            t = int(tiles[r, c])
            if t == 0:
                continue
            y, x = r * _CELL, c * _CELL
            shade = 90 + int(120 * (t - 1) / max(1, n - 2))
            image[y + 1 : y + _CELL - 1, x + 1 : x + _CELL - 1] = (shade, 140, 255 - shade)
            digits = str(t)
            scale = 2 if len(digits) <= 3 else 1
            width = len(digits) * 4 * scale - scale
            dx = x + (_CELL - width) // 2
            dy = y + (_CELL - 5 * scale) // 2
            for d in digits:
                glyph = np.kron(_GLYPHS[int(d)], np.ones((scale, scale), dtype=bool))
                image[dy : dy + 5 * scale, dx : dx + 3 * scale][glyph] = 255
                dx += 4 * scale
    return image


class SlidingPuzzleEnv(gymnasium.Env):
    """One sliding-tile board of any size (at most 256 cells) and any goal.

    Args:
        size: "WxH" (columns x rows, e.g. "4x4" or "3x5"), one side (4), or (width, height);
            default: the goal board's size, else 3x3.
        goal: the goal: a board (text, Board, rows or array), whose size must match ``size``
            when both are given, or a name as the CLI's ``--goal`` takes ("standard", "korf",
            "snail"), laid out on ``size``; default tiles in order, blank last.
        max_steps: steps before ``truncated``.
        scramble: start boards are random walks of this many moves from the goal; None (the
            default) draws them uniformly among the solvable boards.
        render_mode: "ansi" (text) or "rgb_array" (an image).

    ``reset(options={"state": board})`` starts on a given board (it must reach the goal, or
    UnsolvableError says why); ``options={"scramble": k}`` on a walk of k moves.

    >>> env = SlidingPuzzleEnv(size="3x3")
    >>> obs, info = env.reset(options={"state": "1 2 3/4 5 6/7 0 8"})
    >>> env.step(3)[1:4]
    (-1.0, True, False)
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        size: Any = None,
        goal: Any = None,
        max_steps: int = 500,
        scramble: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of 'ansi', 'rgb_array'")
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps}")
        self.goal = _env_goal(size, goal)
        self._puzzle = Puzzle(self.goal)
        self.width, self.height = self.goal.width, self.goal.height
        self.max_steps = int(max_steps)
        self.scramble = _scramble(scramble)
        self.render_mode = render_mode
        cells = self.width * self.height
        self.observation_space = spaces.Box(0, cells - 1, shape=(self.height, self.width), dtype=np.uint8)
        self.action_space = spaces.Discrete(4)
        self._steps = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        options = options or {}
        unknown = set(options) - {"state", "scramble"}
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}: use 'state' or 'scramble'")
        if options.get("state") is not None:
            self._puzzle.reset_to(options["state"])
        else:
            scramble = _scramble(options.get("scramble", self.scramble))
            self._puzzle.reset_random(_seed_from(self.np_random), scramble)
        self._steps = 0
        return self._puzzle.observation(), {"action_mask": self._puzzle.action_mask()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, terminated, mask = self._puzzle.step(_action(action))
        self._steps += 1
        truncated = not terminated and self._steps >= self.max_steps
        return obs, -1.0, terminated, truncated, {"action_mask": mask}

    @property
    def board(self) -> Board:
        """The board now."""
        return self._puzzle.board

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            tiles = self._puzzle.observation()
            cell = len(str(self.width * self.height - 1))
            rows = (" ".join(("." if t == 0 else str(t)).rjust(cell) for t in row) for row in tiles)
            return "\n".join(rows) + "\n"
        if self.render_mode == "rgb_array":
            return _render_rgb(self._puzzle.observation())
        return None


class SlidingPuzzleVectorEnv(VectorEnv):
    """``num_envs`` boards (1 to 2**20) stepped together in Rust: one call moves every board.

    Observations are a (num_envs, height, width) uint8 array; ``info["action_mask"]`` is
    (num_envs, 4); actions are one whole number per board. A board that reaches its goal or
    ``max_steps`` is reset on its next step (gymnasium's next-step autoreset): that step ignores
    its action and returns reward 0. ``reset`` takes no options: ``set_state(i, board)`` puts
    board i on a given board. ``size`` and ``goal`` are read as :class:`SlidingPuzzleEnv` reads
    them. It does not render (no render modes): a :class:`SlidingPuzzleEnv` does.
    """

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int,
        size: Any = None,
        goal: Any = None,
        max_steps: int = 500,
        scramble: int | None = None,
    ) -> None:
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps}")
        self.num_envs = _num_envs(num_envs)
        self.goal = _env_goal(size, goal)
        self._batch = PuzzleBatch(self.num_envs, self.goal, int(max_steps), _scramble(scramble))
        h, w = self.goal.height, self.goal.width
        self.single_observation_space = spaces.Box(0, h * w - 1, shape=(h, w), dtype=np.uint8)
        self.single_action_space = spaces.Discrete(4)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._np_random = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if options:
            # Refused rather than ignored: a start board asked for and not given is a silent bug.
            raise ValueError(
                f"SlidingPuzzleVectorEnv.reset takes no options, not {sorted(options)}: after "
                "reset, set_state(i, board) starts board i on a given board; the walk length of "
                "the start boards is the environment's scramble="
            )
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
        obs, mask = self._batch.reset(_seed_from(self.np_random))
        return obs, {"action_mask": mask}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, rewards, terminated, truncated, mask = self._batch.step(_actions(actions, self.num_envs))
        return obs, rewards, terminated, truncated, {"action_mask": mask}

    def set_state(self, index: int, state: Any) -> None:
        """Puts board ``index`` on ``state`` (it must reach the goal)."""
        self._batch.set_state(index, state)


def register_envs() -> None:
    """Registers the environments with gymnasium (done when this module is imported)."""
    if "taquin/SlidingPuzzle-v0" not in gymnasium.registry:
        gymnasium.register(id="taquin/SlidingPuzzle-v0", entry_point=SlidingPuzzleEnv)
    if "taquin/SlidingPuzzleVector-v0" not in gymnasium.registry:
        gymnasium.register(
            id="taquin/SlidingPuzzleVector-v0",
            vector_entry_point=SlidingPuzzleVectorEnv,
        )


register_envs()
