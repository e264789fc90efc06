import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../api/_helpers.js";

const DEPTH = 60;

/** A project whose touched path is 60 folders deep, each folder's `.claude/rules` a link to `subfolders` x 1,999 files. */
export function slowProject(userConfig: string, subfolders: number) {
  const base = tempDir();
  const root = join(base, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  writeFileSync(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
  for (let s = 0; s < subfolders; s++) {
    const dir = join(root, ".big", `s${s}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 1999; f++) writeFileSync(join(dir, `r${f}.txt`), "");
  }
  let dir = root;
  let up = "";
  for (let i = 0; i < DEPTH; i++) {
    dir = join(dir, `d${i}`);
    up = `../${up}`;
    mkdirSync(join(dir, ".claude"), { recursive: true });
    symlinkSync(`${up}../.big`, join(dir, ".claude", "rules"));
  }
  writeFileSync(join(dir, "x.ts"), "");
  const agentDir = join(base, "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "sysprompt.yaml"), userConfig);
  const home = join(base, "home");
  mkdirSync(home, { recursive: true });
  const env = { XDG_CACHE_HOME: join(base, "cache"), SYSPROMPT_AGENT_DIR: agentDir };
  const input = JSON.stringify({
    session_id: "s-1",
    cwd: root,
    hook_event_name: "PostToolUse",
    tool_name: "Read",
    tool_input: { file_path: join(dir, "x.ts") },
  });
  return { root, home, env, input };
}
