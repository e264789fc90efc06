#!/usr/bin/env python3
"""
Write src/_lt-look-alikes.ts and its data, test/misc/_lt-look-alikes.tsv: the characters read as `<`
by rule (review rev92c F2), not by a hand list of them:

- every confusable of `<` in Unicode's confusables.txt (a source whose prototype is U+003C alone:
  `‹` `ᐸ` `ᚲ` `˂` `𝈶` `❮`);
- every code point of category Ps or Pi (an opening bracket or quotation mark) whose name says
  ANGLE or LESS-THAN (`⟪` `《` `⦑` `⦓` `«` …).

Usage: python3 scripts/gen-lt-look-alikes.py path/to/confusables.txt && npx biome check --write src/_lt-look-alikes.ts
(confusables.txt of Unicode 17.0.0: see scripts/gen-confusable-letters.mjs for its source; the names
and categories are Python's unicodedata, and test/misc/lt-look-alikes.test.ts holds its Ps/Pi set to
Node's, so a code point Node has and the names lack fails the test.)
Each row also says its kind (a confusable, Ps or Pi) and its closer: the Pe/Pf code point whose
name is the opener's with LEFT written RIGHT and LESS-THAN written GREATER-THAN (`《》`, `«»`, `‹›`;
0 when none), the end of a tag it opens (review rev93h F4).
The data file holds every Ps/Pi/Pe/Pf code point with its name and the confusables' rows used, so
the test makes the table again from it and compares.
"""
import re
import sys
import unicodedata

confusables = sys.argv[1]
rows = []
for c in range(0x80, 0x110000):
    ch = chr(c)
    cat = unicodedata.category(ch)
    if cat in ("Ps", "Pi", "Pe", "Pf"):
        rows.append((c, cat, unicodedata.name(ch, "")))
conf = []
version = ""
for line in open(confusables, encoding="utf-8-sig"):
    m = re.match(r"# Version: (\S+)", line)
    if m:
        version = m.group(1)
    m = re.match(r"^([0-9A-F]+)\s*;\s*003C\s*;\s*MA", line)
    if m:
        c = int(m.group(1), 16)
        conf.append((c, "confusable", unicodedata.name(chr(c), "")))

with open("test/misc/_lt-look-alikes.tsv", "w", encoding="utf-8") as out:
    out.write(f"# scripts/gen-lt-look-alikes.py: confusables.txt {version}, unicodedata {unicodedata.unidata_version}\n")
    for c, kind, name in sorted(rows + conf):
        out.write(f"{c:X}\t{kind}\t{name}\n")


def opener(kind, name):
    return kind == "confusable" or ("ANGLE" in name or "LESS-THAN" in name)


closers = {name: c for c, kind, name in rows if kind in ("Pe", "Pf")}


def closer(name):
    return closers.get(name.replace("LEFT", "RIGHT").replace("LESS-THAN", "GREATER-THAN"), 0)


# A confusable of `<` that is a bracket too (`‹`, `❮`) is listed once, as a confusable.
kinds = {}
for c, kind, name in rows + conf:
    if kind not in ("Pe", "Pf") and opener(kind, name) and kinds.get(c, ("", ""))[1] != "confusable":
        kinds[c] = (name, kind)
chosen = sorted((c, name, kind) for c, (name, kind) in kinds.items())
with open("src/_lt-look-alikes.ts", "w", encoding="utf-8") as out:
    out.write("// Written by `python3 scripts/gen-lt-look-alikes.py confusables.txt`: do not edit.\n")
    out.write("// test/misc/lt-look-alikes.test.ts makes it again from test/misc/_lt-look-alikes.tsv.\n\n")
    out.write("/**\n * The characters read as `<` by rule (review rev92c F2): every confusable of `<` in\n")
    out.write(" * Unicode's confusables.txt, and every opening bracket or quotation mark (Ps, Pi)\n")
    out.write(" * whose name says ANGLE or LESS-THAN. Code point, name, kind (a confusable of `<`,\n")
    out.write(" * or a Ps/Pi bracket that prose pairs with its closer), and its closer (the Pe/Pf\n")
    out.write(" * named as it with RIGHT, GREATER-THAN; 0 when none).\n */\n")
    out.write(
        "export const LT_LOOK_ALIKES: readonly (readonly [number, string, \"confusable\" | \"Ps\" | \"Pi\", number])[] = [\n"
    )
    for c, name, kind in chosen:
        out.write(f'  [0x{c:x}, "{name}", "{kind}", 0x{closer(name):x}],\n')
    out.write("];\n")
