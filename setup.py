"""The compiled part of red7 (red7.native): everything else is in pyproject.toml.

The extension is optional: where it cannot be compiled (no C compiler) the build
warns and goes on, and red7 runs on its pure-Python reference code (red7.native.available()).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "red7.native._core",
            ["src/red7/native/_core.c"],
            extra_compile_args=["-O3", "-std=c11"],
            optional=True,
        )
    ]
)
