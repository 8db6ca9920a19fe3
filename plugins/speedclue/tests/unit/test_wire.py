"""The messages both ways: the exact spelling sent, lenient reading, precise errors."""

from __future__ import annotations

import pytest

from arena_speedclue import wire
from arena_speedclue.wire import WireError


def test_messages_are_written_exactly_as_the_contest_server_did() -> None:
    assert wire.reset(6, 3, ["Gr", "Ca", "Ba"]) == "reset 6 3 Gr Ca Ba"
    assert wire.disprove(4, ("Sc", "Re", "Lo")) == "disprove 4 Sc Re Lo"
    assert wire.suggestion(0, ("Gr", "Ca", "Ba"), 3, None) == "suggestion 0 Gr Ca Ba 3"
    assert wire.suggestion(0, ("Gr", "Ca", "Ba"), 3, "Ca") == "suggestion 0 Gr Ca Ba 3 Ca"
    assert wire.suggestion(2, ("Wh", "Pi", "Bi"), None, None) == "suggestion 2 Wh Pi Bi -"
    assert wire.accusation(3, ("Pe", "Kn", "Ha"), False) == "accusation 3 Pe Kn Ha -"
    assert wire.accusation(1, ("Pe", "Kn", "Ha"), True) == "accusation 1 Pe Kn Ha +"
    assert wire.alive("2-bot") == "2-bot alive"


def test_replies_are_read_in_any_case_with_any_spacing() -> None:
    assert wire.read_triple("SUGGEST pl  kn LI", "suggest") == ("Pl", "Kn", "Li")
    assert wire.read_show("show re") == "Re"
    assert wire.read_accuse("-") is None
    assert wire.read_accuse("accuse Mu Ro St") == ("Mu", "Ro", "St")
    wire.read_ok("OK")
    wire.read_alive("7-x ALIVE", "7-x")
    wire.read_alive("7-X-BOT ALIVE", "7-x-bot")  # as the contest server: the whole line
    wire.read_alive("7-x-bot alive", "7-X-Bot")


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        ("banana", "expected 'suggest', got 'banana'"),
        ("suggest Pl Kn", "takes 3 word(s) after it, got 2"),
        ("suggest Pl Kn Xx", "'Xx' is not a card abbreviation"),
        ("suggest Kn Pl Li", "Kn (Knife) is a weapon, not a suspect"),
        ("", "expected 'suggest', got ''"),
    ],
)
def test_bad_suggestions_say_what_is_wrong(reply: str, words: str) -> None:
    with pytest.raises(WireError, match=None) as error:
        wire.read_triple(reply, "suggest")
    assert words in str(error.value)


def test_other_bad_replies() -> None:
    with pytest.raises(WireError, match="expected 'ok', got 'okay'"):
        wire.read_ok("okay")
    with pytest.raises(WireError, match="wrong identifier '1-y'"):
        wire.read_alive("1-y alive", "1-x")
    with pytest.raises(WireError, match="expected '1-x alive'"):
        wire.read_alive("hello", "1-x")
    with pytest.raises(WireError, match="expected 'show'"):
        wire.read_show("Re")
    with pytest.raises(WireError, match="'Zz' is not a card"):
        wire.read_show("show Zz")
    with pytest.raises(WireError, match="expected 'accuse'"):
        wire.read_accuse("no")


def test_broadcasts_are_read_back_as_written() -> None:
    seen = wire.read_suggestion(wire.suggestion(0, ("Gr", "Ca", "Ba"), 3, "Ca"))
    assert (seen.player, seen.triple, seen.disprover, seen.card) == (0, ("Gr", "Ca", "Ba"), 3, "Ca")
    nobody = wire.read_suggestion("suggestion 2 Wh Pi Bi -")
    assert nobody.disprover is None and nobody.card is None
    assert wire.read_accusation("accusation 3 Pe Kn Ha -") == (3, ("Pe", "Kn", "Ha"), False)
    with pytest.raises(WireError, match="not a suggestion broadcast"):
        wire.read_suggestion("suggestion 2 Wh Pi")
