import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeText, parseFrontmatter } from "../../../src/_frontmatter.js";
import { simpleBlock } from "../../../src/gather/rules/_fields.js";
import { FIXTURES } from "../../api/_helpers.js";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

const BLOCKS = [
  "---\nalwaysApply: true\n---\nx\n",
  "---\nalwaysApply: True\nglobs: src/**/*.ts, lib/*.js\n---\nx\n",
  '---\ndescription: "Quoted, with a comma"\nglobs:\n  - "a/**"\n  - b/*.md\n---\nx\n',
  "---\n# a comment\ntrigger: model_decision\n\ndescription: When asked\n---\n",
  "---\ncount: 3\nempty:\nnothing: ~\n---\nbody\n",
];

describe("the fast path for simple rule frontmatter", () => {
  it("gives what the YAML reader gives, for every simple block it accepts", () => {
    const texts = [
      ...BLOCKS,
      ...files(join(FIXTURES, "rules")).map((p) => normalizeText(readFileSync(p, "utf8"))),
    ];
    let accepted = 0;
    for (const text of texts) {
      const fast = simpleBlock(text);
      if (!fast) continue;
      accepted++;
      const yaml = parseFrontmatter(text);
      expect({ data: fast.data, body: fast.body }, text).toEqual({
        data: yaml.data,
        body: yaml.body,
      });
    }
    expect(accepted).toBeGreaterThan(20);
  });

  it("leaves to the YAML reader what it cannot read the same way", () => {
    for (const text of [
      "---\nglobs: *.ts\n---\n",
      '---\ndescription: "a\\nb"\n---\n',
      "---\na: b: c\n---\n",
      "---\na: 1 # note\n---\n",
      "---\na: [x, y]\n---\n",
      "---\na: x\na: y\n---\n",
      "---yaml\na: x\n---\n",
      "---\na: x\n----\n",
    ]) {
      expect(simpleBlock(text), text).toBeUndefined();
    }
  });
});
