// Written by `python3 scripts/gen-lt-look-alikes.py confusables.txt`: do not edit.
// test/misc/lt-look-alikes.test.ts makes it again from test/misc/_lt-look-alikes.tsv.

/**
 * The characters read as `<` by rule (review rev92c F2): every confusable of `<` in
 * Unicode's confusables.txt, and every opening bracket or quotation mark (Ps, Pi)
 * whose name says ANGLE or LESS-THAN. Code point, name.
 */
export const LT_LOOK_ALIKES: readonly (readonly [number, string])[] = [
  [0xab, "LEFT-POINTING DOUBLE ANGLE QUOTATION MARK"],
  [0x2c2, "MODIFIER LETTER LEFT ARROWHEAD"],
  [0x1438, "CANADIAN SYLLABICS PA"],
  [0x16b2, "RUNIC LETTER KAUNA"],
  [0x2039, "SINGLE LEFT-POINTING ANGLE QUOTATION MARK"],
  [0x2329, "LEFT-POINTING ANGLE BRACKET"],
  [0x276c, "MEDIUM LEFT-POINTING ANGLE BRACKET ORNAMENT"],
  [0x276e, "HEAVY LEFT-POINTING ANGLE QUOTATION MARK ORNAMENT"],
  [0x2770, "HEAVY LEFT-POINTING ANGLE BRACKET ORNAMENT"],
  [0x27e8, "MATHEMATICAL LEFT ANGLE BRACKET"],
  [0x27ea, "MATHEMATICAL LEFT DOUBLE ANGLE BRACKET"],
  [0x2991, "LEFT ANGLE BRACKET WITH DOT"],
  [0x2993, "LEFT ARC LESS-THAN BRACKET"],
  [0x29fc, "LEFT-POINTING CURVED ANGLE BRACKET"],
  [0x3008, "LEFT ANGLE BRACKET"],
  [0x300a, "LEFT DOUBLE ANGLE BRACKET"],
  [0xfe3d, "PRESENTATION FORM FOR VERTICAL LEFT DOUBLE ANGLE BRACKET"],
  [0xfe3f, "PRESENTATION FORM FOR VERTICAL LEFT ANGLE BRACKET"],
  [0x1d236, "GREEK INSTRUMENTAL NOTATION SYMBOL-40"],
];
