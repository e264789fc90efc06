// Review rev44b L1: serve dropped an event stream as soon as it was written a view over 4 MiB
// (its backlog cap counted the event being delivered), and every new stream at its first event:
// a trusted project's 204 sections of 20 KB gave a 12 MB view after one switch of the model, the
// page reconnected every second for ever (about 50 ms of the server's CPU each) and never saw a
// render again. Now a view up to 32 MiB is sent whole, on a new stream and after an edit alike.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_CLIENT_BACKLOG_BYTES } from "../../src/serve/_clients.js";
import { tempDir } from "../api/_helpers.js";
import { EventFeed, type Served, startServe } from "../cli/_serve.js";

/** Ten sections of 600 KB: a view of about 6 MB, over the 4 MiB backlog cap. */
const SECTIONS = 10;
const TEXT = "Every line of this section is the same words again. ".repeat(11_500);

const running: Served[] = [];
const feeds: EventFeed[] = [];
afterEach(async () => {
  for (const feed of feeds.splice(0)) feed.stop();
  for (const served of running.splice(0)) await served.stop();
});

describe("hostile-serve-big-view: a view over 4 MiB reaches the page", () => {
  it("a new stream gets the 6 MB view, and the re-render after an edit too", async () => {
    const root = tempDir();
    for (const dir of ["project/.pi/sections", "agent", "home"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    for (let i = 0; i < SECTIONS; i++) {
      writeFileSync(
        join(root, `project/.pi/sections/big${i}.md`),
        `---\norder: ${500 + i}\n---\n${TEXT}\n`,
      );
    }
    const served = await startServe(root);
    running.push(served);
    const first = new EventFeed(served.port);
    feeds.push(first);
    const view = await first.next();
    const bytes = Buffer.byteLength(JSON.stringify(view));
    expect(bytes).toBeGreaterThan(MAX_CLIENT_BACKLOG_BYTES);
    expect(view.sections.filter((s) => s.name.startsWith("big")).length).toBe(SECTIONS);

    // A second page, as a reconnect is: it gets the same view at once.
    const second = new EventFeed(served.port);
    feeds.push(second);
    expect((await second.next()).count).toBe(view.count);

    writeFileSync(
      join(root, "project/.pi/sections/big0.md"),
      `---\norder: 500\n---\n${TEXT}One line more.\n`,
    );
    const edited = await first.next((v) => v.count > view.count);
    expect(edited.sections.find((s) => s.name === "big0")?.status).toBe("changed");
    expect((await second.next((v) => v.count === edited.count)).count).toBe(edited.count);
  }, 60_000);
});
