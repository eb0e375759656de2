"""The compiled part of red7 (red7.native): everything else is in pyproject.toml.

The extension is optional: where it cannot be compiled (no C compiler) the build
warns and goes on, and red7 runs on its pure-Python reference code (red7.native.available()).
The module carries the digest of the C sources it was compiled from (``_core.SOURCES``), which
red7.native compares with the sources beside it on import (src/red7/native/sources.py).
"""

import platform
import runpy

from setuptools import Extension, setup

# Every x86-64 processor since 2008 counts bits in one instruction; without the flag
# GCC calls a slow library routine for __builtin_popcountll, the engine's commonest operation.
POPCNT = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []
# run, not imported: the package is not importable while it is being built
SOURCES = runpy.run_path("src/red7/native/sources.py")["digest"]()

setup(
    ext_modules=[
        Extension(
            "red7.native._core",
            [f"src/red7/native/{name}.c" for name in ("_core", "rules", "exact", "engine", "search", "greedy", "inference", "pimc", "engine_type", "vector")],
            extra_compile_args=["-O3", "-std=c11", *POPCNT],
            define_macros=[("R7_SOURCES", f'"{SOURCES}"')],
            depends=[f"src/red7/native/{name}.h" for name in ("defs", "rules", "mt", "fast", "engine", "search", "greedy", "inference", "pimc", "exact", "args")],
            optional=True,
        )
    ]
)
