"""The kernel's folder is the name it is imported by, and setuptools finds every package in
it (pyproject.toml lists none by hand). setuptools' finder takes a folder only if it has an
``__init__.py`` and so do the folders above it: a folder of modules without one would be
left out of the wheel, so it fails here."""

from __future__ import annotations

import tomllib

from imports import KERNEL, PACKAGE, REPO


def test_the_kernel_folder_is_its_import_name() -> None:
    assert KERNEL.name == PACKAGE
    assert (KERNEL / "__init__.py").is_file()


def test_setuptools_finds_the_kernel_by_its_folder() -> None:
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "package-dir" not in setuptools
    assert setuptools["packages"] == {
        "find": {"where": ["kernel"], "include": [f"{PACKAGE}*"], "namespaces": False}
    }
    assert KERNEL.parent == REPO / "kernel"


def test_every_folder_of_modules_is_a_package() -> None:
    folders = {path.parent for path in KERNEL.rglob("*.py") if "__pycache__" not in path.parts}
    chains = {folder: [folder, *folder.relative_to(KERNEL).parents] for folder in folders}
    missing = sorted(
        str(KERNEL / part)
        for folder, parents in chains.items()
        for part in parents
        if not (KERNEL / part / "__init__.py").is_file()
    )
    assert not missing, f"folders of the kernel without __init__.py: {missing}"
