"""Generators that turn the build pack's data files into tables, diagrams and models.

Run `python -m hardware.tools.generate` to rewrite every generated file, `--check` to verify
that the committed ones are up to date (the tests do this).
"""
