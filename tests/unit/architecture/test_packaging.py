"""The wheel holds the whole kernel: pyproject.toml lists the packages of the kernel/
folder by hand (setuptools maps ``arena_kernel`` onto it), so a new folder must be listed."""

from __future__ import annotations

import tomllib

from imports import KERNEL, PACKAGE, REPO, module_name


def test_every_kernel_package_is_in_the_distribution() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == {PACKAGE: KERNEL.name}
    folders = {module_name(init) for init in KERNEL.rglob("__init__.py")}
    assert set(config["packages"]) == folders
