import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A skill folder `dir` holding a valid SKILL.md named `name`, for the watch tests. */
export function skill(dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: The ${name} steps, for the watch tests.\n---\nDo it.\n`,
  );
}
