"""Write `src/ball/storage/confusables.txt`: the Unicode confusables mapping (UTS #39,
table MA) as ICU's SpoofChecker applies it, one line per character.

Run once per Unicode update with PyICU installed (not a project dependency: it compiles
against the system ICU):  python tools/confusables_from_icu.py > src/ball/storage/confusables.txt

Each line is `XXXX ; YYYY YYYY ...`: a character (already in NFD) and its prototype, the
skeleton ICU gives for it alone. `ball.storage.confusables.skeleton` reads the file and applies the
UTS #39 skeleton (NFD, map every character, NFD); the check at the end compares it with
ICU's on every character and on random strings.
"""

from __future__ import annotations

import random
import sys
import unicodedata

import icu


def main() -> None:
    checker = icu.SpoofChecker()
    table: dict[str, str] = {}
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        char = chr(cp)
        if unicodedata.normalize("NFD", char) != char:
            continue
        prototype = checker.getSkeleton(0, char)
        if prototype != char:
            table[char] = prototype
    out = sys.stdout
    out.write(f"# UTS #39 confusables (table MA) as applied by ICU {icu.ICU_VERSION}, ")
    out.write(f"Unicode {icu.UNICODE_VERSION}; written by tools/confusables_from_icu.py.\n")
    out.write("# Unicode data: see https://www.unicode.org/license.txt (Unicode License v3).\n")
    for char, prototype in sorted(table.items()):
        out.write(f"{ord(char):04X} ; {' '.join(f'{ord(c):04X}' for c in prototype)}\n")

    def skeleton(text: str) -> str:
        nfd = unicodedata.normalize("NFD", text)
        return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in nfd))

    rng = random.Random(39)
    pool = [chr(cp) for cp in range(0x20, 0x3000) if not 0xD800 <= cp <= 0xDFFF]
    pool += list(table)
    for _ in range(20000):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(1, 8)))
        assert skeleton(text) == checker.getSkeleton(0, text), text
    for cp in range(0x110000):
        if not 0xD800 <= cp <= 0xDFFF:
            assert skeleton(chr(cp)) == checker.getSkeleton(0, chr(cp)), hex(cp)


if __name__ == "__main__":
    main()
