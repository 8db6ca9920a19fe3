"""The kernel's folder is the name it is imported by, and setuptools finds every package in it
(pyproject.toml lists none by hand): a folder of modules without ``__init__.py`` would be left
out of the wheel, so it fails here."""

from __future__ import annotations

import tomllib

from imports import KERNEL, PACKAGE, REPO, module_name
from setuptools import find_packages


def test_the_kernel_folder_is_its_import_name() -> None:
    assert KERNEL.name == PACKAGE
    assert (KERNEL / "__init__.py").is_file()


def test_setuptools_finds_every_folder_of_modules() -> None:
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "package-dir" not in setuptools
    assert list(setuptools["packages"]) == ["find"], "no package is listed by hand"
    find = setuptools["packages"]["find"]
    found = set(find_packages(str(REPO / find["where"][0]), include=find["include"]))
    folders = {
        module_name(path.parent / "__init__.py")
        for path in KERNEL.rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert found == folders
