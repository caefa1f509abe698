"""Players' names: what a name may hold, and when two names are one name.

A name on a leaderboard must read as what it is. So a name holding anything
invisible or blank-looking is refused, naming the character
(:func:`check_name`); and a name is compared with the others by its
*confusable skeleton* (Unicode Technical Standard #39) after NFKC case
folding (:func:`name_keys`), so "АLICE" with a Cyrillic А, "Ａｌｉｃｅ" or
"Aliсe" with a Cyrillic с is the same name as "Alice".

And a name must be one a person writes, by the identifier rules of UTS #39
(:func:`check_name`): every character's identifier status Allowed (the
letters, digits and marks of the languages in use today, and ``' - . : _
·`` and U+2019), or the plain space; one script, or a mix a language writes
(Latin with Han, Hiragana and Katakana; Han with Bopomofo; Han with Hangul:
ICU's restriction level "highly restrictive"), with digits of one system;
and the nonspacing marks of §5.4: at most four in a row, no mark twice on
one letter, and no mark that leaves its letter looking the same (a dot
above an i or a j).

The character data and the skeleton are ICU's (PyICU, installed from the
``pyicu-wheels`` wheels): ICU's ``SpoofChecker.getSkeleton`` is the reference
implementation of UTS #39, and its Unicode tables (16.0 in ICU 77) are newer
than the ones the Python 3.11 standard library holds (14.0), which lack the
Default_Ignorable_Code_Point property altogether. ICU is loaded on first use:
the guards' worker processes import this module and never call it.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from typing import Any, Final

from minesweep.errors import MinesweepError

__all__ = [
    "BLANK_LOOKING",
    "MAX_MARKS",
    "SEPARATORS",
    "BadNameError",
    "check_name",
    "name_keys",
    "skeleton",
]


class BadNameError(MinesweepError):
    """A player's name that cannot be shown on a leaderboard as it is.

    One of the engine's errors, right under MinesweepError: a name is neither
    a setting of the game (SettingsError: it changes nothing in how the game
    is played) nor text in one of minesweep's formats (ParseError); it is a
    bad value of its own.
    """


#: Characters that draw nothing, or a blank, without being default-ignorable
#: (those are refused by their property): the braille blank and the musical
#: null notehead are ordinary symbols to Unicode. The Hangul fillers (U+115F,
#: U+1160, U+3164, U+FFA0) are default-ignorable, and listed here too so that
#: the message says why.
BLANK_LOOKING: Final = frozenset("\u115f\u1160\u2800\u3164\uffa0\U0001d159")

#: The one character outside Identifier_Status=Allowed that a name may hold.
SEPARATORS: Final = frozenset(" ")

#: Nonspacing marks in a row (UTS #39 §5.4): "more than four" is refused.
MAX_MARKS: Final = 4

#: The combining dot above: on a soft-dotted letter (i, j, Cyrillic і, ј...)
#: it draws nothing new, and on a dotless ı or ȷ it makes an i or a j.
_DOT_ABOVE: Final = "\u0307"
_DOTLESS: Final = frozenset("\u0131\u0237")


@functools.cache
def _icu() -> Any:
    import icu

    return icu


@functools.cache
def _allowed() -> Any:
    """UTS #39's Identifier_Status=Allowed, from ICU's tables (ICU 75 and later)."""
    allowed = _icu().UnicodeSet("[:Identifier_Status=Allowed:]")
    allowed.freeze()
    return allowed


@functools.cache
def _restriction() -> Any:
    """A spoof checker of the restriction level "highly restrictive" and mixed digits."""
    icu = _icu()
    checker = icu.SpoofChecker()
    checks = icu.USpoofChecks
    checker.setChecks(checks.RESTRICTION_LEVEL | checks.MIXED_NUMBERS)
    checker.setRestrictionLevel(icu.URestrictionLevel.HIGHLY_RESTRICTIVE)
    return checker


@functools.cache
def _tools() -> tuple[Any, Any, Any, Any]:
    """ICU's NFC, NFKC, NFKC case folding (NFKC_Casefold), and a spoof checker."""
    icu = _icu()
    return (
        icu.Normalizer2.getNFCInstance(),
        icu.Normalizer2.getNFKCInstance(),
        icu.Normalizer2.getNFKCCasefoldInstance(),
        icu.SpoofChecker(),
    )


def _refusal(char: str) -> str | None:
    """Why ``char`` has no place in a name, or None when it has one (a space aside)."""
    icu = _icu()
    kind = icu.Char.charType(char)
    category = icu.UCharCategory
    if kind == category.CONTROL_CHAR:
        return "a control character"
    # Unassigned in ICU's tables or in Python's (older): the rest of the
    # server, and the tools that read its replays, see Python's.
    if kind == category.UNASSIGNED or unicodedata.category(char) == "Cn":
        return "an unassigned code point"
    if kind == category.PRIVATE_USE_CHAR:
        return "a private-use character"
    if kind in (category.LINE_SEPARATOR, category.PARAGRAPH_SEPARATOR):
        return "a line break"
    if kind == category.SPACE_SEPARATOR and char != " ":
        return "a space other than the plain one (U+0020)"
    if char in BLANK_LOOKING:
        return "blank-looking: it draws nothing, or an empty box"
    if icu.Char.hasBinaryProperty(char, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT):
        return "invisible (default-ignorable): a name holding it passes for another"
    if kind == category.FORMAT_CHAR:
        return "a format character"
    return None


def _describe(char: str) -> str:
    name = _icu().Char.charName(char) or "unnamed"
    return f"U+{ord(char):04X} ({name})"


def check_name(name: str, max_length: int) -> str:
    """``name`` as it is stored and shown: NFC; refused (BadNameError) unless plain text.

    Refused, naming the character and where it is: a lone surrogate; a
    control, unassigned, private-use or format character; a line break; a
    space other than U+0020; a default-ignorable code point (variation
    selectors, the combining grapheme joiner U+034F, zero-width characters,
    bidirectional controls, tags, the Hangul fillers); a blank-looking one
    (U+2800 BRAILLE PATTERN BLANK); a space at either end, or two in a row;
    an empty name; more than ``max_length`` characters after NFC.

    Then UTS #39's identifier rules, in words a player reads: a character
    whose identifier status is not Allowed (symbols, emoji, small capitals,
    fullwidth and styled letters, Cherokee and other scripts not in common
    use) other than the plain space (:data:`SEPARATORS`); more than
    :data:`MAX_MARKS` nonspacing marks in a row, one mark twice on a letter,
    or a dot above an i or a j (§5.4); letters of more than one script
    unless Latin with Han, Hiragana and Katakana, Han with Bopomofo, or Han
    with Hangul (ICU's restriction level "highly restrictive"); digits of two
    systems.
    """
    for index, char in enumerate(name):
        if 0xD800 <= ord(char) <= 0xDFFF:
            raise BadNameError(
                f"name holds a lone surrogate (U+{ord(char):04X}) at character {index}"
            )
    nfc = _tools()[0]
    name = str(nfc.normalize(name))
    if not name:
        raise BadNameError("a name cannot be empty")
    for index, char in enumerate(name):
        why = _refusal(char)
        if why is not None:
            raise BadNameError(f"name holds {_describe(char)} at character {index}: {why}")
    if name[0] == " " or name[-1] == " ":
        where = "starts" if name[0] == " " else "ends"
        raise BadNameError(f"name {where} with a space: names are trimmed text")
    double = name.find("  ")
    if double >= 0:
        raise BadNameError(f"name holds two spaces in a row at character {double}")
    if len(name) > max_length:
        raise BadNameError(f"name must be at most {max_length} characters, got {len(name)}")
    _check_identifier(name)
    return name


def _check_identifier(name: str) -> None:
    """UTS #39's identifier rules for an NFC ``name`` of plain text; BadNameError if broken."""
    _check_marks(name)
    allowed = _allowed()
    nfkc = _tools()[1]
    for index, char in enumerate(name):
        if char in SEPARATORS or allowed.contains(char):
            continue
        plain = str(nfkc.normalize(char))
        instead = (
            f" (write {plain!r} instead)"
            if plain != char and all(c in SEPARATORS or allowed.contains(c) for c in plain)
            else ""
        )
        raise BadNameError(
            f"name holds {_describe(char)} at character {index}: names are written with "
            f"the letters, digits and accents of a language in use today, a space and "
            f"' - . : _ · ’ (symbols, emoji, small capitals, styled letters and historic "
            f"or rare scripts are refused){instead}"
        )
    verdict = int(_restriction().check(name))
    checks = _icu().USpoofChecks
    if verdict & int(checks.RESTRICTION_LEVEL):
        raise BadNameError(
            f"name mixes scripts ({', '.join(_scripts(name))}): a name is written in one "
            "script, or in Latin with Han, Hiragana and Katakana (Japanese), Han with "
            "Bopomofo (Chinese) or Han with Hangul (Korean)"
        )
    if verdict & int(checks.MIXED_NUMBERS):
        raise BadNameError("name mixes digits of different systems (such as 1 and ١)")


def _check_marks(name: str) -> None:
    """The nonspacing marks of UTS #39 §5.4, on the NFD form of ``name``.

    At most :data:`MAX_MARKS` in a row; no mark twice on one letter; no dot
    above a soft-dotted letter (it has one) or a dotless i or j (it makes
    one). A mark's place is told by the letter it sits on, in the name as
    written (NFC).
    """
    icu = _icu()
    decomposed = unicodedata.normalize("NFD", name)
    marks: list[str] = []
    base = ""
    letter = -1  # the index, in ``name``, of the letter the marks sit on
    position = 0  # how far into ``name`` the decomposed text has come
    for char in decomposed:
        nonspacing = icu.Char.charType(char) in (
            icu.UCharCategory.NON_SPACING_MARK,
            icu.UCharCategory.ENCLOSING_MARK,
        )
        if not nonspacing:
            marks, base = [], char
            letter = _letter_index(name, decomposed, position)
            position += 1
            continue
        position += 1
        where = f"on {base!r} at character {letter}" if base else "at the start"
        if char in marks:
            raise BadNameError(
                f"name holds the mark {_describe(char)} twice {where}: it draws nothing new"
            )
        marks.append(char)
        if len(marks) > MAX_MARKS:
            raise BadNameError(
                f"name holds more than {MAX_MARKS} accents or marks in a row {where}: "
                "they pile up over the names beside it"
            )
        if char == _DOT_ABOVE and (
            base in _DOTLESS or icu.Char.hasBinaryProperty(base, icu.UProperty.SOFT_DOTTED)
        ):
            raise BadNameError(
                f"name holds a dot above {where}: the letter looks the same with it "
                "or becomes another letter, so the name would pass for another"
            )


def _letter_index(name: str, decomposed: str, position: int) -> int:
    """The index in ``name`` (NFC) of the character whose NFD holds ``decomposed[position]``."""
    return len(unicodedata.normalize("NFC", decomposed[: position + 1])) - 1


def _scripts(name: str) -> list[str]:
    """The scripts of ``name``'s letters, in order of first use (Common and Inherited aside)."""
    icu = _icu()
    seen: list[str] = []
    for char in name:
        script = icu.Script.getScript(char).getName()
        if script not in ("Common", "Inherited", "Unknown") and script not in seen:
            seen.append(script)
    return seen


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text`` (ICU's), after NFKC case folding.

    Two names with the same skeleton look alike: ``skeleton("ALICE") ==
    skeleton("Аlice")`` with a Cyrillic А, and ``== skeleton("Ａｌｉｃｅ")``.
    """
    _, _, fold, checker = _tools()
    return str(checker.getSkeleton(0, fold.normalize(text)))


def name_keys(name: str) -> tuple[str, str]:
    """The two keys a name is unique by: its folded and its cased skeleton, hashed.

    The folded key, :func:`skeleton` (NFKC case folding, then the skeleton),
    is the one UTS #39 and the issue ask for: "alice", "ALICE" and "Аlice"
    share it. Case folding first loses one confusion of capitals, though: a
    capital I looks like a small l in most sans-serif fonts, and "AIice"
    folds to "aiice", whose skeleton is not "alice"'s. The cased key (the
    skeleton of the name as written, NFKC but not folded) keeps it: UTS #39
    maps "I" to "l", so "AIice" and "Alice" share that one. Two names are the
    same name when either key is equal.

    Hashed (SHA-256, hex): a skeleton may be many times longer than its name
    (NFKC expands U+FDFA to 18 characters), and a fixed-size key indexes alike
    on SQLite and PostgreSQL.
    """
    _, nfkc, _, checker = _tools()
    cased = str(checker.getSkeleton(0, nfkc.normalize(name)))
    return _digest(skeleton(name)), _digest(cased)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
