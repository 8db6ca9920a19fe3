"""Per-bot ``port`` and ``peer``: binding a ``connect = true`` seat over TCP."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from arena_kernel.match.spec import BotSpec, MatchSpec

HEAD = 'game = "stones"\ntransport = "tcp"\n'
TWO_BOTS = """
[[bots]]
name = "a"
builtin = "random"

[[bots]]
name = "b"
builtin = "greedy"
"""


def remote(lines: str, name: str = "remote") -> str:
    return f'\n[[bots]]\nname = "{name}"\nconnect = true\n{lines}\n'


def test_a_connect_seat_is_bound_to_a_port_and_a_peer(load: Callable[[str], MatchSpec]) -> None:
    spec = load(HEAD + TWO_BOTS + remote('port = 6001\npeer = "10.0.0.5"'))
    assert spec.bots[2] == BotSpec("remote", connect=True, port=6001, peer="10.0.0.5")


def test_where_a_remote_bot_connects_from_is_not_part_of_the_runs_identity(
    load: Callable[[str], MatchSpec],
) -> None:
    """Moving a remote bot to another machine or port resumes its run."""
    plain = load(HEAD + TWO_BOTS + remote(""))
    bound = load(HEAD + TWO_BOTS + remote('port = 6001\npeer = "::1"'))
    assert plain.key() == bound.key()
    assert plain.key() != load(HEAD + TWO_BOTS + remote("", name="other")).key()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            HEAD + TWO_BOTS + '[[bots]]\nname = "c"\ncmd = ["x"]\nport = 6001\n',
            "line 14: bots[3].port only applies to a connect = true bot "
            "(a bot the arena starts gets a port of its own)",
        ),
        (
            'game = "stones"\n' + TWO_BOTS + remote('peer = "127.0.0.1"'),
            'line 14: bots[3].peer only applies to the tcp transport, not "stdio"',
        ),
        (
            HEAD + TWO_BOTS + remote("port = 70000"),
            "line 15: bots[3].port must be at most 65535, not 70000",
        ),
        (
            HEAD + TWO_BOTS + remote('port = "6001"'),
            'line 15: bots[3].port must be an integer, not a string ("6001")',
        ),
        (
            HEAD + TWO_BOTS + remote('peer = "localhost"'),
            'line 15: bots[3].peer must be an IP address such as "127.0.0.1", not "localhost"',
        ),
        (
            HEAD + TWO_BOTS + remote("port = 6001") + remote("port = 6001", name="other"),
            'line 20: bots[4].port = 6001 is already the port of bot "remote"',
        ),
        (
            HEAD + "[transport_options.tcp]\nport = 5533\n" + TWO_BOTS + remote("port = 5533"),
            "line 17: bots[3].port = 5533 is the shared port of [transport_options.tcp]; "
            "give the bot a port of its own",
        ),
    ],
)
def test_binding_mistakes_name_the_bot_and_the_key(
    fails: Callable[[str], str], text: str, message: str
) -> None:
    assert fails(text) == f"match.toml, {message}"
