import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { clearStepCache } from "../../src/gather/deadline.js";
import {
  type EnvCacheLocation,
  envCacheLocation,
  GPU_CACHE_VERSION,
} from "../../src/gather/environment/_env-cache.js";
import {
  cpuModelFromCpuinfo,
  detectEnvironment,
  distroName,
  staticEnvironment,
  terminalOf,
  timeZoneOf,
} from "../../src/gather/environment/environment.js";
import type { Machine } from "../../src/gather/environment/machine.js";
import type { ProbeResult, ProbeRunner } from "../../src/gather/environment/probe.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

afterEach(() => clearStepCache());

const CPUINFO = `processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz
flags\t\t: fpu vme

processor\t: 1
model name\t: Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz
`;

const OS_RELEASE = `NAME="Ubuntu"
VERSION="24.04.1 LTS (Noble Numbat)"
PRETTY_NAME="Ubuntu 24.04.1 LTS"
ID=ubuntu
`;

const LSPCI = `00:00.0 "Host bridge" "Intel Corporation" "Xeon E3-1200 v6/7th Gen Core Processor Host Bridge/DRAM Registers" -r08 "Lenovo" "Device 225d"
00:02.0 "VGA compatible controller" "Intel Corporation" "UHD Graphics 620" -r07 "Lenovo" "Device 225d"
01:00.0 "3D controller" "NVIDIA Corporation" "GP108M [GeForce MX150]" -ra1 "Lenovo" "Device 225d"
`;

const LINUX_FILES: Record<string, string> = {
  "/proc/cpuinfo": CPUINFO,
  "/etc/os-release": OS_RELEASE,
  "/proc/sys/kernel/random/boot_id": "0f3c9b1e-6d1a-4c55-9d0e-3f1f2a7b8c9d\n",
};

/** A probe runner that answers from a table and records every call. */
function fakeProbes(answers: Record<string, ProbeResult | (() => Promise<ProbeResult>)>) {
  const calls: string[] = [];
  const runProbe: ProbeRunner = async (command, args) => {
    const line = [command, ...args].join(" ");
    calls.push(line);
    const answer = answers[command.replace(/^.*[\\/]/, "")] ?? { status: "missing" };
    return typeof answer === "function" ? answer() : answer;
  };
  return { calls, runProbe };
}

function linuxMachine(runProbe: ProbeRunner, extra: Partial<Machine> = {}): Machine {
  return {
    platform: "linux",
    arch: "x64",
    release: "6.8.0-45-generic",
    hostname: "box",
    timeZone: "Europe/Berlin",
    readFile: async (path) => {
      const text = LINUX_FILES[path];
      if (text === undefined) throw new Error(`ENOENT: ${path}`);
      return text;
    },
    runProbe,
    // Every probe binary is "there", in /usr/bin; whether it runs is the fake runner's answer.
    findBinary: async (name) => `/usr/bin/${name}`,
    ...extra,
  };
}

/** The cache of an explicit agent dir: `<agentDir>/cache/sysprompt-env.json`. */
const inAgentDir = (agentDir: string): EnvCacheLocation =>
  envCacheLocation({ agentDir, env: {}, home: "/nonexistent" });
const envCachePath = (agentDir: string) => inAgentDir(agentDir).path;

const LINUX_ENTRIES = (gpu: string | undefined) => [
  { label: "Operating system", value: "Ubuntu 24.04.1 LTS, Linux 6.8.0-45-generic" },
  { label: "Architecture", value: "x64" },
  { label: "CPU", value: "Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz" },
  ...(gpu === undefined ? [] : [{ label: "GPU", value: gpu }]),
  { label: "Terminal", value: "iTerm.app (xterm-256color)" },
  { label: "Time zone", value: "Europe/Berlin" },
];

const TERMINAL_ENV = { TERM_PROGRAM: "iTerm.app", TERM: "xterm-256color" };

describe("staticEnvironment: what needs no I/O", () => {
  it("names the OS and states the architecture, from the values given", () => {
    expect(staticEnvironment({ platform: "darwin", arch: "arm64" }, {})).toEqual([
      { label: "Operating system", value: "macOS" },
      { label: "Architecture", value: "arm64" },
    ]);
    expect(
      staticEnvironment({ platform: "win32", arch: "x64", release: "10.0.22631" }, {}),
    ).toEqual([
      { label: "Operating system", value: "Windows 10.0.22631" },
      { label: "Architecture", value: "x64" },
    ]);
    expect(staticEnvironment({ platform: "haiku", arch: "riscv64" }, {})).toEqual([
      { label: "Operating system", value: "haiku" },
      { label: "Architecture", value: "riscv64" },
    ]);
  });

  it("never reads a file, calls cpuModel or starts a probe", () => {
    const fail = () => {
      throw new Error("must not be called");
    };
    expect(
      staticEnvironment(
        {
          platform: "linux",
          arch: "x64",
          release: "6.1.0",
          readFile: fail,
          cpuModel: fail,
          runProbe: fail,
        },
        { TERM: "dumb", TZ: "Asia/Tokyo" },
      ),
    ).toEqual([
      { label: "Operating system", value: "Linux 6.1.0" },
      { label: "Architecture", value: "x64" },
      { label: "Terminal", value: "dumb" },
      { label: "Time zone", value: "Asia/Tokyo" },
    ]);
  });
});

describe("detectEnvironment on Linux", () => {
  it("OS with distro and release, arch, CPU from /proc/cpuinfo, GPUs from lspci -mm, terminal, time zone — in that order", async () => {
    const probes = fakeProbes({ lspci: { status: "ok", stdout: LSPCI } });
    const result = await detectEnvironment({
      machine: linuxMachine(probes.runProbe),
      env: TERMINAL_ENV,
      cache: inAgentDir(tempDir()),
    });
    expect(result).toEqual({
      entries: LINUX_ENTRIES(
        "Intel Corporation UHD Graphics 620; NVIDIA Corporation GP108M [GeForce MX150]",
      ),
      diagnostics: [],
    });
    expect(probes.calls).toEqual(["/usr/bin/lspci -mm"]);
  });

  it("caches the answer in <agentDir>/cache/sysprompt-env.json, keyed by version and machine", async () => {
    const agentDir = tempDir();
    const probes = fakeProbes({ lspci: { status: "ok", stdout: LSPCI } });
    await detectEnvironment({
      machine: linuxMachine(probes.runProbe),
      env: {},
      cache: inAgentDir(agentDir),
    });
    expect(JSON.parse(readFileSync(join(agentDir, "cache", "sysprompt-env.json"), "utf8"))).toEqual(
      {
        version: GPU_CACHE_VERSION,
        machine: {
          platform: "linux",
          arch: "x64",
          hostname: "box",
          release: "6.8.0-45-generic",
          boot: "0f3c9b1e-6d1a-4c55-9d0e-3f1f2a7b8c9d",
        },
        gpu: {
          status: "found",
          names: [
            "Intel Corporation UHD Graphics 620",
            "NVIDIA Corporation GP108M [GeForce MX150]",
          ],
        },
      },
    );
  });

  it("a cached answer is reused: the probe is not spawned twice", async () => {
    const agentDir = tempDir();
    const probes = fakeProbes({ lspci: { status: "ok", stdout: LSPCI } });
    const first = await detectEnvironment({
      machine: linuxMachine(probes.runProbe),
      env: TERMINAL_ENV,
      cache: inAgentDir(agentDir),
    });
    const second = await detectEnvironment({
      machine: linuxMachine(probes.runProbe),
      env: TERMINAL_ENV,
      cache: inAgentDir(agentDir),
    });
    expect(second).toEqual(first);
    expect(probes.calls).toEqual(["/usr/bin/lspci -mm"]);
  });

  it("no display device: GPU none, and that is cached too", async () => {
    const agentDir = tempDir();
    const probes = fakeProbes({
      lspci: { status: "ok", stdout: '00:00.0 "Host bridge" "Intel Corporation" "440FX"\n' },
    });
    for (let i = 0; i < 2; i++) {
      const result = await detectEnvironment({
        machine: linuxMachine(probes.runProbe),
        env: TERMINAL_ENV,
        cache: inAgentDir(agentDir),
      });
      expect(result.entries).toEqual(LINUX_ENTRIES("none"));
    }
    expect(probes.calls).toEqual(["/usr/bin/lspci -mm"]);
  });

  it("a probe that could not tell (missing, failed, late) states no GPU line, and is cached", async () => {
    for (const status of ["missing", "failed", "timeout"] as const) {
      const agentDir = tempDir();
      const probes = fakeProbes({ lspci: { status } });
      for (let i = 0; i < 2; i++) {
        const result = await detectEnvironment({
          machine: linuxMachine(probes.runProbe),
          env: TERMINAL_ENV,
          cache: inAgentDir(agentDir),
        });
        expect(result).toEqual({ entries: LINUX_ENTRIES(undefined), diagnostics: [] });
      }
      expect(probes.calls).toEqual(["/usr/bin/lspci -mm"]);
    }
  });

  it("a cache written under another version key, or on another boot, is ignored and replaced", async () => {
    const agentDir = tempDir();
    const path = envCachePath(agentDir);
    const fingerprint = {
      platform: "linux",
      arch: "x64",
      hostname: "box",
      release: "6.8.0-45-generic",
      boot: "0f3c9b1e-6d1a-4c55-9d0e-3f1f2a7b8c9d",
    };
    const stale = (version: string, boot: string) => {
      mkdirSync(join(agentDir, "cache"), { recursive: true });
      writeFileSync(
        path,
        JSON.stringify({
          version,
          machine: { ...fingerprint, boot },
          gpu: { status: "found", names: ["Old GPU"] },
        }),
      );
    };
    const probes = fakeProbes({ lspci: { status: "ok", stdout: LSPCI } });
    const detect = () =>
      detectEnvironment({
        machine: linuxMachine(probes.runProbe),
        env: {},
        cache: inAgentDir(agentDir),
      });

    stale("gpu-probe/0 sysprompt/0.0.1", fingerprint.boot);
    expect((await detect()).entries.find((e) => e.label === "GPU")?.value).toBe(
      "Intel Corporation UHD Graphics 620; NVIDIA Corporation GP108M [GeForce MX150]",
    );
    stale(GPU_CACHE_VERSION, "another-boot");
    await detect();
    expect(probes.calls).toEqual(["/usr/bin/lspci -mm", "/usr/bin/lspci -mm"]);
    // The control: the same file with this version and boot is used as it is.
    stale(GPU_CACHE_VERSION, fingerprint.boot);
    expect((await detect()).entries.find((e) => e.label === "GPU")?.value).toBe("Old GPU");
    expect(probes.calls.length).toBe(2);
  });

  it("a torn cache file is a miss, not a crash", async () => {
    const agentDir = tempDir();
    mkdirSync(join(agentDir, "cache"));
    writeFileSync(envCachePath(agentDir), '{"version": "gpu-probe/1');
    const probes = fakeProbes({ lspci: { status: "ok", stdout: LSPCI } });
    const result = await detectEnvironment({
      machine: linuxMachine(probes.runProbe),
      env: {},
      cache: inAgentDir(agentDir),
    });
    expect([result.diagnostics, probes.calls]).toEqual([[], ["/usr/bin/lspci -mm"]]);
  });

  it("an unwritable cache folder costs a probe next time and an info diagnostic, never a crash", async () => {
    const agentDir = tempDir();
    // A file where the cache folder should be: unwritable even for root.
    writeFileSync(join(agentDir, "cache"), "not a folder");
    const probes = fakeProbes({ lspci: { status: "ok", stdout: LSPCI } });
    const detect = () =>
      detectEnvironment({
        machine: linuxMachine(probes.runProbe),
        env: TERMINAL_ENV,
        cache: inAgentDir(agentDir),
      });
    const first = await detect();
    expect(first.entries).toEqual(
      LINUX_ENTRIES(
        "Intel Corporation UHD Graphics 620; NVIDIA Corporation GP108M [GeForce MX150]",
      ),
    );
    expect(first.diagnostics.map(({ level, code, path }) => ({ level, code, path }))).toEqual([
      { level: "info", code: "env-cache-unwritable", path: envCachePath(agentDir) },
    ]);
    expect(first.diagnostics[0]?.message).toMatch(
      /^cannot cache the GPU probe's answer \(.*\); it runs again next time$/,
    );
    await detect();
    expect(probes.calls).toEqual(["/usr/bin/lspci -mm", "/usr/bin/lspci -mm"]);
  });

  it("unreadable system files leave their facts out", async () => {
    const probes = fakeProbes({});
    const result = await detectEnvironment({
      machine: linuxMachine(probes.runProbe, {
        readFile: () => Promise.reject(new Error("EACCES")),
      }),
      env: {},
      cache: inAgentDir(tempDir()),
    });
    expect(result.entries).toEqual([
      { label: "Operating system", value: "Linux 6.8.0-45-generic" },
      { label: "Architecture", value: "x64" },
      { label: "Time zone", value: "Europe/Berlin" },
    ]);
  });
});

describe("detectEnvironment on macOS and Windows", () => {
  const PLIST = `<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
	<key>ProductName</key>
	<string>macOS</string>
	<key>ProductVersion</key>
	<string>14.4.1</string>
</dict></plist>`;

  it("macOS: version from SystemVersion.plist, CPU from cpuModel, GPUs from system_profiler -json", async () => {
    const probes = fakeProbes({
      system_profiler: {
        status: "ok",
        stdout: JSON.stringify({
          SPDisplaysDataType: [{ sppci_model: "Apple M2 Pro", sppci_cores: "19" }],
        }),
      },
    });
    const result = await detectEnvironment({
      machine: {
        platform: "darwin",
        arch: "arm64",
        release: "23.4.0",
        readFile: async (path) => {
          if (path === "/System/Library/CoreServices/SystemVersion.plist") return PLIST;
          throw new Error(`ENOENT: ${path}`);
        },
        cpuModel: () => "Apple M2 Pro",
        runProbe: probes.runProbe,
        findBinary: async (name) => `/usr/sbin/${name}`,
      },
      env: { TERM_PROGRAM: "Apple_Terminal", TERM: "xterm-256color", TZ: "America/New_York" },
      cache: inAgentDir(tempDir()),
    });
    expect(result.entries).toEqual([
      { label: "Operating system", value: "macOS 14.4.1" },
      { label: "Architecture", value: "arm64" },
      { label: "CPU", value: "Apple M2 Pro" },
      { label: "GPU", value: "Apple M2 Pro" },
      { label: "Terminal", value: "Apple_Terminal (xterm-256color)" },
      { label: "Time zone", value: "America/New_York" },
    ]);
    expect(probes.calls).toEqual(["/usr/sbin/system_profiler -json SPDisplaysDataType"]);
  });

  it("macOS without the plist says which kernel it is", () => {
    expect(staticEnvironment({ platform: "darwin", arch: "x64", release: "23.4.0" }, {})).toEqual([
      { label: "Operating system", value: "macOS (Darwin 23.4.0)" },
      { label: "Architecture", value: "x64" },
    ]);
  });

  it("Windows: PowerShell first; where it is missing, wmic; equal adapters counted", async () => {
    const probes = fakeProbes({
      "powershell.exe": { status: "missing" },
      wmic: {
        status: "ok",
        stdout: "Name  \r\nNVIDIA GeForce RTX 3090  \r\nNVIDIA GeForce RTX 3090  \r\n\r\n",
      },
    });
    const result = await detectEnvironment({
      machine: {
        platform: "win32",
        arch: "x64",
        release: "10.0.22631",
        cpuModel: () => "AMD Ryzen 9 5950X 16-Core Processor            ",
        runProbe: probes.runProbe,
        findBinary: async (name) => `C:\\Windows\\System32\\${name}`,
      },
      env: { WT_SESSION: "a1b2" },
      cache: inAgentDir(tempDir()),
    });
    expect(result.entries).toEqual([
      { label: "Operating system", value: "Windows 10.0.22631" },
      { label: "Architecture", value: "x64" },
      { label: "CPU", value: "AMD Ryzen 9 5950X 16-Core Processor" },
      { label: "GPU", value: "NVIDIA GeForce RTX 3090 ×2" },
      { label: "Terminal", value: "Windows Terminal" },
    ]);
    expect(probes.calls).toEqual([
      "C:\\Windows\\System32\\powershell.exe -NoProfile -NonInteractive -Command Get-CimInstance Win32_VideoController | ForEach-Object { $_.Name }",
      "C:\\Windows\\System32\\wmic path win32_VideoController get Name",
    ]);
  });
});

describe("the small parsers", () => {
  it("cpuModelFromCpuinfo: model name on x86, Model on a Raspberry Pi, nothing when absent", () => {
    expect(cpuModelFromCpuinfo(CPUINFO)).toBe("Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz");
    expect(
      cpuModelFromCpuinfo(
        "processor\t: 0\nBogoMIPS\t: 108.00\nCPU implementer\t: 0x41\n\nHardware\t: BCM2835\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n",
      ),
    ).toBe("Raspberry Pi 4 Model B Rev 1.4");
    expect(cpuModelFromCpuinfo("processor\t: 0\n")).toBeUndefined();
    expect(cpuModelFromCpuinfo(undefined)).toBeUndefined();
  });

  it("distroName: PRETTY_NAME, else NAME and VERSION, quotes removed", () => {
    expect(distroName(OS_RELEASE)).toBe("Ubuntu 24.04.1 LTS");
    expect(distroName("NAME='Alpine Linux'\nVERSION=3.20\n")).toBe("Alpine Linux 3.20");
    expect(distroName("ID=x\n")).toBeUndefined();
  });

  it("terminalOf: the program, then TERM; nothing from an empty environment", () => {
    expect(terminalOf({ TERM_PROGRAM: "vscode", TERM: "xterm-256color" })).toBe(
      "vscode (xterm-256color)",
    );
    expect(terminalOf({ TERM_PROGRAM: "tmux", TERM: "tmux" })).toBe("tmux");
    expect(terminalOf({ KITTY_WINDOW_ID: "1", TERM: "xterm-kitty" })).toBe("kitty (xterm-kitty)");
    expect(terminalOf({ TERMINAL_EMULATOR: "JetBrains-JediTerm" })).toBe("JetBrains terminal");
    expect(terminalOf({ TERM: "dumb" })).toBe("dumb");
    expect(terminalOf({})).toBeUndefined();
  });

  it("timeZoneOf: an IANA TZ wins (leading colon allowed); anything else gives way to the machine's", () => {
    expect(timeZoneOf({ TZ: "Asia/Kolkata" }, "UTC")).toBe("Asia/Kolkata");
    expect(timeZoneOf({ TZ: ":Europe/Paris" }, "UTC")).toBe("Europe/Paris");
    expect(timeZoneOf({ TZ: "/etc/localtime" }, "Europe/Berlin")).toBe("Europe/Berlin");
    expect(timeZoneOf({ TZ: "CET-1CEST,M3.5.0,M10.5.0/3" }, "Europe/Paris")).toBe("Europe/Paris");
    expect(timeZoneOf({ TZ: "" }, undefined)).toBeUndefined();
    expect(timeZoneOf({}, "America/Chicago")).toBe("America/Chicago");
  });
});

describe("the environment section", () => {
  it("the environment option replaces detection (nothing is probed); the model comes last", async () => {
    const probes = fakeProbes({ lspci: { status: "ok", stdout: LSPCI } });
    const result = await renderSystemPrompt(
      pinned(tempDir(), {
        noContextFiles: true,
        machine: linuxMachine(probes.runProbe),
        environment: [
          { label: "Shell", value: "zsh" },
          { label: "Node", value: "20.19.0" },
        ],
        model: "model-x",
      }),
    );
    expect(result.sections.find((s) => s.name === "environment")?.text).toBe(
      "<environment>\n- Shell: zsh\n- Node: 20.19.0\n- Model: model-x\n</environment>",
    );
    expect(result.steps.find((s) => s.name === "environment")?.status).toBe("skipped");
    expect(probes.calls).toEqual([]);
  });

  it("an empty environment and no model leaves the section out", async () => {
    const result = await renderSystemPrompt(
      pinned(tempDir(), { noContextFiles: true, environment: [] }),
    );
    expect(result.sections.map((s) => s.name)).toEqual([
      "preamble",
      "tools",
      "rules",
      "cwd",
      "date",
    ]);
  });

  it("two renders on the same machine give the same bytes; the second reads the cache", async () => {
    const root = tempDir();
    const probes = fakeProbes({ lspci: { status: "ok", stdout: LSPCI } });
    const options = pinned(root, {
      machine: linuxMachine(probes.runProbe),
      env: TERMINAL_ENV,
      model: "model-x",
    });
    const first = await renderSystemPrompt(options);
    const second = await renderSystemPrompt(options);
    expect(second.text).toBe(first.text);
    expect(first.sections.find((s) => s.name === "environment")?.text).toBe(
      [
        "<environment>",
        "- Operating system: Ubuntu 24.04.1 LTS, Linux 6.8.0-45-generic",
        "- Architecture: x64",
        "- CPU: Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz",
        "- GPU: Intel Corporation UHD Graphics 620; NVIDIA Corporation GP108M [GeForce MX150]",
        "- Terminal: iTerm.app (xterm-256color)",
        "- Time zone: Europe/Berlin",
        "- Model: model-x",
        "</environment>",
      ].join("\n"),
    );
    expect(probes.calls).toEqual(["/usr/bin/lspci -mm"]);
  });

  it("a late GPU probe: the static part now, one warning; the probe is stopped as the render returns, and the next render probes again", async () => {
    const root = tempDir();
    let stopped = false;
    let first = true;
    const calls: string[] = [];
    // The first probe never answers on its own: only the render's signal ends it, as a kill does.
    const runProbe: ProbeRunner = async (command, args, o) => {
      calls.push([command, ...args].join(" "));
      if (!first) return { status: "ok", stdout: LSPCI };
      first = false;
      return new Promise<ProbeResult>((resolve) => {
        o.signal?.addEventListener("abort", () => {
          stopped = true;
          resolve({ status: "timeout" });
        });
      });
    };
    const options = pinned(root, {
      machine: linuxMachine(runProbe),
      env: TERMINAL_ENV,
      deadlineMs: 1000,
    });
    const late = await renderSystemPrompt(options);
    expect(late.steps.find((s) => s.name === "environment")?.status).toBe("timeout");
    expect(late.diagnostics).toEqual([
      {
        level: "warning",
        code: "step-timeout",
        message: 'gathering step "environment" missed the 1000 ms deadline; its fallback was used',
      },
    ]);
    const section = (r: typeof late) => r.sections.find((s) => s.name === "environment")?.text;
    // Everything but the GPU: the system files were read before the probe started.
    expect(section(late)).toBe(
      `<environment>\n${LINUX_ENTRIES(undefined)
        .map((e) => `- ${e.label}: ${e.value}`)
        .join("\n")}\n</environment>`,
    );

    expect(stopped).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    const next = await renderSystemPrompt(options);
    expect(next.steps.find((s) => s.name === "environment")?.status).toBe("ok");
    expect(next.diagnostics).toEqual([]);
    expect(section(next)).toContain(
      "- GPU: Intel Corporation UHD Graphics 620; NVIDIA Corporation GP108M [GeForce MX150]",
    );
    // The stopped probe's answer was neither cached nor kept: the next render asked again.
    expect(calls).toEqual(["/usr/bin/lspci -mm", "/usr/bin/lspci -mm"]);
  });
});
