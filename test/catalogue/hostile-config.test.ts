import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogueCase, diag, runCase } from "./_harness.js";

// sysprompt.yaml is read before the deadline starts, so nothing in it may
// block or take long: it is opened only when lstat says it is a regular file
// (again checked on the handle, opened without following a link), never past
// its cap, and parsed only when its nesting is shallow. A file that cannot be
// used is a warning naming it and the render goes on as without it.

const APP = "project/app";
const PROJECT_CONFIG = `${APP}/.pi/sysprompt.yaml`;
const USER_CONFIG = "agent/sysprompt.yaml";
const CONFIG = { configFiles: true } as const;

const refused = (path: string, reason: string) => (root: string) => [
  diag("warning", "config-refused", `sysprompt.yaml not used: ${reason}`, join(root, path)),
];

/** The tools the render selected: the default ones, when no config file applied. */
const DEFAULT_TOOLS = ["read", "bash", "edit", "write"];

const cases: CatalogueCase[] = [
  {
    name: "config-link-to-dev-zero",
    layout: [[PROJECT_CONFIG, { symlink: "/dev/zero" }]],
    options: CONFIG,
    expected: refused(PROJECT_CONFIG, "a symbolic link, not a regular file: it is not read"),
  },
  {
    name: "config-user-link-to-secret",
    layout: [
      ["outside/secret.yaml", "tools: [bash]\n"],
      [USER_CONFIG, { symlink: "../outside/secret.yaml" }],
    ],
    bad: [USER_CONFIG],
    options: CONFIG,
    expected: refused(USER_CONFIG, "a symbolic link, not a regular file: it is not read"),
    verify: (bad) => expect(bad.data.tools).toEqual(DEFAULT_TOOLS),
  },
  {
    name: "config-fifo",
    layout: [[PROJECT_CONFIG, { fifo: true }]],
    options: CONFIG,
    expected: refused(PROJECT_CONFIG, "a FIFO, not a regular file: it is not read"),
  },
  {
    name: "config-folder",
    layout: [[`${PROJECT_CONFIG}/x`, "tools: [bash]\n"]],
    bad: [PROJECT_CONFIG],
    options: CONFIG,
    expected: refused(PROJECT_CONFIG, "a folder, not a regular file: it is not read"),
  },
  {
    name: "config-huge-sparse",
    layout: [[PROJECT_CONFIG, { sparse: 50 * 1024 * 1024, head: "tools: [bash]\n" }]],
    options: CONFIG,
    expected: refused(PROJECT_CONFIG, "over 8192 bytes: it is not read (a config is a few lines)"),
    verify: (bad) => expect(bad.data.tools).toEqual(DEFAULT_TOOLS),
  },
  {
    name: "config-binary",
    layout: [[PROJECT_CONFIG, new Uint8Array([0x74, 0x3a, 0x20, 0x00, 0x01, 0x0a])]],
    options: CONFIG,
    expected: (root) => [
      diag("warning", "file-binary", "binary file skipped", join(root, PROJECT_CONFIG)),
    ],
  },
  {
    name: "config-project-folder-link-out",
    layout: [
      ["outside/cfg/sysprompt.yaml", "tools: [bash]\n"],
      [`${APP}/.alt`, { symlink: "../../outside/cfg" }],
    ],
    bad: [`${APP}/.alt`],
    options: { ...CONFIG, projectDir: ".alt" },
    expected: (root) => [
      diag(
        "warning",
        "config-refused",
        `sysprompt.yaml not used: the project folder resolves to ${root}/outside/cfg, outside the project ${root}/${APP}`,
        join(root, `${APP}/.alt/sysprompt.yaml`),
      ),
      // The layer folder itself is refused before it is listed (rev82e F2).
      diag(
        "warning",
        "file-outside-project",
        `not read: it resolves to ${root}/outside/cfg, outside the project root ${root}/project`,
        join(root, `${APP}/.alt`),
      ),
    ],
    verify: (bad) => expect(bad.data.tools).toEqual(DEFAULT_TOOLS),
  },
  {
    name: "config-control-characters",
    layout: [
      [
        PROJECT_CONFIG,
        'model: "gpt\\u001b[2J"\n"\\u001b]0;evil\\u0007": 1\nvars:\n  team: "a\\u001b[31mb"\n',
      ],
    ],
    options: CONFIG,
    // A variable's value may hold anything; a name never does. A project's value is data in the
    // prompt (review rev41c F5): one line, its control characters written `\u001b`.
    changed: [],
    expected: (root) => [
      diag(
        "error",
        "config-bad-value",
        'model must be one line, without control characters, got "gpt\\u001b[2J" (as in `model: gpt-5`); the key is ignored',
        join(root, PROJECT_CONFIG),
        1,
      ),
      diag(
        "warning",
        "config-unknown-key",
        'unknown key "\\u001b]0;evil\\u0007", ignored; the keys are: agent, agent-mode, vars, model, tools, tree, tree-depth, git, rule-sources, deadline, max-tokens',
        join(root, PROJECT_CONFIG),
        2,
      ),
    ],
    verify: (bad) => {
      expect(bad.data.model).toBe(null);
      expect(bad.data.vars).toEqual({ team: "a\\u001b&#91;31mb" });
    },
  },
  {
    name: "config-bad-yaml",
    layout: [[PROJECT_CONFIG, "tools: [bash\nmodel: x\n"]],
    options: CONFIG,
    expected: (root) => [
      diag(
        "error",
        "config-yaml",
        "not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]; the file is ignored",
        join(root, PROJECT_CONFIG),
        2,
      ),
    ],
  },
  {
    name: "config-untrusted-project",
    layout: [[PROJECT_CONFIG, "tools: [bash]\n"]],
    options: { ...CONFIG, projectTrusted: false },
    expected: (root) => [
      diag(
        "info",
        "config-untrusted",
        "sysprompt.yaml of the project not read: the project is not trusted; trust it (drop --untrusted; in pi, allow the project's files) to use its defaults",
        join(root, PROJECT_CONFIG),
      ),
    ],
    verify: (bad) => expect(bad.data.tools).toEqual(DEFAULT_TOOLS),
  },
];

describe("catalogue: hostile sysprompt.yaml", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined));
});
