"""Render the plugin template into a new project: every name derived from the game's name.

A template file's path is its output path with ``.tmpl`` appended, except that the folder
``__package__`` becomes the import package (``arena_<name>``) and a leading ``dot-`` a dot
(``dot-gitignore.tmpl`` -> ``.gitignore``: packaging tools leave dotfiles out). Its text
is a :class:`string.Template`: ``${package}`` and the other keys of
:meth:`PluginNames.placeholders`, ``$$`` for a dollar sign.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path, PurePosixPath
from string import Template

import arena_kernel
from arena_kernel import __version__
from arena_kernel.errors import ArenaError
from arena_kernel.plugin import API_VERSION

TEMPLATE = "plugin-template"
"""The template's folder: not a Python name, so that packaging tools take it for data."""
NAME = re.compile(r"[a-z]([a-z0-9_]*[a-z0-9])?")
MAX_NAME = 32
"""Longer names would push the rendered code past its line length."""
SUFFIX = ".tmpl"
PACKAGE_FOLDER = "__package__"
DOT = "dot-"


def kernel_requirement(version: str = __version__) -> str:
    """What a plugin made with this kernel depends on: this kernel's minor release and
    anything newer up to the next major one (``0.2.0`` -> ``arena-kernel>=0.2,<1``)."""
    major, minor = (int(part) for part in version.split(".")[:2])
    return f"arena-kernel>={major}.{minor},<{major + 1}"


KERNEL_PACKAGE = arena_kernel.__name__
"""A plugin's package may be any ``arena_<name>`` but this one."""


@dataclass(frozen=True)
class PluginNames:
    """Every name of a plugin project, derived from its game's ``name`` by one scheme:
    distribution ``arena-<name>`` (underscores as hyphens), import package
    ``arena_<name>``, entry point ``<name>`` in the ``arena`` group."""

    name: str

    def __post_init__(self) -> None:
        if not NAME.fullmatch(self.name) or len(self.name) > MAX_NAME:
            raise ArenaError(
                f'cannot use "{self.name}" as a game name: it must be a lower-case Python '
                "identifier (a-z, 0-9 and _, from a letter to a letter or digit) of at most "
                f'{MAX_NAME} characters, e.g. "guess" or "number_duel"'
            )
        if self.package == KERNEL_PACKAGE:
            raise ArenaError(
                f'cannot use "{self.name}" as a game name: its package would be the kernel\'s '
                f"own ({KERNEL_PACKAGE})"
            )

    @property
    def package(self) -> str:
        return f"arena_{self.name}"

    @property
    def distribution(self) -> str:
        return "arena-" + self.name.replace("_", "-")

    @property
    def class_name(self) -> str:
        """``number_duel`` -> ``NumberDuelGame``: the suffix keeps the class clear of the
        names game.py imports or defines (``outcome``, ``hunt``) and of ``None``/``True``."""
        return "".join(word.capitalize() for word in self.name.split("_")) + "Game"

    @property
    def title(self) -> str:
        return " ".join(word.capitalize() for word in self.name.split("_") if word)

    def placeholders(self) -> dict[str, str]:
        return {
            "name": self.name,
            "package": self.package,
            "distribution": self.distribution,
            "class_name": self.class_name,
            "title": self.title,
            "kernel_requirement": kernel_requirement(),
            "kernel_version": __version__,
            "api_major": str(API_VERSION[0]),
        }


def render_plugin(names: PluginNames, parent: Path) -> Path:
    """Write the project into a new folder ``parent/<distribution>`` and return its path.

    Refuses a folder that exists; a failure half-way removes what was written.
    """
    target = parent / names.distribution
    if not template().is_dir():
        raise ArenaError(
            f"the plugin template is missing from this arena-kernel ({template()}): reinstall it"
        )
    if not parent.is_dir():
        raise ArenaError(f"cannot write {target}: there is no folder {parent}")
    try:
        target.mkdir()
    except FileExistsError:
        raise ArenaError(f"{target} already exists; not overwriting it") from None
    except OSError as exc:
        raise ArenaError(f"cannot write {target}: {exc.strerror or exc}") from None
    values = names.placeholders()
    try:
        for source, relative in template_files():
            path = target.joinpath(*output_parts(relative, names))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(Template(source.read_text("utf-8")).substitute(values), "utf-8")
    except OSError as exc:
        shutil.rmtree(target, ignore_errors=True)
        raise ArenaError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target


def template() -> Traversable:
    return files("arena_kernel.scaffold") / TEMPLATE


def template_files() -> Iterator[tuple[Traversable, PurePosixPath]]:
    """``(file, path inside the template)`` of every template file, in a stable order."""

    def walk(folder: Traversable, at: PurePosixPath) -> Iterator[tuple[Traversable, PurePosixPath]]:
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.is_dir():
                yield from walk(entry, at / entry.name)
            elif entry.name.endswith(SUFFIX):
                yield entry, at / entry.name

    return walk(template(), PurePosixPath())


def output_parts(relative: PurePosixPath, names: PluginNames) -> list[str]:
    """The output path of a template file, as path components."""
    *folders, leaf = relative.parts
    leaf = leaf.removesuffix(SUFFIX)
    if leaf.startswith(DOT):
        leaf = "." + leaf.removeprefix(DOT)
    return [names.package if f == PACKAGE_FOLDER else f for f in folders] + [leaf]
