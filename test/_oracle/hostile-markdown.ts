// A seeded generator of hostile Markdown documents for the hidden-text oracle
// (test/_oracle/hidden-oracle.ts): documents built from pieces an attacker would use to hide
// text from an HTML reader, or to make sysprompt's readers disagree with one. Deterministic:
// a small seeded PRNG, never Math.random.

/** mulberry32: a 32-bit seeded PRNG, returning numbers in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Starts of never-shown elements (content hidden by the project's decided list). */
const HIDING = [
  "<div hidden>",
  "<span hidden>",
  "<b hidden>",
  "<i hidden>",
  "<a hidden>",
  "<p hidden>",
  "<template>",
  "<details>",
  "<svg>",
  '<div style="display:none">',
  '<span style="visibility:hidden">',
  "<script>",
  "<title>",
  "<style>",
  "<dialog>",
  "<iframe>",
  "<noembed>",
  "<object>",
  "<div popover>",
  "<DIV HIDDEN>",
  "<div\nhidden>",
  '<div title=">" hidden>',
  "<div hidden",
  '<div hidden title="',
];

/** Elements that change how the tree builder reads what follows (scopes, tables, foreign content, raw text that is shown). */
const SCOPES = [
  "<table>",
  "<tr>",
  "<td>",
  "<th>",
  "<caption>",
  "<select>",
  "<option>",
  "<math><mi>",
  "<math>",
  "<svg><foreignObject>",
  "<object>",
  "<template>",
  "<applet>",
  "<marquee>",
  "<button>",
  "<li>",
  "<ul>",
  "<div>",
  "<span>",
  "<b>",
  "<p>",
  "<pre>",
  "<textarea>",
  "<xmp>",
  "<noscript>",
  "<plaintext>",
  "<frameset>",
  "<table><tr><td>",
];

const ENDS = [
  "</div>",
  "</span>",
  "</b>",
  "</i>",
  "</a>",
  "</p>",
  "</template>",
  "</details>",
  "</svg>",
  "</script>",
  "</title>",
  "</style>",
  "</dialog>",
  "</iframe>",
  "</noembed>",
  "</object>",
  "</table>",
  "</tr>",
  "</td>",
  "</caption>",
  "</select>",
  "</mi>",
  "</math>",
  "</foreignObject>",
  "</li>",
  "</ul>",
  "</pre>",
  "</textarea>",
  "</noscript>",
  "</body>",
  "</html>",
  "</DIV>",
  "</div >",
  "</div x>",
  "</br>",
];

/** Comments and the other markup-declaration forms, with their odd ends. */
const COMMENTS = [
  "<!--",
  "-->",
  "--!>",
  "<!-->",
  "<!--->",
  "<!-- c -->",
  "<?x",
  "?>",
  "<![CDATA[",
  "]]>",
  "<!X",
  "<!DOCTYPE x",
  ">",
  "<!--<script>",
  "-- >",
];

/** Markdown's own: code, escapes, links, quotes, lists, text. */
const MARKDOWN = [
  "`",
  "``",
  "\n```\n",
  "\n~~~\n",
  "\n```",
  "\n    ",
  "\\",
  "\\<div hidden>",
  "\\</div>",
  "](<",
  "[a](",
  "[a](</div>)",
  '[a]: /u "',
  '[a](/u "',
  '"',
  "'",
  ")",
  "\n> ",
  "\n- ",
  "\n1. ",
  "\n\n",
  "\n",
  "text",
  "a *b",
  "<a title='",
  '<a href="',
  "&lt;div hidden>",
  "\n# ",
  "\n---\n",
  "[x]: <",
];

const FAMILIES = [HIDING, HIDING, SCOPES, SCOPES, ENDS, ENDS, COMMENTS, MARKDOWN, MARKDOWN];

const SEPARATORS = ["", "", " ", "\n", "\n", "\n\n", "\n\n"];

/** A document as its pieces, separators among them (joined, it is the Markdown). */
export type Pieces = string[];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

/** A hostile document of 1-`most` pieces, each followed by a separator. */
export function hostilePieces(random: () => number, most = 8): Pieces {
  const count = 1 + Math.floor(random() * most);
  const out: Pieces = [];
  for (let i = 0; i < count; i++) {
    out.push(pick(random, pick(random, FAMILIES)));
    const separator = pick(random, SEPARATORS);
    if (separator !== "") out.push(separator);
  }
  return out;
}

/** Two documents for seed `seed`: the one before the marker and the one after. */
export function hostileCase(seed: number): { before: Pieces; after: Pieces } {
  const random = prng(seed);
  return { before: hostilePieces(random), after: hostilePieces(random, 4) };
}

/**
 * The smallest case (by dropping pieces, then again while any drop helps) for which `fails`
 * still holds: what a failure prints.
 */
export function shrinkCase(
  start: { before: Pieces; after: Pieces },
  fails: (before: string, after: string) => boolean,
): { before: Pieces; after: Pieces } {
  let best = start;
  let changed = true;
  while (changed) {
    changed = false;
    for (const side of ["before", "after"] as const) {
      for (let i = 0; i < best[side].length; i++) {
        const fewer = best[side].filter((_, k) => k !== i);
        const next = { ...best, [side]: fewer };
        if (fails(next.before.join(""), next.after.join(""))) {
          best = next;
          changed = true;
          i--;
        }
      }
    }
  }
  return best;
}
