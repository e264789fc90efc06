/**
 * A linear-time matcher for the common subset of Python's `re` syntax, for
 * regular expressions a repository writes (Mercurial's `.hgignore`). A
 * repository's expression never runs in a backtracking engine (`(a*)*b`
 * against a long name takes exponential time there): it is parsed here into
 * a Thompson NFA and simulated one state set per character (Pike), so a test
 * costs at most the text's length times the program's size.
 *
 * Read: literals and escapes, `.`, classes (`[a-z]`, `[^/]`, `\d \w \s` and
 * their negations), `* + ?` and `{m,n}` (lazy forms alike: they match the
 * same texts), `^ $ \A \Z`, groups (`(…)`, `(?:…)`, `(?P<name>…)`) and `|`.
 * Anything else (back-references, look-arounds, `\b`, inline flags,
 * possessive quantifiers, a program past {@link MAX_PROGRAM}) is
 * {@link Unreadable}: the caller decides what an expression it cannot read means.
 * The simulation is cached as a lazily built DFA (a state per set of NFA
 * states met, at most {@link MAX_DFA_STATES} kept), and a program's whole
 * work is bounded ({@link MAX_WORK}): a test past it throws {@link Unreadable}.
 * Texts are bytes as latin1 strings, as Python matches a bytes pattern.
 */

/** Instructions one program may hold (each character, class or branch is one). */
export const MAX_PROGRAM = 10_000;

/** Groups one expression may nest (each level is a recursion of the parser and the compiler). */
export const MAX_DEPTH = 100;

/** A `{m}`, `{m,}`, `{,n}` or `{m,n}` repeat, at `lastIndex`. */
const BRACES = /\{(\d*)(?:(,)(\d*))?\}/y;

/** Why an expression is not read. */
export class Unreadable extends Error {}

type Set256 = Uint8Array;
type Node =
  | { t: "set"; set: Set256 }
  | { t: "cat"; items: Node[]; wide?: true }
  | { t: "alt"; items: Node[] }
  | { t: "rep"; node: Node; min: number; max: number }
  | { t: "bol" }
  | { t: "eol" };

const EMPTY: Node = { t: "cat", items: [] };

const BYTE_SETS: Set256[] = [];
/** The set of the one byte `code`, shared. */
function byteSet(code: number): Set256 {
  let set = BYTE_SETS[code];
  if (set === undefined) {
    set = new Uint8Array(256);
    set[code] = 1;
    BYTE_SETS[code] = set;
  }
  return set;
}
const ANY_BUT_NEWLINE = setOf((c) => c !== 10);
const PAST_ASCII = setOf((c) => c >= 0x80);

/**
 * A set the regex crate, in its Unicode mode (the newest hg-core), matches as
 * one character, 1 to 4 bytes (`.`, `\w`, a negated class), read as both
 * readings together: a byte of `set` or past ASCII, then any bytes past
 * ASCII. Its ASCII members are Python's.
 */
function wideSet(set: Set256): Node {
  const first = set.slice();
  for (let c = 0x80; c < 0x100; c++) first[c] = 1;
  const rest: Node = {
    t: "rep",
    node: { t: "set", set: PAST_ASCII },
    min: 0,
    max: Number.POSITIVE_INFINITY,
  };
  return { t: "cat", items: [{ t: "set", set: first }, rest], wide: true };
}

function setOf(pred: (c: number) => boolean): Set256 {
  const s = new Uint8Array(256);
  for (let c = 0; c < 256; c++) if (pred(c)) s[c] = 1;
  return s;
}
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isWord = (c: number) =>
  isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);
const CLASS_ESCAPES: Record<string, (c: number) => boolean> = {
  d: isDigit,
  D: (c) => !isDigit(c),
  w: isWord,
  W: (c) => !isWord(c),
  s: isSpace,
  S: (c) => !isSpace(c),
};
const CHAR_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };
const isAlnum = (ch: string) => /^[A-Za-z0-9]$/.test(ch);
/** In a class's source, what the regex crate reads otherwise: its set operations, a byte past ASCII. */
const CRATE_CLASS = /&&|--|~~|[\x80-\xff]/;

/** How {@link parseRegex} reads. */
export interface ParseOptions {
  /**
   * The expression is also compiled by Rust's `regex` crate (hg-core, the
   * Rust status of Mercurial, reads a `.hgignore` regular expression so): what
   * that crate reads otherwise than Python's `re` is {@link Unreadable}, never
   * read one way: a `[` in a class (a nested class there), the set operations
   * `&&`, `--`, `~~` in a class, `\<` and `\>` (word boundaries there), and
   * a byte past ASCII in a class, after `\`, as `\x80` to `\xff`, or before a
   * repeat (hg-core reads a character, Python a byte). And what the crate
   * matches as one character where Python matches one byte (`.`, `\w \s \d`
   * and their negations, a negated class) matches either ({@link wideSet}):
   * the two differ on names past ASCII alone. `"classes"`: a glob's regular
   * expression, where hg-core hands the crate only the classes (a `[` in one
   * is an error to the crate, which sends Mercurial back to Python's reading).
   */
  regexCrate?: boolean | "classes";
}

/** Parses `src` (Python `re` syntax, a bytes pattern as latin1) into a tree; throws {@link Unreadable}. */
export function parseRegex(src: string, options: ParseOptions = {}): Node {
  const crate = options.regexCrate === true;
  const crateClasses = crate || options.regexCrate === "classes";
  let i = 0;
  let size = 0;
  let depth = 0;
  const grow = (n: number) => {
    size += n;
    if (size > MAX_PROGRAM) throw new Unreadable("too large");
  };
  const peek = () => src.charAt(i);

  /** One escaped character after `\` (in or out of a class): a set, or a byte. */
  const escaped = (inClass: boolean): Set256 | number => {
    const ch = src.charAt(i++);
    if (ch === "") throw new Unreadable("a trailing backslash");
    const cls = CLASS_ESCAPES[ch];
    if (cls) return setOf(cls);
    const code = CHAR_ESCAPES[ch];
    if (code !== undefined) return code;
    if (ch === "x") {
      const hex = src.slice(i, i + 2);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new Unreadable("a bad \\x escape");
      i += 2;
      const code = Number.parseInt(hex, 16);
      if (crate && code >= 0x80) throw new Unreadable(`\\x${hex}, a character to the regex crate`);
      return code;
    }
    if (!inClass && (ch === "A" || ch === "Z")) throw new Unreadable("anchor");
    if (crate && (ch === "<" || ch === ">")) {
      throw new Unreadable(`\\${ch}, a word boundary to the regex crate`);
    }
    if (crate && ch.charCodeAt(0) >= 0x80) throw new Unreadable("a byte past ASCII after \\");
    if (isAlnum(ch)) throw new Unreadable(`\\${ch}`);
    return ch.charCodeAt(0) & 0xff;
  };

  /** Whether the class {@link parseClass} read last is one the crate matches by character. */
  let classWide = false;
  const parseClass = (): Set256 => {
    // After `[`.
    const set = new Uint8Array(256);
    const start = i;
    let negate = false;
    if (peek() === "^") {
      negate = true;
      i++;
    }
    let first = true;
    for (;;) {
      const ch = src.charAt(i);
      if (ch === "") throw new Unreadable("an unclosed class");
      if (ch === "]" && !first) {
        i++;
        break;
      }
      first = false;
      i++;
      let lo: Set256 | number;
      if (ch === "\\") lo = escaped(true);
      else if (ch === "[" && (crate || /^[:=.]/.test(peek()))) throw new Unreadable("a nested set");
      else lo = ch.charCodeAt(0) & 0xff;
      if (peek() === "-" && src.charAt(i + 1) !== "]" && src.charAt(i + 1) !== "") {
        i++;
        const hiCh = src.charAt(i++);
        const hi = hiCh === "\\" ? escaped(true) : hiCh.charCodeAt(0) & 0xff;
        if (typeof lo !== "number" || typeof hi !== "number" || hi < lo) {
          throw new Unreadable("a bad range");
        }
        for (let c = lo; c <= hi; c++) set[c] = 1;
      } else if (typeof lo === "number") {
        set[lo] = 1;
      } else {
        for (let c = 0; c < 256; c++) if (lo[c]) set[c] = 1;
      }
    }
    if (crateClasses && CRATE_CLASS.test(src.slice(start, i))) {
      throw new Unreadable("a class the regex crate reads otherwise");
    }
    classWide = negate || /\\[dDwWsS]/.test(src.slice(start, i));
    if (negate) for (let c = 0; c < 256; c++) set[c] = set[c] ? 0 : 1;
    return set;
  };

  /** {@link wideSet}, its size grown past the one instruction counted. */
  const wide = (set: Set256): Node => {
    const node = wideSet(set);
    grow(regexSize(node) - 1);
    return node;
  };

  const parseAtom = (): Node => {
    const ch = src.charAt(i++);
    switch (ch) {
      case "(": {
        if (++depth > MAX_DEPTH) throw new Unreadable("too deeply nested");
        if (peek() === "?") {
          if (src.startsWith("?:", i)) i += 2;
          else if (src.startsWith("?P<", i)) {
            const close = src.indexOf(">", i);
            if (close === -1 || !/^\?P<[A-Za-z_]\w*$/.test(src.slice(i, close))) {
              throw new Unreadable("a bad group name");
            }
            i = close + 1;
          } else throw new Unreadable("a look-around, flag or back-reference group");
        }
        const inner = parseAlt();
        if (src.charAt(i++) !== ")") throw new Unreadable("an unclosed group");
        depth--;
        return inner;
      }
      case "[": {
        grow(1);
        const set = parseClass();
        return crateClasses && classWide ? wide(set) : { t: "set", set };
      }
      case ".":
        grow(1);
        return crate ? wide(ANY_BUT_NEWLINE) : { t: "set", set: ANY_BUT_NEWLINE };
      case "^":
        grow(1);
        return { t: "bol" };
      case "$":
        grow(1);
        return { t: "eol" };
      case "\\": {
        const next = peek();
        if (next === "A" || next === "Z") {
          i++;
          grow(1);
          return next === "A" ? { t: "bol" } : { t: "eol" };
        }
        const e = escaped(false);
        grow(1);
        if (typeof e === "number") return { t: "set", set: byteSet(e) };
        return crate ? wide(e) : { t: "set", set: e };
      }
      case "*":
      case "+":
      case "?":
        throw new Unreadable("nothing to repeat");
      default: {
        grow(1);
        const code = ch.charCodeAt(0) & 0xff;
        if (crate && code >= 0x80 && "*+?{".includes(peek())) {
          throw new Unreadable("a byte past ASCII repeated (a character to the regex crate)");
        }
        return { t: "set", set: byteSet(code) };
      }
    }
  };

  /** A `{m}`, `{m,}`, `{,n}` or `{m,n}` at `i`, else undefined (then `{` is a literal, as in Python). */
  const braces = (): { min: number; max: number } | undefined => {
    // The comma and the upper bound as one optional group: with `(,?)` between two `\d*` a run
    // of digits could be split two ways (quadratic, though the slice is short).
    // Read on the whole rest, as Python reads it (`{0000000000000000000000001}` is a repeat): the
    // expression is linear (sticky, and a digit is never a `,` or a `}`).
    BRACES.lastIndex = i;
    const m = BRACES.exec(src);
    if (!m || (m[1] === "" && m[2] === undefined)) return undefined;
    const [whole, lo = "", comma = "", hi = ""] = m;
    const min = lo === "" ? 0 : Number(lo);
    const max = comma === "" ? min : hi === "" ? Number.POSITIVE_INFINITY : Number(hi);
    if (max < min) throw new Unreadable("a bad repeat");
    i += whole.length;
    return { min, max };
  };

  const parseRepeat = (): Node => {
    let node = parseAtom();
    let repeated = false;
    for (;;) {
      const ch = peek();
      let q: { min: number; max: number } | undefined;
      if (ch === "*") q = { min: 0, max: Number.POSITIVE_INFINITY };
      else if (ch === "+") q = { min: 1, max: Number.POSITIVE_INFINITY };
      else if (ch === "?") q = { min: 0, max: 1 };
      if (q) i++;
      else if (ch === "{") {
        q = braces();
        // Python reads this `{` as a literal; the regex crate reads a repeat after an atom or
        // fails (it skips blanks, Unicode ones too, around a count's digits: `{1 }`, `{ 1 , 2 }`).
        if (!q && crate) throw new Unreadable("a `{` after an atom, a literal to Python alone");
      }
      if (!q) return node;
      if (repeated) throw new Unreadable("multiple repeat");
      repeated = true;
      if (node.t === "bol" || node.t === "eol") throw new Unreadable("a repeated anchor");
      // A lazy form matches the texts the greedy one does; a possessive one (`a*+`) may not.
      if (peek() === "?") i++;
      else if (peek() === "+") throw new Unreadable("a possessive repeat");
      // Unbounded, a wide set's trailing bytes past ASCII add nothing: its first set alone.
      if (node.t === "cat" && node.wide && !Number.isFinite(q.max)) {
        size -= regexSize(node) - 1;
        node = node.items[0] as Node;
      }
      const body = regexSize(node);
      grow((body + 2) * Math.max(1, Number.isFinite(q.max) ? q.max : q.min + 1) - body);
      node = { t: "rep", node, ...q };
      // Python refuses `a**` and `a{2}*`; `a*?` was taken above.
      const next = peek();
      if (next === "*" || next === "+" || next === "?") throw new Unreadable("multiple repeat");
    }
  };

  const parseConcat = (): Node => {
    const items: Node[] = [];
    while (i < src.length && peek() !== "|" && peek() !== ")") items.push(parseRepeat());
    return items.length === 1 ? (items[0] as Node) : { t: "cat", items };
  };

  function parseAlt(): Node {
    const items = [parseConcat()];
    while (peek() === "|") {
      i++;
      grow(1);
      items.push(parseConcat());
    }
    return items.length === 1 ? (items[0] as Node) : { t: "alt", items };
  }

  const tree = parseAlt();
  if (i < src.length) throw new Unreadable("an unbalanced parenthesis");
  return tree;
}

/**
 * A bound on the instructions `n` compiles to (what {@link parseRegex} holds
 * to {@link MAX_PROGRAM}), for a caller that bounds several expressions' sum.
 */
export function regexSize(n: Node): number {
  switch (n.t) {
    case "cat":
    case "alt":
      return n.items.reduce((s, x) => s + regexSize(x), n.items.length);
    case "rep":
      return (regexSize(n.node) + 2) * Math.max(1, Number.isFinite(n.max) ? n.max : n.min + 1);
    default:
      return 1;
  }
}

const SET = 0;
const SPLIT = 1;
const JMP = 2;
const BOL = 3;
const EOL = 4;
const MATCH = 5;

/**
 * A compiled program: any of the expressions it was made of, each matched
 * from a text's start (Python's `re.match`: not to its end).
 */
export interface LinearRegex {
  /**
   * Whether some expression matches `text`, or a prefix of it that ends just
   * before one of the `cuts` characters' occurrences (tested as if the text
   * ended there: `$` holds): Mercurial's test of a path and of each folder
   * above it, in one pass.
   */
  matches(text: string, cut?: number): boolean;
  /** Instructions, for the caller's cost accounting. */
  readonly size: number;
}

/**
 * Each byte's other case: an ASCII letter's partner (`a` and `A`), any other
 * byte itself. The fold Python applies to a bytes pattern under `re.IGNORECASE`,
 * and git to names under `core.ignoreCase` (ASCII only).
 */
const OTHER_CASE = Uint8Array.from({ length: 256 }, (_, c) =>
  (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ? c ^ 0x20 : c,
);

/** How {@link compileRegexes} matches. */
export interface CompileOptions {
  /**
   * A character matches where it or its other ASCII case would
   * ({@link OTHER_CASE}): the text matches when some spelling of it that
   * differs in case alone does (`secrets.yml` matches `SECRETS.YML`, and
   * `[^a]` matches `A`, as `a` differs from it in case alone). What a
   * case-insensitive file system opens under any of those spellings.
   */
  foldCase?: boolean;
}

/** One program for `trees` (any of them matching is a match). */
export function compileRegexes(trees: readonly Node[], options: CompileOptions = {}): LinearRegex {
  const fold = options.foldCase === true;
  const op: number[] = [];
  const x: number[] = [];
  const y: number[] = [];
  const sets: (Set256 | undefined)[] = [];
  const emit = (o: number, a = 0, b = 0, s?: Set256) => {
    op.push(o);
    x.push(a);
    y.push(b);
    sets.push(s);
    return op.length - 1;
  };
  const gen = (n: Node): void => {
    switch (n.t) {
      case "set":
        emit(SET, 0, 0, n.set);
        return;
      case "bol":
        emit(BOL);
        return;
      case "eol":
        emit(EOL);
        return;
      case "cat":
        for (const item of n.items) gen(item);
        return;
      case "alt": {
        const jumps: number[] = [];
        n.items.forEach((item, k) => {
          if (k < n.items.length - 1) {
            const split = emit(SPLIT);
            x[split] = op.length;
            gen(item);
            jumps.push(emit(JMP));
            y[split] = op.length;
          } else gen(item);
        });
        for (const j of jumps) x[j] = op.length;
        return;
      }
      case "rep": {
        for (let k = 0; k < n.min; k++) gen(n.node);
        if (n.max === Number.POSITIVE_INFINITY) {
          const split = emit(SPLIT);
          x[split] = op.length;
          gen(n.node);
          emit(JMP, split);
          y[split] = op.length;
        } else {
          const splits: number[] = [];
          for (let k = n.min; k < n.max; k++) {
            const split = emit(SPLIT);
            x[split] = op.length;
            splits.push(split);
            gen(n.node);
          }
          for (const s of splits) y[s] = op.length;
        }
        return;
      }
    }
  };
  gen(trees.length === 1 ? (trees[0] as Node) : { t: "alt", items: [...trees] });
  if (trees.length === 0) gen(EMPTY);
  emit(MATCH);
  const size = op.length;
  const OP = Int8Array.from(op);
  const X = Int32Array.from(x);
  const Y = Int32Array.from(y);
  const noMatch = trees.length === 0;
  // Work arrays, reused by every closure (one runs at a time).
  const mark = new Uint32Array(size);
  // Each instruction is pushed at most twice per closure (once per edge into it).
  const stack = new Int32Array(size * 2 + 2);
  const scratch = new Int32Array(size);
  let generation = 0;
  // Instructions visited so far, all tests together (see MAX_WORK).
  let spent = 0;
  const charge = () => {
    if (spent > MAX_WORK) throw new Unreadable("its patterns cost too much to match");
  };

  /**
   * The states reachable from `starts` without a character (`pos0`: at the
   * text's start, where `^` holds; `end`: where `$` holds), written to `out`:
   * character states, and `$` states kept for a later end. Returns how many,
   * and whether the match was reached.
   */
  const closure = (
    starts: ArrayLike<number>,
    count: number,
    out: Int32Array,
    pos0: boolean,
    end: boolean,
  ) => {
    generation++;
    let n = 0;
    let matched = false;
    for (let k = 0; k < count; k++) {
      let sp = 0;
      stack[sp++] = starts[k] as number;
      while (sp > 0) {
        const at = stack[--sp] as number;
        if (mark[at] === generation) continue;
        mark[at] = generation;
        spent++;
        switch (OP[at]) {
          case SPLIT:
            stack[sp++] = Y[at] as number;
            stack[sp++] = X[at] as number;
            break;
          case JMP:
            stack[sp++] = X[at] as number;
            break;
          case BOL:
            if (pos0) stack[sp++] = at + 1;
            break;
          case EOL:
            if (end) stack[sp++] = at + 1;
            else out[n++] = at;
            break;
          case MATCH:
            matched = true;
            break;
          default:
            out[n++] = at;
        }
      }
    }
    return { n, matched };
  };

  /**
   * A state of the lazily built DFA: the NFA's states, whether the match is
   * reached, whether it is reached were the text to end here (`$`), and the
   * next state for each byte, found when first needed.
   */
  interface DState {
    states: Int32Array;
    matched: boolean;
    atEnd: boolean;
    next: Int32Array;
  }
  let dstates: DState[] = [];
  let index = new Map<string, number>();
  const intern = (list: Int32Array, n: number, matched: boolean): number => {
    spent += n * 16;
    const states = list.slice(0, n).sort();
    const key = `${matched ? 1 : 0}:${states.join(",")}`;
    const known = index.get(key);
    if (known !== undefined) return known;
    // The `$` states' continuations, with `$` holding (never at the start: the text goes on there).
    const eols = states.filter((at) => OP[at] === EOL).map((at) => at + 1);
    const atEnd = matched || closure(eols, eols.length, scratch, false, true).matched;
    const next = new Int32Array(256).fill(-1);
    dstates.push({ states, matched, atEnd, next });
    index.set(key, dstates.length - 1);
    return dstates.length - 1;
  };
  const work = new Int32Array(size);
  const starts = new Int32Array(size);
  const startState = (): number => {
    const r = closure([0], 1, work, true, false);
    return intern(work, r.n, r.matched);
  };
  // The text's empty start is asked on its own: `^$` holds only there.
  const emptyMatch = closure([0], 1, work, true, true).matched;
  let start = startState();

  const step = (from: number, c: number): number => {
    const d = dstates[from] as DState;
    const known = d.next[c] as number;
    if (known !== -1) return known;
    let n = 0;
    const other = fold ? (OTHER_CASE[c] as number) : c;
    for (const at of d.states) {
      const set = sets[at];
      if (set !== undefined && (set[c] || set[other])) starts[n++] = at + 1;
    }
    spent += d.states.length;
    const r = closure(starts, n, work, false, false);
    charge();
    // A hostile program can make the DFA's states many: past the cap it is built again from
    // empty, and every state it builds is charged to the program's work (MAX_WORK).
    if (dstates.length >= MAX_DFA_STATES) {
      const reached = work.slice(0, r.n);
      dstates = [];
      index = new Map();
      start = startState();
      return intern(reached, reached.length, r.matched);
    }
    const to = intern(work, r.n, r.matched);
    d.next[c] = to;
    return to;
  };

  return {
    size,
    matches(text: string, cut = -1): boolean {
      if (noMatch) return false;
      const len = text.length;
      if (len === 0) return emptyMatch;
      let d = start;
      if ((dstates[d] as DState).matched) return true;
      for (let pos = 0; pos < len; pos++) {
        const c = text.charCodeAt(pos) & 0xff;
        // A folder's path ends here: would it match, the text ending (`$`)?
        if (c === cut && pos > 0 && (dstates[d] as DState).atEnd) return true;
        d = step(d, c);
        const state = dstates[d] as DState;
        if (state.matched) return true;
        if (state.states.length === 0) return false;
      }
      return (dstates[d] as DState).atEnd;
    },
  };
}

/**
 * Instructions one program may visit over its life (about 0.2 s), its DFA's
 * building included; past it a test throws {@link Unreadable}. A program the
 * DFA suits (every real ignore file) builds a few states and then costs a
 * table look-up a character; one built to defeat it costs its size a
 * character, and so meets this bound.
 */
export const MAX_WORK = 8_000_000;

/** DFA states one program keeps (each 1 KiB of transitions); past it, they are built again. */
export const MAX_DFA_STATES = 2048;
