"""Schema states: which migrations a database has, said as each app's last ones, and how it compares with this code.

A state is ``{app label: [its last applied migrations]}``: one name per app once its merges are applied (two while
a merge migration is not). It is what a backup's manifest records and what a restore compares with the migrations
this checkout has, before it changes anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.migrations.graph import MigrationGraph
from django.db.migrations.loader import MigrationLoader

from judge.lib.releases import release_with_schema

Key = tuple[str, str]
State = dict[str, list[str]]


def code_graph() -> MigrationGraph:
    """The migrations on disk, without a database."""
    return MigrationLoader(None, ignore_no_migrations=True).graph


def last_applied(applied: set[Key], graph: MigrationGraph | None = None) -> State:
    """Each app's applied migrations that no other applied migration of it follows."""
    graph = graph or code_graph()
    state: State = {}
    for app, name in sorted(applied):
        node = graph.node_map.get((app, name))
        followed = node is not None and any(
            child.key in applied and child.key[0] == app for child in _descendants(node)
        )
        if not followed:
            state.setdefault(app, []).append(name)
    return state


def _descendants(node) -> set:
    seen: set = set()
    todo = list(node.children)
    while todo:
        child = todo.pop()
        if child not in seen:
            seen.add(child)
            todo.extend(child.children)
    return seen


def code_state(graph: MigrationGraph | None = None) -> State:
    """The state a database has once ``migrate`` applied every migration this checkout has."""
    graph = graph or code_graph()
    state: State = {}
    for app, name in sorted(graph.leaf_nodes()):
        state.setdefault(app, []).append(name)
    return state


@dataclass(frozen=True)
class Comparison:
    unknown: list[str]  # "app.migration" in the backup that this code does not have
    missing: list[str]  # this code's migrations the backup's database has not applied

    @property
    def same(self) -> bool:
        return not self.unknown and not self.missing


def compare(backup: State, graph: MigrationGraph | None = None) -> Comparison:
    graph = graph or code_graph()
    keys = [(app, name) for app, names in backup.items() for name in names]
    unknown = [f"{app}.{name}" for app, name in keys if (app, name) not in graph.nodes]
    applied: set[Key] = set()
    for key in keys:
        if key in graph.nodes:
            applied.update(graph.forwards_plan(key))
    missing = [f"{app}.{name}" for app, name in graph.nodes if (app, name) not in applied] if not unknown else []
    return Comparison(unknown=unknown, missing=sorted(missing))


def describe(state: State) -> str:
    """A state in words: the release it is, or its last migrations."""
    release = release_with_schema(state)
    if release is not None:
        return f"the schema of release {release.version}"
    if state == code_state():
        return "this code's schema"
    return "the schema " + ", ".join(f"{app}.{name}" for app, names in sorted(state.items()) for name in names)
