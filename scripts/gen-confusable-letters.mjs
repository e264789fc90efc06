#!/usr/bin/env node
/**
 * Write src/_confusable-letters.ts: every code point Unicode's confusables.txt draws as ASCII
 * name characters (one or more), by those characters.
 *
 * confusables.txt (UTS #39) gives each confusable code point a prototype, the characters it is
 * drawn as. The reader of the prompt's names (`nameCharsOf` in src/_prompt-text.ts) reads a code
 * point as the ASCII name characters it is drawn as; before review rev76c F3 its Cyrillic, Greek,
 * Armenian and Lisu rows were typed by hand and missed `ϲ σ ѵ ү γ г ϳ є`, so `</projeϲt_context>`
 * and `<sүstem-reminder>` were printed raw. Here they come from the file.
 *
 * Which entries: each source's skeleton, as UTS #39 makes it: the source in its canonical
 * decomposition (NFD), each code point replaced by its prototype (type MA), decomposed again, and
 * that repeated to a fixed point (a prototype's own prototype: `ǆ` is `dž`, then `dz̆`). The
 * skeleton is read one code point at a time ({@link readSkeleton}): an ASCII name character (a
 * letter, a digit, `_`, `-`, `.`, `:`: `isNameCode`) as itself, and a prototype that is a Latin
 * letter of no ASCII one (`ᴘ` for `ᴩ`, `ʙ` for `в`, `ꞓ` for `ⲉ`) as src/_latin-letters.ts or
 * {@link PROTOTYPE_LETTERS} reads it, any other by its compatibility form (NFKC: `₁₀` for `⏨`)
 * when that is ASCII name characters. Kept: every source that is not ASCII and whose skeleton
 * reads whole as name characters, one or more (review rev78c F1: only prototypes of one ASCII
 * character were taken, and `</rⲉpository_instructions>` with a Coptic `ⲉ` (prototype `ꞓ`),
 * `<available_skiǁs>` (`ǁ` is `ll`), `<tꝏʪ>` (`ꝏ` `oo`, `ʪ` `ls`), `<ᴩroject_rules>` were
 * printed raw). Each such source is
 *
 * - read already, and left out: its compatibility form (NFKC, as Node's ICU has it) is ASCII name
 *   characters (`ｒ`, `𝐫`, `Ⅰ`; `ſ` is `s` there, `f` here: NFKC's reading is kept, as before);
 * - else in the table, by its skeleton's reading, lower-cased as the names are compared.
 *
 * A precomposed letter decomposes first (`ţ` is `t` and a cedilla, not confusables.txt's `ƫ`),
 * and a mark left in the skeleton is no name character: src/_prompt-text.ts reads such a letter
 * by its base (`baseCharsOf`).
 *
 * The Unicode version is the file's; Node's ICU (process.versions.unicode) should be as new, so
 * that NFKC knows each code point the file has.
 *
 * Source of the data: confusables.txt, Unicode 17.0.0 (its header: "Date: 2025-07-22, 05:49:37
 * GMT", "Version: 17.0.0"; SHA-256 ec88ecebcf89f63f813d460842b0cf8322744b40a0b2c06f88a2cea48c0351ea),
 * as vendored by the public GitHub repository texttics/texttics-site (its top-level confusables.txt,
 * commit 8d7f032dacd21fc8b3fc255c485ab2b4bc1ac105); the same file is
 * https://www.unicode.org/Public/security/17.0.0/confusables.txt. It is not committed (660 KB).
 *
 * `--pairs` writes every entry read (the table's and NFKC's), one a line (code, what it reads
 * as, kind, name of the source), for test/catalogue/hostile-letters-confusables.test.ts, which
 * checks each against the reader itself.
 *
 * Run: node scripts/gen-confusable-letters.mjs confusables.txt > src/_confusable-letters.ts
 *      node scripts/gen-confusable-letters.mjs confusables.txt --pairs > test/catalogue/_confusables-17.tsv
 */

import { readFileSync } from "node:fs";

const [file, mode] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write("usage: gen-confusable-letters.mjs CONFUSABLES.TXT [--pairs]\n");
  process.exit(2);
}
const text = readFileSync(file, "utf8");
const version = /^# Version: (\S+)/m.exec(text)?.[1] ?? "unknown";

/** An ASCII character an XML name of the prompt takes (src/_prompt-text.ts `isNameCode`). */
const NAME_CHAR = /^[A-Za-z0-9_.:-]$/;
const ASCII_NAME = /^[A-Za-z0-9_.:-]+$/;

/**
 * Prototypes read by hand, each a letter of no ASCII one that confusables.txt gives as the
 * prototype of letters drawn as an ASCII one:
 *
 * - `ꞓ` and `Ꞓ` (C WITH BAR) are the prototypes of `ε`, `є`, Coptic `ⲉ`, Cyrillic `ԑ`,
 *   Cherokee `ꮛ`, `⋴` (and `Є`, `Ⲉ`, `€`), each drawn as `e` (a round `e` open at its right):
 *   read in a word as `e` (`<systєm-reminder>`, review rev76c F3; `</rⲉpository_instructions>`,
 *   rev78c F1). `ꞓ` itself is read by its name, as `c` (src/_latin-letters.ts).
 * - `ĸ` (KRA), the prototype of Cyrillic `к` and the small capital `ᴋ`, is drawn as a small `k`
 *   and named after no letter: `k`, itself too (`<sĸills>`, rev78c F1).
 * - `ω` (GREEK SMALL LETTER OMEGA), the prototype of Latin `ꞷ`, Coptic `ⲱ`, Cyrillic `ꙍ`, APL's
 *   `⍵` and the mathematical omegas, is drawn as a round `w`: `w`, itself too (review rev96c F3:
 *   `oωner="user"` forged the owner mark, while `oѡner` with Cyrillic `ѡ`, which the file reads
 *   as `w`, was held).
 */
const PROTOTYPE_LETTERS = new Map([
  [0xa793, "e"],
  [0xa792, "e"],
  [0x138, "k"],
  [0x3c9, "w"],
]);

/** Prototypes read by hand that are also read as sources (`ĸ`, `ω` are in no entry's source), by name. */
const SELF_READ = new Map([
  [0x138, "LATIN SMALL LETTER KRA"],
  [0x3c9, "GREEK SMALL LETTER OMEGA"],
]);

/** src/_latin-letters.ts's table (generated by scripts/gen-latin-letters.py), as it is written. */
const LATIN = new Map();
{
  const latin = readFileSync(new URL("../src/_latin-letters.ts", import.meta.url), "utf8");
  for (const [, from, to] of latin.matchAll(/^ {4}\["([^"]*)", "([^"]*)"\],$/gmu))
    for (const [k, c] of [...from].entries()) LATIN.set(c.codePointAt(0), to[k]);
  if (LATIN.size < 300) throw new Error("src/_latin-letters.ts: table not found");
}

/** Each source's prototype (type MA), by code point. */
const PROTOTYPES = new Map();
/** Each source's name in the file. */
const NAMES = new Map();
for (const line of text.split("\n")) {
  const m = /^([0-9A-F]+) ;\t([0-9A-F ]+?) ;\tMA\t#\*? \( .+ \) (.+?) → /.exec(line);
  if (m === null) continue;
  const code = Number.parseInt(m[1], 16);
  PROTOTYPES.set(code, String.fromCodePoint(...m[2].split(" ").map((h) => Number.parseInt(h, 16))));
  NAMES.set(code, m[3]);
}

/** UTS #39's skeleton of `s`, its prototypes followed to a fixed point. */
function skeleton(s) {
  const step = (t) =>
    [...t.normalize("NFD")]
      .map((c) => PROTOTYPES.get(c.codePointAt(0)) ?? c)
      .join("")
      .normalize("NFD");
  let at = step(s);
  for (let k = 0; k < 16; k++) {
    const next = step(at);
    if (next === at) return at;
    at = next;
  }
  throw new Error(`no fixed point for U+${s.codePointAt(0).toString(16)}`);
}

/** A skeleton as ASCII name characters, lower-cased, or undefined when one of its code points reads as none. */
function readSkeleton(s) {
  let out = "";
  for (const c of s) {
    const code = c.codePointAt(0);
    const compatible = c.normalize("NFKC");
    const read = NAME_CHAR.test(c)
      ? c
      : (PROTOTYPE_LETTERS.get(code) ??
        LATIN.get(code) ??
        (ASCII_NAME.test(compatible) ? compatible : undefined));
    if (read === undefined) return undefined;
    out += read;
  }
  return out.toLowerCase();
}

/** `[source, reading, kind, name]` for each entry read as ASCII name characters. */
const entries = [];
for (const code of [...PROTOTYPES.keys(), ...SELF_READ.keys()]) {
  if (code < 0x80) continue;
  const source = String.fromCodePoint(code);
  const read = SELF_READ.has(code) ? PROTOTYPE_LETTERS.get(code) : readSkeleton(skeleton(source));
  if (read === undefined) continue;
  const kind = ASCII_NAME.test(source.normalize("NFKC")) ? "nfkc" : "table";
  entries.push([code, read, kind, NAMES.get(code) ?? SELF_READ.get(code)]);
}
entries.sort((a, b) => a[0] - b[0]);

const out = process.stdout;
if (mode === "--pairs") {
  out.write(`# scripts/gen-confusable-letters.mjs --pairs, confusables.txt ${version}\n`);
  for (const [code, read, kind, name] of entries)
    out.write(`${code.toString(16).toUpperCase()}\t${read}\t${kind}\t${name}\n`);
} else {
  const found = entries.filter(([, , kind]) => kind === "table");
  const single = found.filter(([, read]) => read.length === 1);
  const multi = found.filter(([, read]) => read.length > 1);
  out.write(
    `// Generated by scripts/gen-confusable-letters.mjs from Unicode ${version} confusables.txt; do not edit.\n\n` +
      "/**\n" +
      " * Every code point Unicode's confusables.txt draws as ASCII name characters (its skeleton:\n" +
      " * Cyrillic `г` is `r`, Greek `σ` is `o`, Cherokee `Ꭺ` is `A`, `∪` is `U`, `٠` is `.`,\n" +
      " * Coptic `ⲉ` is `ꞓ`, read `e`; `ǁ` is `ll`, `ꝏ` `oo`), lower-cased, except those whose\n" +
      " * compatibility form (NFKC) is ASCII already (reviews rev76c F3: the hand-typed Greek and\n" +
      " * Cyrillic rows missed `ϲ σ ѵ ү γ г ϳ є`; rev78c F1: prototypes of two letters or of a\n" +
      " * letter of no ASCII one were left out). src/_prompt-text.ts's LOOK_ALIKE_LETTERS reads it,\n" +
      " * with a few hand-chosen extras.\n" +
      " */\n" +
      "export const CONFUSABLE_LETTERS: ReadonlyMap<number, string> = new Map([\n" +
      "  // Each code point of a row's first string reads as the character of its second at its place.\n" +
      "  ...[\n",
  );
  // Lines of at most 40 code points each and short enough for the formatter's 100 columns (an
  // astral code point counts 2, a `\u{…}` its length), the code points and what each reads as.
  const rows = (list, line, indent) => {
    let row = [];
    for (const entry of list) {
      if (row.length === 40 || (row.length > 0 && line([...row, entry]).length > 100 - indent)) {
        out.write(line(row));
        row = [];
      }
      row.push(entry);
    }
    if (row.length > 0) out.write(line(row));
  };
  rows(
    single,
    (list) =>
      `    ["${list.map(([code]) => escaped(code)).join("")}", "${list.map(([, p]) => p).join("")}"],\n`,
    4,
  );
  out.write(
    '  ].flatMap(([from = "", to = ""]) =>\n' +
      '    [...from].map((c, k) => [c.codePointAt(0) ?? 0, to[k] ?? ""] as const),\n' +
      "  ),\n" +
      "  // Each code point of a row's first string reads as its second string whole (`ǁ` as `ll`).\n" +
      "  ...[\n",
  );
  const byReading = new Map();
  for (const entry of multi) byReading.set(entry[1], [...(byReading.get(entry[1]) ?? []), entry]);
  for (const [read, list] of [...byReading].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    rows(
      list,
      (part) => `    ["${part.map(([code]) => escaped(code)).join("")}", "${read}"],\n`,
      4,
    );
  out.write(
    '  ].flatMap(([from = "", to = ""]) => [...from].map((c) => [c.codePointAt(0) ?? 0, to] as const)),\n' +
      "]);\n",
  );
  process.stderr.write(
    `${found.length} code points, ${multi.length} of several characters (${entries.length - found.length} read by NFKC)\n`,
  );
}

/** A code point as written in the table: itself, or `\u{…}` when it is drawn as nothing or a mark. */
function escaped(code) {
  const c = String.fromCodePoint(code);
  return /[\p{M}\p{Cf}\p{Z}\p{Cc}\p{Co}\p{Cn}]/u.test(c) ? `\\u{${code.toString(16)}}` : c;
}
