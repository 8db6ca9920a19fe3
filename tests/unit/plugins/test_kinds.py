"""Each registration hook takes classes of its own kind only: a class given to the wrong
hook is refused at load time, in one line naming the plugin, the hook and the class."""

from __future__ import annotations

import dataclasses
import inspect
import types

import pytest

from arena_kernel import hookspecs
from arena_kernel.codecs.line import LineCodec
from arena_kernel.errors import PluginError
from arena_kernel.markers import hookimpl
from arena_kernel.registries.kinds import KINDS, Kind
from arena_kernel.registries.manager import get_plugin_manager, load_registries
from arena_kernel.registries.registry import Registries
from arena_kernel.testing.nim import Nim


def plugin_registering(kind: Kind, cls: object) -> types.ModuleType:
    """A plugin module whose ``kind`` hook registers ``cls``."""
    module = types.ModuleType(f"wrong_{kind.name}_plugin")

    def register_it(register: hookspecs.Register) -> None:
        register(cls)  # type: ignore[arg-type]

    setattr(module, kind.hook_name, hookimpl(specname=kind.hook_name)(register_it))
    return module


def refusal(kind: Kind, cls: object) -> str:
    pm = get_plugin_manager(entry_points=False, extra=[plugin_registering(kind, cls)])
    with pytest.raises(PluginError) as refused:
        load_registries(pm)
    return str(refused.value)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_class_of_another_kind_is_refused(kind: Kind) -> None:
    other, other_kind = (LineCodec, "codec") if kind.name == "game" else (Nim, "game")
    message = refusal(kind, other)
    base = kind.base_class().__name__
    assert message == (
        f"{kind.hook_name} of plugin wrong_{kind.name}_plugin registered "
        f"{other.__module__}.{other.__qualname__}, which is a {other_kind}, "
        f"not a {kind.name} (a subclass of {base})"
    )


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_class_of_no_kind_or_no_class_is_refused(kind: Kind) -> None:
    stranger = type("Stranger", (), {"name": "stranger"})
    assert refusal(kind, stranger).endswith(
        f"Stranger, which is not a {kind.name} (a subclass of {kind.base_class().__name__})"
    )
    assert f"registered 'stranger', which is not a {kind.name}" in refusal(kind, "stranger")


def test_the_table_names_every_registration_hook_and_registry() -> None:
    hooks = {
        name
        for name, spec in vars(hookspecs).items()
        if name.startswith("arena_register_") and inspect.isfunction(spec)
    }
    assert {kind.hook_name for kind in KINDS} == hooks
    assert {field.name for field in dataclasses.fields(Registries)} == {k.plural for k in KINDS}
    for kind in KINDS:
        assert inspect.isclass(kind.base_class())
