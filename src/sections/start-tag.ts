/**
 * How an HTML tokenizer reads a start tag (`<name attr="v" …>`): the one
 * reader of tags that `withoutHidden`, `hiddenAt` (src/sections/user-text.ts)
 * and the slash-template guard (src/prompt-templates/_hidden-runs.ts) share
 * (rev57b F3). A quoted value may hold `>`; a quoted value may be followed
 * directly by the next attribute (`x="a"hidden`); values have their character
 * references decoded (`display&#58;none`). Text is read ASCII-lowered.
 */

/** Most characters of a start tag read: longer, it is not read as a tag (the scans stay linear). */
export const MAX_TAG_CHARS = 1024;

/** The tokenizer's states inside a start tag, less the ones that read alike. */
export const TagState = {
  /** The tag's name. */
  Name: 0,
  /** Before an attribute's name, after a quoted value or a `/`. */
  Before: 1,
  /** An attribute's name. */
  Attribute: 2,
  /** After an attribute's name, before `=` or the next one. */
  After: 3,
  /** After `=`, before the value. */
  Equals: 4,
  Unquoted: 5,
  DoubleQuoted: 6,
  SingleQuoted: 7,
  /** The `>` that ends the tag was read. */
  End: 8,
} as const;
export type TagState = (typeof TagState)[keyof typeof TagState];

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c;
}

const SLASH = 0x2f;
const EQUALS = 0x3d;
const GREATER = 0x3e;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

/** The state after reading `code` in `state` (HTML's tokenizer, its errors read as it reads them). */
export function tagStep(state: TagState, code: number): TagState {
  switch (state) {
    case TagState.DoubleQuoted:
      return code === QUOTE ? TagState.Before : state;
    case TagState.SingleQuoted:
      return code === APOSTROPHE ? TagState.Before : state;
    case TagState.End:
      return state;
    default:
  }
  if (code === GREATER) return TagState.End;
  switch (state) {
    case TagState.Name:
      return isSpace(code) || code === SLASH ? TagState.Before : state;
    case TagState.Before:
      return isSpace(code) || code === SLASH ? state : TagState.Attribute;
    case TagState.Attribute:
      if (isSpace(code)) return TagState.After;
      if (code === SLASH) return TagState.Before;
      return code === EQUALS ? TagState.Equals : state;
    case TagState.After:
      if (isSpace(code)) return state;
      if (code === SLASH) return TagState.Before;
      return code === EQUALS ? TagState.Equals : TagState.Attribute;
    case TagState.Equals:
      if (isSpace(code)) return state;
      if (code === QUOTE) return TagState.DoubleQuoted;
      return code === APOSTROPHE ? TagState.SingleQuoted : TagState.Unquoted;
    default:
      return isSpace(code) ? TagState.Before : state;
  }
}

/** Whether `<` at `at` starts a start tag: a letter follows. */
function startsTag(lower: string, at: number): boolean {
  const next = lower.charCodeAt(at + 1);
  return next >= 0x61 && next <= 0x7a;
}

/**
 * Where each start tag of `lower` ends: its `<` to its `>` read outside
 * quotes, at most {@link MAX_TAG_CHARS} on. Every `<` is read as a tag of its
 * own, the way a reader of the text from there would (one inside an earlier
 * tag's value too). Linear: the tags read at once are kept by state, and
 * those in the same state read on alike, so each character is read once a
 * state (the groups merged smaller into larger).
 */
export function startTagEnds(lower: string): Map<number, number> {
  const ends = new Map<number, number>();
  // Per state: the tags' `<` offsets in it (read in that state now) and the newest of them.
  const STATES = TagState.End;
  let groups: (number[] | undefined)[] = new Array(STATES).fill(undefined);
  let next: (number[] | undefined)[] = new Array(STATES).fill(undefined);
  let newest = new Array<number>(STATES).fill(-1);
  let nextNewest = new Array<number>(STATES).fill(-1);
  let active = 0;
  let at = lower.indexOf("<");
  while (at !== -1 && at < lower.length) {
    if (active === 0) {
      at = lower.indexOf("<", at);
      if (at === -1) break;
    }
    const code = lower.charCodeAt(at);
    active = 0;
    for (let state = 0; state < STATES; state++) {
      const group = groups[state];
      if (group === undefined) continue;
      groups[state] = undefined;
      if ((newest[state] as number) < at - MAX_TAG_CHARS) continue;
      const to = tagStep(state as TagState, code);
      if (to === TagState.End) {
        for (const lt of group) if (at - lt <= MAX_TAG_CHARS) ends.set(lt, at);
        continue;
      }
      const there = next[to];
      if (there === undefined) {
        next[to] = group;
        nextNewest[to] = newest[state] as number;
        active++;
      } else {
        const big = there.length >= group.length ? there : group;
        for (const lt of big === there ? group : there) big.push(lt);
        next[to] = big;
        nextNewest[to] = Math.max(nextNewest[to] as number, newest[state] as number);
      }
    }
    if (code === 0x3c && startsTag(lower, at)) {
      // Its name starts after the `<`: read from the next character in the name's state.
      const there = next[TagState.Name];
      if (there === undefined) {
        next[TagState.Name] = [at];
        active++;
      } else there.push(at);
      nextNewest[TagState.Name] = at;
    }
    [groups, next] = [next, groups];
    [newest, nextNewest] = [nextNewest, newest];
    at++;
  }
  return ends;
}

/** Where the name of the start tag at `at` (its `<`) ends. */
export function tagNameEnd(lower: string, at: number): number {
  let end = at + 1;
  while (end < lower.length && tagStep(TagState.Name, lower.charCodeAt(end)) === TagState.Name)
    end++;
  return end;
}

/** The few named references that spell what a style or attribute test reads; numeric ones are all decoded. */
const NAMED: Readonly<Record<string, string>> = {
  colon: ":",
  semi: ";",
  tab: "\t",
  newline: "\n",
  excl: "!",
  amp: "&",
  quot: '"',
  apos: "'",
  lt: "<",
  gt: ">",
  sol: "/",
  ast: "*",
  lpar: "(",
  rpar: ")",
  comma: ",",
};

/** `value` with its character references decoded as HTML decodes an attribute's, ASCII-lowered. */
export function decodedValue(value: string): string {
  if (!value.includes("&")) return value;
  const decoded = value.replace(
    /&(?:#x([0-9a-f]{1,8})|#([0-9]{1,10})|([a-z]{2,8});)(;?)/g,
    (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
      if (name !== undefined) return NAMED[name] ?? whole;
      const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(dec);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
    },
  );
  return decoded.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** The name and attributes (names, decoded values) of the start tag `lower` holds from `at` (its `<`) to `end` (its `>`). */
export function readStartTag(
  lower: string,
  at: number,
  end: number,
): { name: string; attributes: Map<string, string> } {
  let state: TagState = TagState.Name;
  let name = "";
  let attribute = "";
  let value = "";
  const attributes = new Map<string, string>();
  const keep = () => {
    // The first of two attributes of one name counts, as HTML keeps it.
    if (attribute !== "" && !attributes.has(attribute))
      attributes.set(attribute, decodedValue(value));
    attribute = "";
    value = "";
  };
  for (let i = at + 1; i < end; i++) {
    const code = lower.charCodeAt(i);
    const to = tagStep(state, code);
    if (state === TagState.Name && to === TagState.Name) name += lower[i];
    else if (to === TagState.Attribute) {
      if (state !== TagState.Attribute) keep();
      attribute += lower[i];
    } else if (
      (to === TagState.Unquoted && (state === TagState.Unquoted || state === TagState.Equals)) ||
      (to === state && (to === TagState.DoubleQuoted || to === TagState.SingleQuoted))
    )
      value += lower[i];
    state = to;
  }
  keep();
  return { name, attributes };
}
