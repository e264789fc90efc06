#!/usr/bin/env python3
"""Write src/_latin-letters.ts: the Latin letters a reader takes for an ASCII one by their name.

A letter with a stroke, hook, bar, curl, tail, belt, descender, ... (`ł` `ŧ` `ʈ` `ʉ` `ɏ` `ɲ` `đ`
`ø`) has no canonical decomposition (NFD) and most are not in confusables.txt, so neither the
marks-off reading nor the look-alike list of src/_prompt-text.ts read them: `</rułes>` and
`<sysŧem-reminder>` were printed raw (review rev68f F3). Unicode's names say what each is drawn
as: "LATIN SMALL LETTER L WITH STROKE" is an `l` with a stroke. This script reads the names from
Python's own Unicode data (no network, no file: `unicodedata`).

Which names: every code point whose name is a Latin one (it says LATIN, or MODIFIER LETTER, or
it is a letterlike or mathematical symbol) and names exactly one Latin letter X, a word of one
letter A to Z, in any word order: `LATIN SMALL LETTER L WITH STROKE`, `LATIN SMALL CAPITAL LETTER
I WITH STROKE` (`ᵻ`), `LATIN LETTER SMALL CAPITAL X`, `LATIN EPIGRAPHIC LETTER I LONGA` (`ꟾ`),
`MODIFIER LETTER SMALL CAPITAL I WITH STROKE` (`ᶧ`). Before review rev69a F1 only the first word
orders were matched, and `ᵻ` `ᵾ` `ᶧ` `ꟾ` spelled the prompt's names raw. A name with two such
letters (`ǅ`, "D WITH SMALL LETTER Z WITH CARON") is a digraph, left out. Each such name is

- read already, and left out of the table: it decomposes (NFD: `é` is read as `e`), or its
  compatibility form (NFKC) is ASCII (`ſ`, `ｒ`, `𝐫`), or it is not a letter (a circled or tag
  letter, a regional indicator: src/_prompt-text.ts reads those; a combining letter is a mark);
- a compatibility letter (`ᶧ`, `ᵋ`, NFKC `ᵻ`, `ɛ`) whose form is one other letter: decided as
  that letter is;
- in EXCLUDED below, each with why it does not read as X (a turned `a` reads as no letter);
- else in the table, as X.

`--candidates` writes every such name instead, one a line (code, X, what it is), for
test/catalogue/hostile-letters-named.test.ts, which checks each against the reader.
Run: python3 scripts/gen-latin-letters.py > src/_latin-letters.ts
     python3 scripts/gen-latin-letters.py --candidates > test/catalogue/_latin-named-14.tsv
"""

import re
import sys
import unicodedata


def group(reason, letters):
    return {c: reason for c in letters}


# Named after one letter, not drawn as it. Each is read as a letter of its own (or as the letter
# src/_prompt-text.ts's LOOK_ALIKE_LETTERS gives it).
EXCLUDED = {
    # Drawn as another letter: confusables.txt's prototype for `ʋ` (V WITH HOOK) is `u`, for `ᶌ`
    # (V WITH PALATAL HOOK) `y`, LOOK_ALIKE_LETTERS reads them so; `ɯ` `ɰ` (TURNED M) are `w`.
    **group("drawn as another letter", "ʋᶌɯɰƜᶭ"),
    # A dotless `j` with a stroke (`ɟ`, `ʄ`) is drawn as a turned `f`.
    **group("drawn as a turned f", "ɟʄᶡ\U00010798"),
    # Turned, inverted, reversed, rotated or sideways: drawn as no letter, or another one
    # (turned `a` `ɐ`, `h` `ɥ`, `r` `ɹ`, `v` `ʌ`, `y` `ʎ`, `k` `ʞ`, `w` `ʍ`, `g` `ᵷ`, `l` `ꞁ`,
    # reversed `c` `ↄ`, `n` `ᴎ`, `r` `ᴙ`, `k`, `f` `ꟻ`, `p` `ꟼ`, sideways `u` `ᴝ`, `i` `ꟷ`).
    # Kept (in the table): TURNED I `ᴉ`, TURNED E `ǝ`, REVERSED E `ɘ`, TURNED T `ʇ`, drawn as
    # the letter, and the SIDEWAYS O WITH STROKE `ᴓ` (the sideways `ᴑ` is `o` in the hand list).
    **group(
        "turned, reversed or sideways",
        "ɐᵄⱯɥᶣꞍʮʯⱵⱶꟵꟶɹʴɺɻʵⱹꭨ\U000107a6\U000107a7\U0001df08\U0001df15ɿʁʶᴙᴚꟺ\U0001df02ʌᶺɅ"
        "ʍꭩʎ\U000107a0\U000107a1\U0001df06ʞꞰ\U0001df03\U0001df10ᵷ\U0001df01ꝾꝿꞀꞁ⅂⅃⅁⅄Ⅎⅎ℺"
        "ↄꜾꜿᴎᴻꟻꟼꟽꟷᴝᵙᴞᴟᵚᴈᵌᴒᴖᵔᴗᵕ",
    ),
    # Open O is drawn as a reversed `c`; the reversed and closed open E as `3`, `ɞ`, `ʚ`
    # (an open `ɛ` is drawn as `ε`, which LOOK_ALIKE_LETTERS reads as `e`: kept).
    **group("open o, reversed or closed open e", "ɔƆᴐᵓᶗꬿꭃꭄɜɝɞʚᶔᶟꞫ\U0001078f"),
    # Letters of their own shape: sharp `ß` (read as `ss`), `ꝛ` R ROTUNDA (drawn as `2`), `ꝣ`
    # VISIGOTHIC Z (drawn as `ʒ`), `ỽ` MIDDLE-WELSH V (a loop), `ꭅ` STIRRUP R, `ẜ` a long `s`
    # with a stroke (drawn as `f`, as `ẝ` is in the hand list), `℘` the Weierstrass `p`.
    **group("drawn as a letter of its own", "ßẞꝚꝛꝢꝣỼỽꭅẜẝ℘"),
    # Two letters in one (the names name one of them): `ꬱ` A REVERSED-SCHWA, `ꭡ` IOTIFIED E
    # (`ıe`), `ꭊ` DOUBLE R WITH CROSSED-TAIL.
    **group("two letters in one", "ꬱꭡꭊ"),
}

# The words a Latin letter's name has before its letter or after it; a name that has none of
# them (a mathematical or letterlike symbol) must be in the letterlike blocks.
LATIN_NAME = re.compile(r"\bLATIN\b|^MODIFIER LETTER ")
LETTERLIKE = ((0x2100, 0x214F), (0x1D400, 0x1D7FF), (0x1F1E6, 0x1F1FF))
ONE_LETTER = re.compile(r"(?<![A-Z-])[A-Z](?![A-Z-])")


def named_letter(name):
    """The one letter A to Z the name names, lower case, or None."""
    # `LAZY S` (`ꬷ` L WITH INVERTED LAZY S) is a shape, not a letter.
    found = ONE_LETTER.findall(name.replace("LAZY S", ""))
    return found[0].lower() if len(found) == 1 else None


def candidates():
    """(code point, X, kind) for every Latin name of one letter; kind says how it is read."""
    for code in range(0x80, 0x30000):
        c = chr(code)
        name = unicodedata.name(c, "")
        if not (LATIN_NAME.search(name) or any(a <= code <= b for a, b in LETTERLIKE)):
            continue
        x = named_letter(name)
        if x is not None:
            yield c, x, kind_of(c, x)


def kind_of(c, x):
    """`table`, `read` (read already), or `excluded: why`."""
    if unicodedata.category(c).startswith("M"):
        return "excluded: a combining mark"
    if c in EXCLUDED:
        return f"excluded: {EXCLUDED[c]}"
    if unicodedata.normalize("NFD", c) != c:
        return "read"
    compatible = unicodedata.normalize("NFKC", c)
    if re.fullmatch(r"[A-Za-z]", compatible):
        return "read"
    if not unicodedata.category(c).startswith("L"):
        return "read"
    if len(compatible) == 1 and compatible != c:
        # A modifier or small form of another letter: as that letter is.
        other = named_letter(unicodedata.name(compatible, ""))
        if other is None:
            return "excluded: its compatibility form names no one letter"
        return kind_of(compatible, other)
    # Its own, or its compatibility form is two characters (`ŀ` is `l·`): by its name.
    return "table"


def letters():
    named = {c for c, _, _ in candidates()}
    stray = [f"U+{ord(c):04X}" for c in EXCLUDED if c not in named]
    if stray:
        sys.exit(f"EXCLUDED names letters no Latin name of one letter has: {stray}")
    for c, x, kind in candidates():
        if kind == "table":
            yield c, x


def main():
    if sys.argv[1:] == ["--candidates"]:
        out = sys.stdout
        out.write(f"# scripts/gen-latin-letters.py --candidates, Unicode {unicodedata.unidata_version}\n")
        for c, x, kind in candidates():
            out.write(f"{ord(c):X}\t{x}\t{kind}\t{unicodedata.name(c)}\n")
        return
    found = list(letters())
    # Lines of at most 40 letters each, the letters and what each reads as.
    rows = [found[k : k + 40] for k in range(0, len(found), 40)]
    out = sys.stdout
    out.write(
        "// Generated by scripts/gen-latin-letters.py from Unicode "
        f"{unicodedata.unidata_version} names; do not edit.\n\n"
        "/**\n"
        " * The Latin letters whose Unicode name says they are drawn as an ASCII letter with a\n"
        " * stroke, hook, bar, curl, tail, … (`ł` LATIN SMALL LETTER L WITH STROKE, `ʈ`, `ɵ`\n"
        " * LATIN SMALL LETTER BARRED O, the small capitals, `ᴉ` TURNED I, `ꟾ` EPIGRAPHIC\n"
        " * LETTER I LONGA), by that letter, each without a canonical decomposition (reviews\n"
        " * rev68f F3, rev69a F1). See the script for which names are kept.\n"
        " */\n"
        "export const LATIN_LETTERS: ReadonlyMap<number, string> = new Map(\n"
        "  [\n"
    )
    for row in rows:
        src = "".join(c for c, _ in row)
        dst = "".join(x for _, x in row)
        out.write(f'    ["{src}", "{dst}"],\n')
    out.write(
        "  ].flatMap(([from = \"\", to = \"\"]) =>\n"
        "    [...from].map((c, k) => [c.codePointAt(0) ?? 0, to[k] ?? \"\"] as const),\n"
        "  ),\n"
        ");\n"
    )
    print(f"{len(found)} letters", file=sys.stderr)


if __name__ == "__main__":
    main()
