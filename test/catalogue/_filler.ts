/** Every shrink step, as a section's frontmatter writes the list. */
export const EVERY_STEP =
  "[tree-lines, tree-depth, agents-md, skill-descriptions, skill-list, context-files, rule-descriptions, always-rules, appended-files]";

/** Distinct words, `chars` characters: nothing could make them shorter. */
export function words(tag: string, chars: number): string {
  const out: string[] = [];
  let n = 0;
  for (let k = 0; n < chars; k++) {
    const word = `${tag}x${k.toString(36)}`;
    out.push(word);
    n += word.length + 1;
  }
  return out.join(" ").slice(0, chars);
}
