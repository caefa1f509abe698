"""Players' names alone (minesweep.web.names): what a name may hold, and when two are one."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesweep.web.names import BLANK_LOOKING, BadNameError, check_name, name_keys, skeleton

#: The issue's look-alikes of "Alice", and what becomes of each beside her:
#: the same name (its skeleton is hers), refused as a name but with her
#: skeleton all the same ("mixed", "U+FF21": the keys are a second line), or
#: refused for the character named.
LOOK_ALIKES = [
    ("\u0410lice", "mixes scripts"),  # Cyrillic capital А
    ("Ali\u0441e", "mixes scripts"),  # Cyrillic small с
    ("\uff21\uff4c\uff49\uff43\uff45", "U+FF21"),  # fullwidth Ａｌｉｃｅ
    ("ALICE", "same"),
    ("alice", "same"),
    ("AIice", "same"),  # a capital I for the l
    ("A1ice", "same"),  # a digit one for the l
    ("\u0391lice", "mixes scripts"),  # Greek capital alpha
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
    elif verdict == "mixes scripts" or verdict == "U+FF21":
        with pytest.raises(BadNameError, match=verdict.replace("+", r"\+")):
            check_name(name, 40)
        keys = name_keys(name)
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


def test_the_zero_width_joiner_and_emoji_are_refused() -> None:
    # Emoji are not letters of any language (Identifier_Status=Restricted),
    # and the joiner is invisible: a family of emoji is no name either.
    with pytest.raises(BadNameError, match="U\\+1F468"):
        check_name("\U0001f468", 40)
    for joined in ("a\u200db", "\u200d\U0001f468", "\U0001f468\u200d\U0001f469"):
        with pytest.raises(BadNameError, match="U\\+200D"):
            check_name(joined, 40)


#: The issue's six look-alikes that passed before UTS #39's identifier rules,
#: and the words each is refused with. ``MARKS35`` is 35 different nonspacing
#: marks on one letter; the issue's stack (one mark 35 times) is refused too.
MARKS35 = "a" + "".join(chr(code) for code in range(0x0300, 0x0300 + 35) if code != 0x0307)
ATTACKS = [
    ("A\u04cfice", r"mixes scripts \(Latin, Cyrillic\)"),  # Cyrillic palochka for l
    ("\u13aadmin", r"U\+13AA \(CHEROKEE LETTER GO\).*language in use today"),
    ("\u1d00\u029f\u026a\u1d04\u1d07", r"U\+1D00 .*small capitals"),  # ᴀʟɪᴄᴇ
    ("\u1d00\u1d05\u1d0d\u026a\u0274", r"U\+1D00 .*small capitals"),  # ᴀᴅᴍɪɴ
    ("Ali\u0307ce", "a dot above on 'i' at character 2"),
    ("A\u00a1ice", r"U\+00A1 \(INVERTED EXCLAMATION MARK\)"),
    ("a" + "\u0301" * 35, r"U\+0301 \(COMBINING ACUTE ACCENT\) twice"),
    (MARKS35, "more than 4 accents or marks in a row"),
]


@pytest.mark.parametrize(("name", "message"), ATTACKS)
def test_the_issues_look_alikes_are_refused_in_words(name: str, message: str) -> None:
    with pytest.raises(BadNameError, match=message):
        check_name(name, 40)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("e\u0301\u0301", "twice on 'e'"),  # é and one more acute: NFD counts both
        ("\u00e9\u0301", "twice on 'e'"),
        ("x\u0131\u0307", "a dot above on '\u0131' at character 1"),  # a dotless ı made an i
        ("\u0458\u0307", "a dot above"),  # Cyrillic je: soft-dotted
        ("a\u0300\u0301\u0302\u0303\u0304", "more than 4"),
        ("\u0301" * 2 + "a", "U\\+0301 .* twice at the start"),
        ("\u738b\u0410\u043b\u0438\u0441\u0430", r"mixes scripts \(Han, Cyrillic\)"),
        ("\u0391\u03bb\u03af\u03ba\u03b7 Bob", "mixes scripts"),  # Greek and Latin
        ("\uc5f4\u3042", "mixes scripts"),  # Hangul with Hiragana
        ("\uff4cee", r"write 'l' instead"),  # a fullwidth l
        ("Alice!", r"U\+0021"),
        ("\U0001d400lice", r"U\+1D400"),  # mathematical bold A
    ],
)
def test_more_names_uts39_refuses(name: str, message: str) -> None:
    with pytest.raises(BadNameError, match=message):
        check_name(name, 40)


#: Real names, in many scripts and mixes that languages write: all accepted.
REAL_NAMES = [
    "\u738b\u5609\u5b81",  # 王嘉宁, Chinese
    "\u5c71\u7530\u82b1\u5b50",  # 山田花子, Japanese in Han
    "\u3084\u307e\u3060 \u306f\u306a\u3053",  # やまだ はなこ, Hiragana
    "\u30bf\u30ca\u30ab",  # タナカ, Katakana
    "\u7530\u4e2d\u3072\u308d\u3057",  # 田中ひろし, Han with Hiragana
    "\u7530\u4e2dTaro",  # Han with Latin, as Japanese writes
    "\u5f35\u3105\u3106",  # Han with Bopomofo
    "\uae40\ubbfc\uc900",  # 김민준, Korean
    "\u91d1\ubbfc\uc900",  # Han with Hangul
    "\u0410\u043b\u0438\u0441\u0430",  # Алиса, Russian
    "\u0391\u03bb\u03af\u03ba\u03b7",  # Αλίκη, Greek
    "\u0639\u0644\u064a",  # علي, Arabic
    "\u05d3\u05d5\u05d3",  # דוד, Hebrew
    "\u0930\u093e\u092e",  # राम, Devanagari
    "\u1230\u120b\u121d",  # ሰላም, Ethiopic
    "\u0e2a\u0e21\u0e0a\u0e32\u0e22",  # สมชาย, Thai
    "Jos\u00e9",
    "Jose\u0301",  # José decomposed: stored NFC
    "M\u00fcller",
    "Nguy\u1ec5n V\u0103n Anh",  # Vietnamese: two marks on a letter
    "\u0141ukasz",
    "\u00d3lafur \u00de\u00f3r",
    "O'Brien",
    "jean-luc",
    "ada_lovelace",
    "R2-D2",
    "\u0130stanbul",  # a capital I with its dot, precomposed (Turkish)
    "\u0131rmak",  # a dotless ı (Turkish)
]


@pytest.mark.parametrize("name", REAL_NAMES)
def test_real_names_in_many_scripts_are_accepted(name: str) -> None:
    assert check_name(name, 40) == unicodedata.normalize("NFC", name)


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
    assert all(unicodedata.category(char)[0] not in "CZ" or char == " " for char in stored)
    # UTS #39's rules hold of whatever passed: Allowed characters or a space,
    # and at most four nonspacing marks in a row, none twice.
    import icu

    allowed = icu.UnicodeSet("[:Identifier_Status=Allowed:]")
    assert all(char == " " or allowed.contains(char) for char in stored)
    run: list[str] = []
    for char in unicodedata.normalize("NFD", stored):
        run = [*run, char] if unicodedata.category(char) in ("Mn", "Me") else []
        assert len(run) <= 4
        assert len(set(run)) == len(run)
    # The keys are a function of the name: the same every time.
    assert name_keys(stored) == name_keys(stored)
