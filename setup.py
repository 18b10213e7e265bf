"""Packaging hook for a wheel that carries the compiled engine (`make wheel`, README "Speed").

Everything else about the package is in pyproject.toml. When CASTILLO_WHEEL_ENGINE_BUILD names a
compiled build (the Makefile's build/mypyc: `engine/` with its mypyc extensions, the shared
`*__mypyc` library and SOURCES.sha256), the build is copied into the package as
`host/engine_mypyc/`, where host/engine_build.py finds it once installed, and the wheel is tagged
for this interpreter and platform (it holds C extensions). Without the variable (`make setup`'s
editable install, a plain `pip install .`) nothing changes: a pure wheel with the plain engine.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

BUILD_VARIABLE = "CASTILLO_WHEEL_ENGINE_BUILD"
PACKAGED_BUILD = Path("host") / "engine_mypyc"  # host/engine_build.py PACKAGED_BUILD


def compiled_build() -> Path | None:
    value = os.environ.get(BUILD_VARIABLE, "").strip()
    return Path(value) if value else None


class BuildPyWithCompiledEngine(build_py):
    def run(self) -> None:
        super().run()
        source = compiled_build()
        if source is None or self.editable_mode:
            return
        if not (source / "engine").is_dir() or not (source / "SOURCES.sha256").is_file():
            raise SystemExit(f"{BUILD_VARIABLE}={source}: no compiled build there (make setup)")
        target = Path(self.build_lib) / PACKAGED_BUILD
        shutil.rmtree(target, ignore_errors=True)
        # the C sources, objects and log of the compile (build/, mypyc.log) stay behind
        shutil.copytree(
            source / "engine", target / "engine", ignore=shutil.ignore_patterns("__pycache__")
        )
        for library in source.glob("*__mypyc*"):
            shutil.copy2(library, target / library.name)
        shutil.copy2(source / "SOURCES.sha256", target / "SOURCES.sha256")


class CompiledEngineDistribution(Distribution):
    def has_ext_modules(self) -> bool:  # tags the wheel cpXY-cpXY-<platform>, not py3-none-any
        return compiled_build() is not None or super().has_ext_modules()


setup(cmdclass={"build_py": BuildPyWithCompiledEngine}, distclass=CompiledEngineDistribution)
