"""Any game of engine.registry as an OpenSpiel game (a pyspiel Python game), so that OpenSpiel's
algorithms run on it; `MCTSPlayer` is OpenSpiel's `MCTSBot` with random rollouts as a
computer player of our protocol (the benches' baseline: it searches the true state).

The OpenSpiel game plays the engine in table mode (`spec.replay_start`): a chance step is a
chance node whose outcomes and probabilities are the engine's `chance_outcomes()`. A step where
several seats choose at once (El Grande's secret discs) is **serialised**: the lowest acting
seat moves first, then the next (OpenSpiel's MCTS needs sequential games; the engine keeps each
choice secret until all are in, but a search of the true state sees them). Actions are numbered
as they are first met, per game object (a pyspiel game needs integers): `action_id` and
`action_of` translate. The returns are the engine's (each seat's score).

    game = EngineGame("elgrande", options)     # or pyspiel.load_game("castillo_elgrande")
    state = game.new_initial_state()
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from engine import registry
from engine.core.actions import Action
from engine.core.protocol import CHANCE, GameState
from engine.core.spec import GameSpec, require_acting

MAX_ACTIONS = 1 << 20  # a bound on the distinct actions a game may name (numbered as met)
MAX_LENGTH = 100_000
MAX_SCORE = 1000.0


def _game_type(spec: GameSpec) -> Any:
    return pyspiel.GameType(
        short_name=f"castillo_{spec.id}",
        long_name=f"Castillo kit: {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(spec.player_counts),
        min_num_players=min(spec.player_counts),
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"players": min(spec.player_counts), "seed": 0},
    )


class EngineGame(pyspiel.Game):  # type: ignore[misc]
    """One registered game with given options (default: the spec's first test options for
    `players`), as a pyspiel game."""

    def __init__(
        self, game_id: str, options: Any = None, players: int | None = None, params: Any = None
    ) -> None:
        spec = registry.get(game_id)
        params = dict(params or {})
        if options is None:
            count = players or int(params.get("players", min(spec.player_counts)))
            options = spec.selfplay_options(count, int(params.get("seed", 0)))
        self.spec = spec
        self.options = options
        probe = spec.replay_start(options)
        seats = len(probe.returns())
        info = pyspiel.GameInfo(
            num_distinct_actions=MAX_ACTIONS,
            max_chance_outcomes=MAX_ACTIONS,
            num_players=seats,
            min_utility=0.0,
            max_utility=MAX_SCORE,
            utility_sum=None,
            max_game_length=MAX_LENGTH,
        )
        super().__init__(_game_type(spec), info, params)
        self._ids: dict[Action, int] = {}
        self._actions: list[Action] = []

    def action_id(self, action: Action) -> int:
        known = self._ids.get(action)
        if known is None:
            known = self._ids[action] = len(self._actions)
            self._actions.append(action)
        return known

    def action_of(self, number: int) -> Action:
        return self._actions[number]

    def new_initial_state(self) -> EngineState:
        return EngineState(self, self.spec.replay_start(self.options))

    def wrap(self, state: GameState) -> EngineState:
        """An OpenSpiel state over a copy of an engine state: a table-mode copy (chance is then
        a chance node), made by replaying its history."""
        copy = self.spec.replay_start(self.options)
        for player, action in state.history:
            copy.apply(action, player)
        return EngineState(self, copy)


class EngineState(pyspiel.State):  # type: ignore[misc]
    """An engine state (table mode) as a pyspiel state."""

    def __init__(self, game: EngineGame, engine: GameState) -> None:
        super().__init__(game)
        self._game_ref = game
        self.engine = engine

    def __deepcopy__(self, memo: dict[int, Any]) -> EngineState:
        return EngineState(self._game_ref, self.engine.clone())

    def clone(self) -> EngineState:
        return EngineState(self._game_ref, self.engine.clone())

    def current_player(self) -> int:
        actors = self.engine.current_players()
        if not actors:
            return int(pyspiel.PlayerId.TERMINAL)
        if actors == (CHANCE,):
            return int(pyspiel.PlayerId.CHANCE)
        return min(actors)  # several at once: serialised, lowest seat first

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        ids = self._game_ref.action_id
        return sorted(ids(a) for a in self.engine.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        ids = self._game_ref.action_id
        return sorted((ids(a), p) for a, p in self.engine.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        player = self.current_player()
        self.engine.apply(self._game_ref.action_of(action), CHANCE if player < 0 else player)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._game_ref.action_of(action))

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def returns(self) -> list[float]:
        return [float(s) for s in self.engine.returns()]

    def rewards(self) -> list[float]:
        return self.returns() if self.engine.is_terminal() else [0.0] * self.num_players()

    def __str__(self) -> str:
        return f"{self._game_ref.spec.title} after {len(self.engine.history)} steps"


class MCTSPlayer:
    """OpenSpiel's MCTSBot (UCT, random rollouts, MCTS-Solver off) as a computer player of our
    protocol, given about `seconds` a move: its simulations a move follow its speed on its
    last move (MCTSBot counts simulations, not time), less the time the copy took. It
    searches the *true* state: the baseline the issue names."""

    def __init__(
        self,
        game_id: str,
        options: Any,
        seconds: float = 1.0,
        seed: int = 0,
        uct_c: float = 2.0,
        simulations: int = 0,
    ) -> None:
        self.game = EngineGame(game_id, options)
        self.seconds = seconds
        self.fixed = simulations
        self.rate = 0.0  # simulations a second, measured
        self.rng = np.random.RandomState(seed)
        self.uct_c = uct_c
        self.last_simulations = 0
        self.last_rollouts_per_second = 0.0

    def choose(self, state: GameState, seat: int) -> Action:
        require_acting(state, seat)
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()
        wrapped = self.game.wrap(state)
        left = self.seconds - (time.perf_counter() - started)  # the replay counts in the budget
        if wrapped.current_player() != seat:
            # a simultaneous step: the wrapper serialises it (lowest seat first); this seat's
            # turn in it comes after the seats before it, which the search cannot skip
            return legal[int(self.rng.randint(len(legal)))]
        if self.fixed:
            sims = self.fixed
        elif self.rate:
            sims = max(8, int(self.rate * left))
        else:
            sims = 16  # the first move measures the speed
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.rng)
        bot = mcts.MCTSBot(
            self.game,
            self.uct_c,
            sims,
            evaluator,
            solve=False,
            random_state=self.rng,
        )
        started = time.perf_counter()
        number = bot.step(wrapped)
        spent = max(time.perf_counter() - started, 1e-6)
        measured = sims / spent
        self.rate = measured  # the last move's speed: rollouts shorten as the game goes on
        self.last_simulations = sims
        self.last_rollouts_per_second = measured
        return self.game.action_of(number)


_REGISTERED: dict[str, type[EngineGame]] = {}


def register_all() -> None:
    """Register every game of engine.registry with pyspiel, once: `castillo_<id>`, with the
    parameters `players` and `seed` (`pyspiel.load_game("castillo_elgrande", {"players": 4})`).
    Each is a class (pyspiel keeps what it registers until the process ends: a class outlives
    the interpreter's shutdown, a closure would not)."""
    for spec in registry.specs():
        name = f"castillo_{spec.id}"
        if name in _REGISTERED or name in pyspiel.registered_names():
            continue

        def init(self: EngineGame, params: Any = None, game_id: str = spec.id) -> None:
            EngineGame.__init__(self, game_id, params=params)

        cls = type(f"Castillo_{spec.id}", (EngineGame,), {"__init__": init})
        _REGISTERED[name] = cls
        pyspiel.register_game(_game_type(spec), cls)
