"""The ``red7`` command line (:func:`main`), and its reports, plots and output files."""

from .commands import main

__all__ = ["main"]
