"""Finding writes of a state field in source code: the scanner behind tests/test_state_owners.py.

A state field (a submission's status, a problem's ``published``, a gate run's status, a course role) has one
owning module; a write anywhere else is a rule someone can skip. The scanner reads each module's syntax tree
and reports every place that writes a guarded field of a guarded model:

- ``update``, ``create``, ``get_or_create``, ``update_or_create``, ``bulk_create`` and ``bulk_update`` on a
  query rooted at the model: its class (``GateRun.objects.filter(...)``), a related manager
  (``problem.gate_runs``), or a name bound to one of those (``runs = GateRun.objects...; runs.update(...)``,
  ``for run in runs``, ``member, _ = Membership.objects.get_or_create(...)``, a parameter annotated with the
  model); the field as a keyword, in ``defaults``, or in a ``**{...}`` dict written out;
- the model's constructor with the field; for a model whose rows are born in a state (a submission, a gate
  run, a membership), any creation at all;
- an attribute assignment (``run.status = ...``, tuple targets and ``+=`` too) and ``setattr(x, "status", ...)``
  on a name known to hold the model, or on any name when only guarded models have a field of that name;
- ``save(update_fields=[... the field ...])`` on such a name;
- SQL written out in a string: ``UPDATE <the model's table> SET ... <the field> =`` or ``INSERT INTO <table>``.

What it cannot see, it does not guess: a ``**kwargs`` built elsewhere, ``getattr`` chains, code that is not
Python. Those stay for review; the common ways to write a field are covered, and test_state_owners.py proves
each of them is caught on a small bad example.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

WRITING_METHODS = {"update", "create", "get_or_create", "update_or_create", "bulk_create", "bulk_update"}
CREATING_METHODS = {"create", "get_or_create", "update_or_create", "bulk_create"}


@dataclass(frozen=True)
class Guarded:
    """One state field and the modules that own it."""

    model: str  # the class name, as code imports it
    field: str
    table: str
    owners: frozenset[str]  # paths relative to the repository root
    born_in_state: bool = False  # creating a row sets the state (a default is a state too)
    accessors: frozenset[str] = frozenset()  # related managers that yield the model (``problem.gate_runs``)


@dataclass(frozen=True)
class Write:
    path: str
    line: int
    model: str
    field: str
    how: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: writes {self.model}.{self.field} ({self.how})"


@dataclass
class _Scope:
    typed: dict[str, str] = field(default_factory=dict)  # name -> model it holds (a row or a query of rows)
    dicts: dict[str, set[str]] = field(default_factory=dict)  # name -> keys of the dict literal bound to it


class Scanner:
    def __init__(self, guarded: list[Guarded], unique_fields: set[str]) -> None:
        """``unique_fields``: guarded field names no unguarded model has (``role``), so any ``x.role = ...``
        counts, whatever ``x`` is."""
        self.guarded = guarded
        self.models = {g.model for g in guarded}
        self.accessors = {a: g.model for g in guarded for a in g.accessors}
        self.unique_fields = unique_fields

    # -- the public side ------------------------------------------------------------------------------------

    def writes(self, source: str, path: str) -> list[Write]:
        """Every write of a guarded field in ``source`` (one module), owners' included."""
        tree = ast.parse(source)
        aliases = self._aliases(tree)
        found = self._scope_writes(tree, _Scope(), aliases, path) + self._sql_writes(tree, path)
        return sorted(set(found), key=lambda w: (w.line, w.model, w.field, w.how))

    def _scope_writes(self, scope_node: ast.AST, outer: _Scope, aliases: dict[str, str], path: str) -> list[Write]:
        """A module's or function's writes, then those of the functions inside it, which see its names."""
        scope = self._typed_names(scope_node, aliases, outer)
        found = []
        for node in self._own_nodes(scope_node):
            found += self._writes_at(node, scope, aliases, path)
        for node in self._inner_functions(scope_node):
            found += self._scope_writes(node, scope, aliases, path)
        return found

    @staticmethod
    def _inner_functions(scope_node: ast.AST) -> list[ast.AST]:
        todo, inner = list(ast.iter_child_nodes(scope_node)), []
        while todo:
            node = todo.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner.append(node)
            else:
                todo += ast.iter_child_nodes(node)
        return inner

    def trespasses(self, source: str, path: str) -> list[Write]:
        """The writes in ``source`` that its path does not own."""
        owners = {(g.model, g.field): g.owners for g in self.guarded}
        return [w for w in self.writes(source, path) if path not in owners[w.model, w.field]]

    # -- names --------------------------------------------------------------------------------------------

    def _aliases(self, tree: ast.Module) -> dict[str, str]:
        """Local name -> guarded model, from the module's imports (``import ... as`` included)."""
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for name in node.names:
                    if name.name in self.models:
                        aliases[name.asname or name.name] = name.name
        return aliases

    @staticmethod
    def _own_nodes(scope_node: ast.AST):
        """The nodes of a module or function, not those of the functions (or classes' methods) inside it."""
        todo = list(ast.iter_child_nodes(scope_node))
        while todo:
            node = todo.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            yield node
            todo += ast.iter_child_nodes(node)

    def _root(self, expr: ast.AST, scope: _Scope, aliases: dict[str, str]) -> str | None:
        """The guarded model an expression's chain of calls, attributes and subscripts starts from."""
        while True:
            if isinstance(expr, (ast.Call,)):
                expr = expr.func
            elif isinstance(expr, ast.Attribute):
                if expr.attr in self.accessors:
                    return self.accessors[expr.attr]
                if expr.attr in self.models:  # ``models.GateRun``
                    return expr.attr
                expr = expr.value
            elif isinstance(expr, (ast.Subscript, ast.Await, ast.Starred)):
                expr = expr.value
            elif isinstance(expr, ast.Name):
                return aliases.get(expr.id) or scope.typed.get(expr.id)
            else:
                return None

    def _typed_names(self, scope_node: ast.AST, aliases: dict[str, str], outer: _Scope) -> _Scope:
        scope = _Scope(dict(outer.typed), dict(outer.dicts))
        if isinstance(scope_node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for arg in [*scope_node.args.args, *scope_node.args.kwonlyargs, *scope_node.args.posonlyargs]:
                if arg.annotation is not None:
                    model = self._annotated(arg.annotation, aliases)
                    if model:
                        scope.typed[arg.arg] = model
        nodes = list(self._own_nodes(scope_node))
        for _ in range(4):  # a name typed from a name typed from a model: a few rounds reach a fixed point
            for node in nodes:
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    model = self._root(node.value, scope, aliases)
                    if isinstance(node.value, ast.Dict):
                        keys = {k.value for k in node.value.keys if isinstance(k, ast.Constant)}
                        for target in targets:
                            if isinstance(target, ast.Name):
                                scope.dicts[target.id] = keys
                    for target in targets:
                        self._bind(target, model, scope)
                elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                    self._bind(node.target, self._root(node.iter, scope, aliases), scope)
                elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                    self._bind(node.optional_vars, self._root(node.context_expr, scope, aliases), scope)
                elif isinstance(node, ast.NamedExpr):
                    self._bind(node.target, self._root(node.value, scope, aliases), scope)
        return scope

    def _annotated(self, annotation: ast.AST, aliases: dict[str, str]) -> str | None:
        for node in ast.walk(annotation):
            if isinstance(node, ast.Name) and node.id in aliases:
                return aliases[node.id]
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in self.models:
                return node.value
        return None

    @staticmethod
    def _bind(target: ast.AST, model: str | None, scope: _Scope) -> None:
        if model is None:
            return
        if isinstance(target, ast.Name):
            scope.typed[target.id] = model
        elif isinstance(target, (ast.Tuple, ast.List)) and target.elts:
            Scanner._bind(target.elts[0], model, scope)  # ``row, created = ...get_or_create(...)``

    # -- writes ---------------------------------------------------------------------------------------------

    def _fields_of(self, model: str) -> list[Guarded]:
        return [g for g in self.guarded if g.model == model]

    def _writes_at(self, node: ast.AST, scope: _Scope, aliases: dict[str, str], path: str) -> list[Write]:
        if isinstance(node, ast.Call):
            return self._call_writes(node, scope, aliases, path)
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found = []
            for target in targets:
                for element in ast.walk(target):
                    if isinstance(element, ast.Attribute) and isinstance(element.ctx, ast.Store):
                        found += self._attribute_write(
                            element.value, element.attr, node, scope, aliases, path, "assignment"
                        )
            return found
        return []

    def _attribute_write(
        self, obj: ast.AST, name: str, node: ast.AST, scope: _Scope, aliases: dict[str, str], path: str, how: str
    ) -> list[Write]:
        model = self._root(obj, scope, aliases)
        guarded = [
            g
            for g in self.guarded
            if g.field == name and (g.model == model or (model is None and name in self.unique_fields))
        ]
        return [Write(path, node.lineno, g.model, g.field, how) for g in guarded]

    def _call_writes(self, call: ast.Call, scope: _Scope, aliases: dict[str, str], path: str) -> list[Write]:
        func = call.func
        if isinstance(func, ast.Name) and func.id == "setattr" and len(call.args) >= 2:
            name = call.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                return self._attribute_write(call.args[0], name.value, call, scope, aliases, path, "setattr")
            return []
        model = self._root(func, scope, aliases)
        if model is None:
            return []
        if (isinstance(func, ast.Name) and func.id in aliases) or (
            isinstance(func, ast.Attribute) and func.attr == model
        ):
            return self._fields_written(call, model, path, "constructor", creating=True, scope=scope)
        if not isinstance(func, ast.Attribute):
            return []
        if func.attr == "save":
            return self._saved_fields(call, model, path)
        if func.attr in WRITING_METHODS:
            return self._fields_written(call, model, path, f".{func.attr}()", func.attr in CREATING_METHODS, scope)
        return []

    def _fields_written(
        self, call: ast.Call, model: str, path: str, how: str, creating: bool, scope: _Scope
    ) -> list[Write]:
        named = set()
        for keyword in call.keywords:
            if keyword.arg is not None:
                named.add(keyword.arg)
                if keyword.arg == "defaults" and isinstance(keyword.value, ast.Dict):
                    named |= {k.value for k in keyword.value.keys if isinstance(k, ast.Constant)}
            elif isinstance(keyword.value, ast.Dict):  # ``**{"status": ...}``
                named |= {k.value for k in keyword.value.keys if isinstance(k, ast.Constant)}
            elif isinstance(keyword.value, ast.Name):  # ``**changes`` bound to a dict literal here
                named |= scope.dicts.get(keyword.value.id, set())
        if how == ".bulk_update()":  # bulk_update(rows, ["status", ...])
            for arg in [*call.args[1:], *(k.value for k in call.keywords if k.arg == "fields")]:
                if isinstance(arg, (ast.List, ast.Tuple)):
                    named |= {e.value for e in arg.elts if isinstance(e, ast.Constant)}
        return [
            Write(path, call.lineno, g.model, g.field, how)
            for g in self._fields_of(model)
            if g.field in named or (creating and g.born_in_state)
        ]

    def _saved_fields(self, call: ast.Call, model: str, path: str) -> list[Write]:
        fields = next((k.value for k in call.keywords if k.arg == "update_fields"), None)
        named = set()
        if isinstance(fields, (ast.List, ast.Tuple, ast.Set)):
            named = {e.value for e in fields.elts if isinstance(e, ast.Constant)}
        return [
            Write(path, call.lineno, g.model, g.field, ".save(update_fields)")
            for g in self._fields_of(model)
            if g.field in named
        ]

    def _sql_writes(self, tree: ast.Module, path: str) -> list[Write]:
        found = []
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            for g in self.guarded:
                table = re.escape(g.table)
                update = rf'\bUPDATE\s+"?{table}"?\s+(AS\s+\w+\s+)?SET\b[^;]*?\b{re.escape(g.field)}"?\s*='
                insert = rf'\bINSERT\s+INTO\s+"?{table}"?[\s(]'
                if re.search(update, node.value, re.IGNORECASE | re.DOTALL):
                    found.append(Write(path, node.lineno, g.model, g.field, "SQL UPDATE"))
                elif g.born_in_state and re.search(insert, node.value, re.IGNORECASE):
                    found.append(Write(path, node.lineno, g.model, g.field, "SQL INSERT"))
        return found


def python_files(root: Path, folders: tuple[str, ...]) -> list[Path]:
    """The source files to scan: migrations are history (they ran once, before any owner existed)."""
    return sorted(p for folder in folders for p in (root / folder).rglob("*.py") if "migrations" not in p.parts)
