"""Monte Carlo tree search over the engine's own state (the tree and its budget).

A node is a state where one coach decides; an edge is one engine action. A coach's turn —
two actions, the release tasks, a steal decision — is therefore a path of that coach's
nodes and is searched as such; the opponent's turn follows in the same tree. Values are
S's win probability, read from the deciding coach's side at every node (UCT).

- Lazy expansion: a node is made and evaluated (`evaluation.value_s`) when it is first
  visited; its actions are only ordered, by cheap priors read from the action tuples
  (`priors.ordered_actions`), and none of its children is made yet. A node whose coach
  can score now is a forced win (the priors' one exact look-ahead). Its value is the best,
  for its coach, of its first `Level.lookahead` actions by prior, each made, evaluated and
  taken back (a one-action look-ahead over a few plausible actions, not all of them).
- Progressive widening: a node with N visits admits only its ceil(widening · N^alpha)
  best-ordered actions; a newly admitted child is made, evaluated and visited at once, the
  others are chosen by UCT. Widening thus limits what is evaluated, not only what is
  selected, and the search deepens along the plausible actions first.
- Budget: `Level.iterations` new nodes per decision; `Level.seconds` caps the time of one
  coach's turn. The search is deterministic for a seed while iterations are what stop it.
- Tree reuse: after a decision the chosen child becomes the next root when the coach
  decides again from exactly that state (the rest of the turn), so the iterations already
  spent there count.
"""

from __future__ import annotations

import math
import random
import time

from ball.games.ball.engine.actions import Action
from ball.games.ball.engine.generate import legal
from ball.games.ball.engine.resolve import play
from ball.games.ball.engine.state import OVER, State
from ball.games.ball.engine.undo import make, unmake

from .evaluation import value_s
from .levels import LEVELS, WEIGHTS, Level, Weights
from .priors import actor_of, ordered_actions


class Node:
    """A decision state in the tree. It is made, evaluated and given its ordered actions
    when it is first visited; its children are made only when widening admits them."""

    __slots__ = ("state", "actor", "actions", "kids", "n", "w", "proven")

    def __init__(self, state: State, actor: int, actions: list[Action]) -> None:
        self.state = state
        self.actor = actor
        self.actions = actions  # best prior first
        self.kids: list[Node | None] = [None] * len(actions)
        self.n = 0  # visits
        self.w = 0.0  # sum of S's win probability over the visits
        self.proven: float | None = None  # exact value for S once a win is forced from here


def state_key(s: State) -> tuple[object, ...]:
    """Everything the legal actions and their results depend on, for tree reuse."""
    return (
        tuple(s.occ), tuple(s.under), tuple(s.st), tuple(s.was), tuple(s.since), s.carrier,
        s.ball_sq, s.turn, s.to_move, s.attack, s.phase, s.pa, tuple(s.pe), tuple(s.pb),
        tuple(s.score), s.restricted, s.steal_by, s.half, s.short_range, s.screen, s.audible,
        tuple(s.hands), tuple(s.discards), s.recovery_owed,
    )  # fmt: skip


class Search:
    """One search tree with its budget; `choose(state)` returns the action to play."""

    def __init__(self, level: Level, seed: int | None, weights: Weights = WEIGHTS) -> None:
        self.level = level
        self.w = weights
        self.rng = random.Random(seed)
        self._reuse: tuple[tuple[object, ...], Node] | None = None
        self._turn: tuple[int, int, int] | None = None
        self._spent = 0.0
        self.last_iterations = 0  # for tests and benchmarks

    def choose(self, s: State) -> Action:
        started = time.perf_counter()
        turn = (s.half, s.turn, actor_of(s))
        if turn != self._turn:
            self._turn, self._spent = turn, 0.0
        root = self._root(s)
        deadline = None
        if self.level.seconds is not None:
            deadline = started + max(0.0, self.level.seconds - self._spent)
        done = 0
        while root.n <= self.level.iterations:
            self._iterate(root)
            done += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.last_iterations = done
        index = self._best(root)
        child = root.kids[index]
        if child is not None:
            self._reuse = (state_key(child.state), child)
        else:
            self._reuse = None
        self._spent += time.perf_counter() - started
        return root.actions[index]

    # ------------------------------------------------------------------ tree

    def _root(self, s: State) -> Node:
        if self._reuse is not None and self._reuse[0] == state_key(s):
            return self._reuse[1]
        root, value = self._node(s.copy())
        root.n, root.w = 1, value
        return root

    def _node(self, s: State) -> tuple[Node, float]:
        """The node of state `s` (which it keeps) and its value for S: exact once the half
        is over or the actor can score now, else the static evaluation."""
        if s.phase == OVER:
            node = Node(s, -1, [])
            value = value_s(s, self.w)
            if value in (0.0, 1.0):
                node.proven = value
            return node, value
        actor = actor_of(s)
        actions, wins = ordered_actions(s, legal(s), self.rng)
        node = Node(s, actor, actions)
        if wins:
            # the first action is a touchdown for this node's coach: a forced win
            node.proven = 1.0 if actor == 0 else 0.0
            return node, node.proven
        return node, self._look_ahead(node)

    def _look_ahead(self, node: Node) -> float:
        """The node's value: the best for its coach of its first `Level.lookahead` actions by
        prior, each made, evaluated and taken back (those few are then ordered by that value);
        the static evaluation when the lookahead is 0."""
        s, k = node.state, self.level.lookahead
        if k == 0:
            return value_s(s, self.w)
        head = node.actions[:k]
        valued = []
        for a in head:
            undo = make(s, a)
            valued.append((value_s(s, self.w), a))
            unmake(s, undo)
        valued.sort(key=lambda item: -item[0] if node.actor == 0 else item[0])  # stable
        node.actions[: len(head)] = [a for _, a in valued]
        return valued[0][0]

    def _iterate(self, root: Node) -> None:
        path = [root]
        node = root
        value: float
        while True:
            if node.proven is not None:
                value = node.proven
                break
            if not node.actions:
                value = node.w / node.n if node.n else value_s(node.state, self.w)
                break
            i = self._select(node)
            child = node.kids[i]
            if child is None:
                # first visit: the child is made and evaluated only now
                s = node.state.copy()
                play(s, node.actions[i], None)
                child, value = self._node(s)
                node.kids[i] = child
                path.append(child)
                break
            path.append(child)
            node = child
        for n in path:
            n.n += 1
            n.w += value
        _prove(path)

    def _select(self, node: Node) -> int:
        """UCT among the children widening admits; a newly admitted child is visited first."""
        lv = self.level
        width = min(len(node.actions), max(1, math.ceil(lv.widening * node.n**lv.alpha)))
        log_n = math.log(node.n)
        best, best_score = 0, -math.inf
        kids = node.kids
        for i in range(width):
            child = kids[i]
            if child is None:
                return i
            q = child.w / child.n
            if node.actor == 1:
                q = 1.0 - q
            score = q + lv.explore * math.sqrt(log_n / child.n)
            if score > best_score:
                best, best_score = i, score
        return best

    def _best(self, root: Node) -> int:
        """A forced win if there is one, else the most visited child; ties go to the better
        mean for the root's coach."""
        if root.proven is not None:
            for i, child in enumerate(root.kids):
                if child is not None and child.proven == root.proven:
                    return i
            return 0  # proven at creation: the first action is the touchdown

        def key(i: int) -> tuple[int, float]:
            child = root.kids[i]
            if child is None:
                return (0, -float(i))  # unvisited: the better prior
            q = child.w / child.n
            return (child.n, q if root.actor == 0 else 1 - q)

        return max(range(len(root.actions)), key=key)


def _wins(actor: int, value: float) -> bool:
    """Whether an exact value (1: S scored, 0: N scored) is a win for `actor`."""
    return value == (1.0 if actor == 0 else 0.0)


def _prove(path: list[Node]) -> None:
    """Carry a forced win up the path while each parent's coach is the one it wins for (a
    coach who can choose a won child has a won node; the opponent's nodes stay unproven
    until every reply loses, which the averages already show)."""
    for parent, child in zip(reversed(path[:-1]), reversed(path[1:]), strict=True):
        if child.proven is None or parent.proven is not None:
            return
        if not _wins(parent.actor, child.proven):
            return
        parent.proven = child.proven


class MctsAgent:
    """A computer player at one level; `agent("mcts-hard", seed)` builds one."""

    def __init__(self, level: str | Level, seed: int | None = None) -> None:
        self.level = level if isinstance(level, Level) else LEVELS[level]
        self.search = Search(self.level, seed)

    def __call__(self, s: State) -> Action:
        return self.search.choose(s)
