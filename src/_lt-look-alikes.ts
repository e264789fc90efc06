// Written by `python3 scripts/gen-lt-look-alikes.py confusables.txt`: do not edit.
// test/misc/lt-look-alikes.test.ts makes it again from test/misc/_lt-look-alikes.tsv.

/**
 * The characters read as `<` by rule (review rev92c F2): every confusable of `<` in
 * Unicode's confusables.txt, and every opening bracket or quotation mark (Ps, Pi)
 * whose name says ANGLE or LESS-THAN. Code point, name, kind (a confusable of `<`,
 * or a Ps/Pi bracket that prose pairs with its closer), and its closer (the Pe/Pf
 * named as it with RIGHT, GREATER-THAN; 0 when none).
 */
export const LT_LOOK_ALIKES: readonly (readonly [
  number,
  string,
  "confusable" | "Ps" | "Pi",
  number,
])[] = [
  [0xab, "LEFT-POINTING DOUBLE ANGLE QUOTATION MARK", "Pi", 0xbb],
  [0x2c2, "MODIFIER LETTER LEFT ARROWHEAD", "confusable", 0x0],
  [0x1438, "CANADIAN SYLLABICS PA", "confusable", 0x0],
  [0x16b2, "RUNIC LETTER KAUNA", "confusable", 0x0],
  [0x2039, "SINGLE LEFT-POINTING ANGLE QUOTATION MARK", "confusable", 0x203a],
  [0x2329, "LEFT-POINTING ANGLE BRACKET", "Ps", 0x232a],
  [0x276c, "MEDIUM LEFT-POINTING ANGLE BRACKET ORNAMENT", "Ps", 0x276d],
  [0x276e, "HEAVY LEFT-POINTING ANGLE QUOTATION MARK ORNAMENT", "confusable", 0x276f],
  [0x2770, "HEAVY LEFT-POINTING ANGLE BRACKET ORNAMENT", "Ps", 0x2771],
  [0x27e8, "MATHEMATICAL LEFT ANGLE BRACKET", "Ps", 0x27e9],
  [0x27ea, "MATHEMATICAL LEFT DOUBLE ANGLE BRACKET", "Ps", 0x27eb],
  [0x2991, "LEFT ANGLE BRACKET WITH DOT", "Ps", 0x2992],
  [0x2993, "LEFT ARC LESS-THAN BRACKET", "Ps", 0x2994],
  [0x29fc, "LEFT-POINTING CURVED ANGLE BRACKET", "Ps", 0x29fd],
  [0x3008, "LEFT ANGLE BRACKET", "Ps", 0x3009],
  [0x300a, "LEFT DOUBLE ANGLE BRACKET", "Ps", 0x300b],
  [0xfe3d, "PRESENTATION FORM FOR VERTICAL LEFT DOUBLE ANGLE BRACKET", "Ps", 0xfe3e],
  [0xfe3f, "PRESENTATION FORM FOR VERTICAL LEFT ANGLE BRACKET", "Ps", 0xfe40],
  [0x1d236, "GREEK INSTRUMENTAL NOTATION SYMBOL-40", "confusable", 0x0],
];
