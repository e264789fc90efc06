import { cleanLine } from "../../_text.js";
import type { ProbeResult, ProbeRunner } from "./probe.js";

/**
 * What the GPU probe found. `unknown`: the probe could not tell (its command
 * is missing, failed or was killed as late); the prompt then says nothing
 * about the GPU rather than guessing.
 */
export type GpuAnswer =
  | { status: "found"; names: string[] }
  | { status: "none" }
  | { status: "unknown" };

/** Adapter names are short; a longer one is cut (a probe's output is shown to the model). */
export const MAX_GPU_NAME_CHARS = 120;

/** More adapters than this are not listed: a machine has a few; a probe that says more is not one. */
export const MAX_GPU_NAMES = 8;

/** How a probe is run: its binary found by name, then run by absolute path. */
export interface ProbeTools {
  run: ProbeRunner;
  find: (name: string) => Promise<string | undefined>;
}

/** A healthy probe answers in well under a second; system_profiler and PowerShell are the slow ones. */
export const GPU_PROBE_TIMEOUT_MS = 3000;

/** PCI classes lspci gives display hardware. */
const DISPLAY_CLASSES = new Set([
  "VGA compatible controller",
  "3D controller",
  "Display controller",
]);

/**
 * Asks the platform's own tool for the display adapters: `lspci -mm` on Linux,
 * `system_profiler -json SPDisplaysDataType` on macOS, PowerShell's
 * Win32_VideoController (else `wmic`) on Windows. Other platforms: unknown.
 * `signal` (the render's: it gave up waiting) kills a probe still running.
 */
export async function probeGpu(
  platform: string,
  tools: ProbeTools,
  timeoutMs = GPU_PROBE_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<GpuAnswer> {
  const runProbe = async (
    name: string,
    args: readonly string[],
    options: { timeoutMs: number },
  ): Promise<ProbeResult> => {
    const binary = await tools.find(name);
    if (binary === undefined) return { status: "missing" };
    if (signal?.aborted) return { status: "timeout" };
    return tools.run(binary, args, signal ? { ...options, signal } : options);
  };
  if (platform === "linux") {
    return answer(await runProbe("lspci", ["-mm"], { timeoutMs }), parseLspci);
  }
  if (platform === "darwin") {
    return answer(
      await runProbe("system_profiler", ["-json", "SPDisplaysDataType"], { timeoutMs }),
      parseSystemProfiler,
    );
  }
  if (platform === "win32") {
    const started = performance.now();
    const ps = await runProbe(
      "powershell.exe",
      [
        "-NoProfile",
        "-NonInteractive",
        "-Command",
        "Get-CimInstance Win32_VideoController | ForEach-Object { $_.Name }",
      ],
      { timeoutMs },
    );
    if (ps.status === "ok" || ps.status === "timeout" || signal?.aborted) {
      return answer(ps, parseNameLines);
    }
    // wmic is deprecated but still there where PowerShell is locked down.
    const left = Math.max(1, timeoutMs - (performance.now() - started));
    return answer(
      await runProbe("wmic", ["path", "win32_VideoController", "get", "Name"], { timeoutMs: left }),
      parseNameLines,
    );
  }
  return { status: "unknown" };
}

function answer(result: ProbeResult, parse: (stdout: string) => string[] | undefined): GpuAnswer {
  if (result.status !== "ok") return { status: "unknown" };
  const parsed = parse(result.stdout);
  if (parsed === undefined) return { status: "unknown" };
  const names = cleanGpuNames(parsed);
  if (names.length > 0) return { status: "found", names };
  // Names that were nothing but control characters are not an answer.
  return parsed.length === 0 ? { status: "none" } : { status: "unknown" };
}

/**
 * What a probe printed, made fit to cache and show: each name one printable
 * line of at most {@link MAX_GPU_NAME_CHARS}, empty ones dropped, at most
 * {@link MAX_GPU_NAMES}. Applied to a fresh answer and to a cached one alike.
 */
export function cleanGpuNames(names: readonly string[]): string[] {
  return names
    .map((n) => cleanLine(n, MAX_GPU_NAME_CHARS))
    .filter((n) => n !== "")
    .slice(0, MAX_GPU_NAMES);
}

/**
 * `lspci -mm` lines: `00:02.0 "VGA compatible controller" "Intel Corporation"
 * "UHD Graphics 620" -r07 "Lenovo" "Device 2258"`. The quoted fields are the
 * class, vendor and device; their order is fixed by the format.
 */
export function parseLspci(stdout: string): string[] {
  const names: string[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const fields = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? "");
    const [cls, vendor, device] = fields;
    if (cls === undefined || !DISPLAY_CLASSES.has(cls)) continue;
    const name = [vendor, device].filter((f) => f).join(" ");
    if (name) names.push(name);
  }
  return names;
}

/** `{"SPDisplaysDataType": [{"sppci_model": "Apple M2 Pro", …}]}`; undefined when not that. */
export function parseSystemProfiler(stdout: string): string[] | undefined {
  let data: unknown;
  try {
    data = JSON.parse(stdout);
  } catch {
    // Not JSON (an old macOS without -json): the probe could not tell.
    return undefined;
  }
  const list = (data as { SPDisplaysDataType?: unknown } | null)?.SPDisplaysDataType;
  if (!Array.isArray(list)) return undefined;
  return list
    .map((gpu) => (gpu as { sppci_model?: unknown } | null)?.sppci_model)
    .filter((m): m is string => typeof m === "string" && m.trim() !== "")
    .map((m) => m.trim());
}

/** One adapter name per line; wmic adds a `Name` header. */
export function parseNameLines(stdout: string): string[] {
  return stdout
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && l !== "Name");
}

/** `A`, `A ×2`, `A; B`: equal names counted, first-seen order kept. */
export function formatGpuNames(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join("; ");
}
