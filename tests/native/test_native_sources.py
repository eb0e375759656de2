"""The compiled core's sources (src/red7/native): the header generated from the Python
engine's definitions is the committed one, the C files include and call one another
without a circle, and the build compiles every one of them.

These read the sources, not the built module: they hold whether or not a compiler is
present (the module's behaviour is tests/native/test_native*.py's).
"""

from __future__ import annotations

import re
from pathlib import Path

from red7.core import compiled, native_defs
from red7.core.state import State

ROOT = Path(__file__).resolve().parents[2]
NATIVE = ROOT / "src" / "red7" / "native"
REGENERATE = "python -m red7.core.native_defs"


def _sources(suffix: str) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(NATIVE.glob(f"*{suffix}"))}


def _code(text: str) -> str:
    """C text without its comments and string literals (so that a name in a comment or a
    message is not a use)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of ``graph`` (node -> the nodes it depends on), as its nodes in order, or
    None when it has none."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := walk(node)):
            return found
    return None


def test_the_committed_header_is_the_generated_one() -> None:
    """defs.h holds the steps, decision ids, limits, targets and the position's fields as
    red7.core.native_defs writes them from the Python engine: a definition changed on one
    side only fails here."""
    committed = (NATIVE / "defs.h").read_text(encoding="utf-8")
    assert committed == native_defs.header(), f"src/red7/native/defs.h is out of date: run `{REGENERATE}`"


def test_the_header_is_written_from_the_python_definitions() -> None:
    """A few of its lines, read back against the definitions they come from (a header
    generated from the wrong names would otherwise pass the test above)."""
    from red7.core import actions
    from red7.core.model import MAX_ROUNDS, TARGETS, Step

    text = native_defs.header()
    assert f"#define R7_MAX_ROUNDS {MAX_ROUNDS} " in text
    assert f"    R7_DEALING = {Step.DEALING.value},\n" in text
    assert f"    R7_DRAWS = {actions.DRAW},\n" in text and f"    R7_ACTIONS = {actions.NUM_ACTIONS},\n" in text
    assert all(f"players == {p} ? {t}" in text or f": {t}; }}" in text for p, t in TARGETS.items())
    x_macro = re.findall(r'X\((\w+), "(\w+)", (\w+), (\w+)\)', text)
    assert [name for _, name, _, _ in x_macro] == list(compiled.FIELDS) == list(native_defs.FIELDS)


def test_the_position_fields_are_the_states() -> None:
    """Every field that crosses the boundary is an attribute of State, and every member
    it names is a member of r7_game (engine.h), of a kind engine_type.c reads and writes."""
    engine_h = (NATIVE / "engine.h").read_text(encoding="utf-8")
    game = engine_h[engine_h.index("typedef struct {\n    /* the configuration") :]
    game = _code(game[: game.index("} r7_game;")])
    engine_type = (NATIVE / "engine_type.c").read_text(encoding="utf-8")
    for field in native_defs.POSITION:
        assert field.name in State.__dataclass_fields__, field
        assert re.search(rf"\b{field.member}\b", game), f"{field.member} is not a member of r7_game"
    for kind in native_defs.KINDS:
        assert f"#define OUT_{kind}(" in engine_type and f"#define IN_{kind}(" in engine_type, kind
    assert len(set(native_defs.FIELDS)) == len(native_defs.FIELDS)


def test_the_c_files_include_one_another_without_a_circle() -> None:
    """The `#include "..."` graph of src/red7/native has no circle."""
    files = _sources(".c") | _sources(".h")
    graph = {name: set(re.findall(r'^#include "([^"]+)"', text, flags=re.M)) for name, text in files.items()}
    assert all(included <= files.keys() for included in graph.values()), graph
    assert _cycle(graph) is None, f"a circle of includes: {' -> '.join(_cycle(graph) or [])}"


_DEFINITION = re.compile(r"^(?!static\b|typedef\b|extern\b|#)[A-Za-z_][\w \t\*]*?\b(\w+)\s*\(", re.M)
_DATA = re.compile(r"^(?!static\b|typedef\b|extern\b|return\b|#)[A-Za-z_]\w*[ \t\*]+([^();{}=]+);", re.M)


def _defined(code: str) -> set[str]:
    """The names a C file defines for the others: its functions that are not static (a
    definition starts at the line's start and reaches its body's brace before any
    semicolon) and its global data."""
    names = set()
    for match in _DEFINITION.finditer(code):
        rest = code[match.end() :]
        brace, semicolon = rest.find("{"), rest.find(";")
        if brace != -1 and (semicolon == -1 or brace < semicolon):
            names.add(match.group(1))
    for match in _DATA.finditer(code):
        names |= {re.match(r"\s*\**\s*(\w+)", part).group(1) for part in match.group(1).split(",")}  # type: ignore[union-attr]
    return names


def _calls() -> dict[str, set[str]]:
    """C file -> the C files whose functions or data it uses (read from its own text:
    what a header's inline functions use counts for none, as only rules.h has any, over
    rules.c's tables)."""
    codes = {name: _code(text) for name, text in _sources(".c").items()}
    owner = {symbol: name for name, code in codes.items() for symbol in _defined(code)}
    return {
        name: {owner[s] for s in owner if owner[s] != name and re.search(rf"\b{s}\b", code)}
        for name, code in codes.items()
    }


def test_the_c_files_call_one_another_in_layers() -> None:
    """No C file uses a function or datum of a file that uses its own, directly or not:
    the module's initialiser (_core.c) sits on top and nothing calls back into it (the
    exact solver, which pimc.c uses, is exact.c)."""
    calls = _calls()
    assert "_core.c" not in set().union(*calls.values()), {n: c for n, c in calls.items() if "_core.c" in c}
    assert {"exact.c", "engine_type.c"} <= calls["_core.c"] and "exact.c" in calls["pimc.c"]
    assert _cycle(calls) is None, f"a circle of calls between the C files: {' -> '.join(_cycle(calls) or [])}"
    assert _cycle({"a.c": {"b.c"}, "b.c": {"c.c"}, "c.c": {"a.c"}}) == ["a.c", "b.c", "c.c", "a.c"]  # it can fail


def test_the_build_compiles_every_c_file_and_depends_on_every_header() -> None:
    """setup.py's extension lists every .c file of src/red7/native (one left out builds,
    then fails to import, and the package falls back to Python without a word) and every
    header, so that changing one rebuilds the module."""
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    sources, depends = re.findall(r"for name in \(([^)]*)\)", setup)
    assert set(re.findall(r'"(\w+)"', sources)) == {Path(n).stem for n in _sources(".c")}
    assert set(re.findall(r'"(\w+)"', depends)) == {Path(n).stem for n in _sources(".h")}
