import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { writeAtomic } from "../../lib/core/atomic-write.ts";
import { asciiBody } from "../../lib/core/ascii-text.ts";
import { DAY_MS } from "../../lib/core/time-format.ts";
import { ENGINE_BUNDLE } from "../../lib/install/install-layout.ts";
import { renderCheckpoint } from "../../lib/store/checkpoint-format.ts";
import { NO_ARTIFACTS } from "../../lib/store/checkpoint-values.ts";
import { memoryPaths, type MemoryPaths } from "../../lib/store/memory-paths.ts";
import { sentinelPath } from "../../lib/store/sentinels.ts";

// Damage named, never swapped in silence: a checkpoint cut short, random bytes, an empty file and
// a symlink, through the built engine's list and restore.

const ENGINE = path.resolve(import.meta.dirname, "../../dist", ENGINE_BUNDLE);
const SID = "bbbb2222-0000-4000-8000-000000000002";
const temps: string[] = [];

beforeAll(() => {
  if (!fs.existsSync(ENGINE))
    execFileSync("npm", ["run", "build"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      stdio: "ignore",
    });
});
afterEach(() => {
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

function world(): { repo: string; home: string; paths: MemoryPaths } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-damage-"));
  temps.push(base);
  const repo = path.join(base, "repo");
  const home = path.join(base, "home");
  fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
  fs.writeFileSync(path.join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
  fs.mkdirSync(home);
  const paths = memoryPaths(repo);
  fs.mkdirSync(paths.checkpoints, { recursive: true });
  fs.mkdirSync(paths.sessions, { recursive: true });
  return { repo, home, paths };
}

function checkpoint(paths: MemoryPaths, name: string, task: string, hoursAgo: number): string {
  const when = new Date(Date.now() - hoursAgo * 3_600_000);
  const file = path.join(paths.checkpoints, name);
  const text = renderCheckpoint(
    {
      status: "checkpoint save (voluntary)",
      currentStage: "implementing",
      task,
      branch: "feature/login",
      sessionId: "aaaa1111-0000-4000-8000-000000000001",
      projectHash: "-tmp-repo",
      savedAt: when,
      intent: `finish ${task}`,
      artifacts: NO_ARTIFACTS,
    },
    asciiBody,
  ).text;
  fs.writeFileSync(file, text);
  at(file, hoursAgo);
  return file;
}

function at(file: string, hoursAgo: number): void {
  const t = new Date(Date.now() - (hoursAgo * DAY_MS) / 24);
  fs.utimesSync(file, t, t);
}

function engine(w: { repo: string; home: string }, args: string[]) {
  const res = spawnSync(process.execPath, [ENGINE, ...args, "--cwd", w.repo], {
    encoding: "utf8",
    env: { PATH: process.env["PATH"], HOME: w.home, TZ: "UTC" },
  });
  return { code: res.status, out: res.stdout, err: res.stderr, json: () => JSON.parse(res.stdout) };
}

/** A good checkpoint, one cut to its first 150 bytes, one of random bytes, an empty one, a symlink. */
function damagedWorld() {
  const w = world();
  const good = checkpoint(w.paths, "2026-11-29T0900-good.md", "good", 5);
  const cut = checkpoint(w.paths, "2026-11-29T1000-cut.md", "cut", 4);
  fs.writeFileSync(cut, fs.readFileSync(cut).subarray(0, 150));
  at(cut, 4);
  const noise = path.join(w.paths.checkpoints, "2026-11-29T1100-noise.md");
  fs.writeFileSync(noise, Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 97 + 13) % 256)));
  at(noise, 3);
  const empty = path.join(w.paths.checkpoints, "2026-11-29T1200-empty.md");
  fs.writeFileSync(empty, "");
  at(empty, 2);
  const outside = path.join(w.home, "elsewhere.md");
  fs.writeFileSync(outside, fs.readFileSync(good));
  const link = path.join(w.paths.checkpoints, "2026-11-29T1300-link.md");
  fs.symlinkSync(outside, link);
  return { w, good, cut, noise, empty, link };
}

describe("damage named, never swapped in silence (built engine)", () => {
  it("list and the picker number alike and mark each damaged file; a symlink is not shown", () => {
    const { w, good, cut, noise, empty } = damagedWorld();
    const rows = engine(w, ["list", "--json"]).json().checkpoints as {
      n: number;
      file: string;
      damage?: string;
    }[];
    expect(rows.map((r) => [r.n, path.basename(r.file), r.damage ?? null])).toEqual([
      [1, path.basename(empty), "empty"],
      [2, path.basename(noise), "not a checkpoint"],
      [3, path.basename(cut), "cut short"],
      [4, path.basename(good), null],
    ]);
    const text = engine(w, ["list"]).out;
    expect(text).toContain("damaged: cut short: cut");
    expect(text).toContain("damaged: not a checkpoint");
    expect(text).not.toContain("link.md");
    // the picker restores the one whole checkpoint and names the others
    const auto = engine(w, ["restore", "--json", "--session", SID]).json();
    expect(auto).toMatchObject({ action: "restore", file: good });
    expect(auto.show.join("\n")).toContain("is damaged: cut short: not restored by itself");
    // --pick N takes list's numbers
    for (const r of rows) {
      const picked = engine(w, ["restore", "--json", "--session", SID, "--pick", String(r.n)]);
      const j = picked.json();
      if (r.damage) expect([j.path, j.file, j.corrupt.reason]).toEqual(["6", r.file, r.damage]);
      else expect([j.action, j.file]).toEqual(["restore", good]);
    }
    expect(engine(w, ["show", "5"]).code).toBe(2);
    expect(engine(w, ["show", "2026-11-29T1300-link.md"]).code).toBe(2);
  });

  it("this session's sentinel naming random bytes: said, shown as 2 KB of text, the others listed, none restored, the sentinel kept", () => {
    const { w, good, noise } = damagedWorld();
    const own = sentinelPath(w.paths.memory, "pending-restore", SID);
    writeAtomic(fs, own, `${noise}\n`, { mode: 0o600 });
    const j = engine(w, ["restore", "--json", "--session", SID]).json();
    expect(j).toMatchObject({
      action: "restore",
      path: "6",
      done: false,
      needs: ["manual-recovery"],
    });
    expect([j.file, j.corrupt.reason]).toEqual([noise, "not a checkpoint"]);
    const shown = j.show.join("\n");
    expect(shown).toContain(`${noise} is damaged: not a checkpoint`);
    expect(shown).toMatch(/4\. .*good \[feature\/login\]/);
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffd]/);
    expect(fs.existsSync(own)).toBe(true);
    expect(fs.existsSync(good)).toBe(true);
    const person = engine(w, ["restore", "--session", SID]).out;
    expect(person).toContain("Manual recovery");
    expect(person).toContain("restore --pick N");
  });
});
