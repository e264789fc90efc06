import { parseFrontmatter } from "../../src/_frontmatter.js";
import { YAML_TEXT_CAPS } from "../../src/_yaml.js";

// Under every YAML limit, a frontmatter block that is one flow list as long
// as the cap allows (`x: [a,a,a,…]`, 16,000 items) is the slowest parse the
// review found: 60-230 ms on a 2-core machine, where a block of short keys
// takes about half that.

/** A Markdown file whose frontmatter is `head` and one flow list up to the frontmatter cap. */
export function denseFile(head: string, body: string): string {
  let yaml = `${head}x: [`;
  const items = Math.floor((YAML_TEXT_CAPS.frontmatter - yaml.length - 64) / 2);
  yaml += "a,".repeat(items);
  return `---\n${yaml}a]\n---\n${body}\n`;
}

/** The ms one such block takes to parse here, now (the machine's load decides it): the least of three, warmed. */
export function denseParseMs(): number {
  parseFrontmatter(denseFile("seed: warm\n", "Warm."));
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    parseFrontmatter(denseFile(`seed: ${i}\n`, "Timed."));
    least = Math.min(least, performance.now() - started);
  }
  return least;
}
