import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../api/_helpers.js";

/** A file outside the project with frontmatter: any such file may be linked as a SKILL.md. */
export const DESCRIBED =
  "---\ndescription: LEAKED-DESCRIPTION deploy notes\n---\nSECRET-MARKER-BODY\n";

/** `<base>/p` (a git root) and a file outside it with frontmatter, linked from `<home>/.agents/skills/leak`. */
export function layout(homeIn: "root" | ".home") {
  const base = tempDir();
  const project = join(base, "p");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, "src"));
  mkdirSync(join(base, "secret"));
  writeFileSync(join(base, "secret", "notes.md"), DESCRIBED);
  writeFileSync(join(project, "AGENTS.md"), "# Project\n");
  const home = homeIn === "root" ? project : join(project, ".home");
  const skill = join(home, ".agents", "skills", "leak");
  mkdirSync(skill, { recursive: true });
  symlinkSync(join(base, "secret", "notes.md"), join(skill, "SKILL.md"));
  return { base, project, home };
}
