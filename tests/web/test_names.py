"""Players' names alone (minesweep.web.names): what a name may hold, and when two are one."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesweep.web.names import BLANK_LOOKING, BadNameError, check_name, name_keys, skeleton

#: The issue's look-alikes of "Alice", and what becomes of each beside her:
#: the same name (its skeleton is hers), or refused for the character named.
LOOK_ALIKES = [
    ("\u0410lice", "same"),  # Cyrillic capital А
    ("Ali\u0441e", "same"),  # Cyrillic small с
    ("\uff21\uff4c\uff49\uff43\uff45", "same"),  # fullwidth Ａｌｉｃｅ
    ("ALICE", "same"),
    ("alice", "same"),
    ("AIice", "same"),  # a capital I for the l
    ("A1ice", "same"),  # a digit one for the l
    ("\u0391lice", "same"),  # Greek capital alpha
    ("Alice\ufe0f", "U+FE0F"),  # a variation selector
    ("Al\u034fice", "U+034F"),  # the combining grapheme joiner
    ("\u3164Alice", "U+3164"),  # the Hangul filler
    ("Alice\u2800", "U+2800"),  # the braille blank
    ("\u115fAlice", "U+115F"),
    ("Ali\u1160ce", "U+1160"),
    ("Alice\uffa0", "U+FFA0"),
    ("Al\u200bice", "U+200B"),  # zero-width space
    ("Al\u200dice", "U+200D"),  # a zero-width joiner between letters
    ("Alice\u00ad", "U+00AD"),  # soft hyphen
    ("Alice\U000e0041", "U+E0041"),  # a tag
    ("\u202eecilA", "U+202E"),  # right-to-left override
    ("Ali\u00a0ce", "U+00A0"),  # a space, but not the plain one
    ("Alice\u3000", "U+3000"),
]


@pytest.mark.parametrize(("name", "verdict"), LOOK_ALIKES)
def test_no_look_alike_of_alice_is_another_name(name: str, verdict: str) -> None:
    alice = name_keys("Alice")
    if verdict == "same":
        keys = name_keys(check_name(name, 40))
        assert keys[0] == alice[0] or keys[1] == alice[1], name
    else:
        with pytest.raises(BadNameError, match=verdict.replace("+", r"\+")) as refused:
            check_name(name, 40)
        # The message names the character, by its code point and its name.
        assert unicodedata.name(chr(int(verdict[2:], 16)), "") in str(refused.value)


def test_the_folded_skeleton_is_the_uts39_one_after_nfkc_case_folding() -> None:
    assert skeleton("ALICE") == skeleton("alice") == skeleton("\u0410lice") == "alice"
    assert skeleton("\uff21\uff4c\uff49\uff43\uff45") == "alice"
    # UTS #39's own confusables: m is rn, and the digit 0 a capital O.
    assert skeleton("adam") == skeleton("adarn")
    assert name_keys("B0B")[1] == name_keys("BOB")[1]


def test_different_names_stay_different() -> None:
    alice = name_keys("Alice")
    for other in ["Alicia", "Bob", "Alice B", "ali", "名前", "ada lovelace"]:
        keys = name_keys(other)
        assert keys[0] != alice[0], other
        assert keys[1] != alice[1], other
    # Keys are hashes of a fixed size, whatever the name's length.
    assert {len(key) for key in name_keys("\ufdfa" * 40)} == {64}


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (" Alice", "starts with a space"),
        ("Alice ", "ends with a space"),
        ("Al  ice", "two spaces in a row at character 2"),
        ("", "empty"),
        ("a\x00b", "U+0000"),
        ("a\x1bb", "U+001B"),
        ("a\u2028b", "U+2028"),
        ("a\ue000b", "U+E000"),  # private use
        ("a\u0378b", "U+0378"),  # unassigned
        ("a\u0600b", "U+0600"),  # a format character that is not default-ignorable
        ("a\ud800b", "lone surrogate"),
        ("x" * 41, "at most 40 characters, got 41"),
    ],
)
def test_names_that_are_not_plain_text_are_refused(name: str, message: str) -> None:
    with pytest.raises(BadNameError, match=message.replace("+", r"\+")):
        check_name(name, 40)


def test_the_zero_width_joiner_stays_between_pictographs_only() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert check_name(family, 40) == family
    for joined in ("a\u200db", "\u200d\U0001f468", "\U0001f468\u200d"):
        with pytest.raises(BadNameError, match="U\\+200D"):
            check_name(joined, 40)


def test_every_blank_looking_character_is_refused() -> None:
    for char in BLANK_LOOKING:
        with pytest.raises(BadNameError, match=f"U\\+{ord(char):04X}"):
            check_name(f"a{char}b", 40)


#: Code points the checks must refuse wherever hypothesis puts them.
_INVISIBLE = "\u00ad\u034f\u061c\u115f\u1160\u180e\u200b\u200c\u200e\u2060\u2800\u3164\ufe0f\uffa0"


@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(_INVISIBLE), max_size=50))
def test_a_stored_name_is_plain_nfc_text(name: str) -> None:
    try:
        stored = check_name(name, 40)
    except BadNameError:
        return
    assert stored == unicodedata.normalize("NFC", stored)
    assert stored.strip() == stored != ""
    assert "  " not in stored
    assert not set(stored) & set(_INVISIBLE)
    assert all(unicodedata.category(char)[0] not in "CZ" or char in " \u200d" for char in stored)
    # The keys are a function of the name: the same every time.
    assert name_keys(stored) == name_keys(stored)
