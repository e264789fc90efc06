// One program run with a time limit, its output collected: the way every end-to-end script
// starts pi or another agent.

import { spawn } from "node:child_process";

/**
 * Runs `bin args` and resolves with `{ code, signal, stdout, stderr, ms }`. Past `timeoutMs` the
 * program is killed (SIGKILL); with `group`, its whole process group goes too (an agent's
 * shell or language server), also when it exits on its own.
 */
export function runProcess(bin, args, { cwd, env, timeoutMs, group = false }) {
  return new Promise((resolveRun) => {
    const child = spawn(bin, args, {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: group,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const t0 = performance.now();
    const kill = () => {
      try {
        if (group) process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {}
    };
    const timer = setTimeout(kill, timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (group) kill();
      resolveRun({ code, signal, stdout, stderr, ms: Math.round(performance.now() - t0) });
    });
  });
}
