import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeAtomic } from "../../lib/core/atomic-write.ts";
import { nodeDeps } from "../../lib/edge/node-deps.ts";
import { ENGINE_BUNDLE } from "../../lib/install/install-layout.ts";
import { writeSkeletonCheckpoint } from "../../lib/save/skeleton-save.ts";
import { memoryPaths } from "../../lib/store/memory-paths.ts";
import { appendBlockedPrompt } from "../../lib/store/pending-prompts.ts";
import { sentinelPath } from "../../lib/store/sentinels.ts";

// Two restores of one checkpoint at once (two new sessions picking up the session that held its
// prompts): each held prompt is handed out once, in order, and the restore that lost says so.

const ENGINE = path.resolve(import.meta.dirname, "../../dist", ENGINE_BUNDLE);
const HELD = "aaaa1111-0000-4000-8000-000000000001";
const A = "bbbb2222-0000-4000-8000-00000000000a";
const B = "bbbb2222-0000-4000-8000-00000000000b";
const PROMPTS = ["migrate the users table", "then deploy to prod"];
const ROUNDS = 12;
let base: string;

beforeAll(() => {
  if (!fs.existsSync(ENGINE))
    execFileSync("npm", ["run", "build"], { cwd: path.resolve(import.meta.dirname, "../..") });
  base = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-replay-race-"));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

function heldWorld(round: number): { repo: string; home: string } {
  const repo = path.join(base, `r${round}`, "repo");
  const home = path.join(base, `r${round}`, "home");
  fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
  fs.writeFileSync(path.join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
  fs.mkdirSync(home, { recursive: true });
  const paths = memoryPaths(repo);
  let text: string | null = null;
  PROMPTS.forEach((p, i) => {
    text = appendBlockedPrompt(text, p, `2026-12-03T06:0${i}:00Z`);
  });
  writeAtomic(fs, sentinelPath(paths.memory, "pending-prompt", HELD), text!, { mode: 0o600 });
  writeSkeletonCheckpoint(nodeDeps(), {
    paths,
    sessionId: HELD,
    launchCwd: repo,
    status: "checkpoint save (forced: context at the block tier)",
    shape: "voluntary",
    writeSentinel: true,
  });
  return { repo, home };
}

interface RestoreJson {
  done?: boolean;
  replay?: { prompts: { text: string }[] };
  show?: string[];
}

function restore(repo: string, home: string, sid: string): Promise<RestoreJson> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [ENGINE, "restore", "--json", "--session", sid, "--replay", "all", "--cwd", repo],
      { env: { PATH: process.env["PATH"], HOME: home, TZ: "UTC" } },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("error", reject);
    child.on("close", () => {
      try {
        resolve(JSON.parse(out) as RestoreJson);
      } catch (err) {
        reject(new Error(`not JSON: ${out}: ${(err as Error).message}`));
      }
    });
  });
}

describe("two restores racing on one checkpoint with held prompts", () => {
  it(`hand each prompt out once, in order, over ${ROUNDS} rounds; the other restore says they were taken`, async () => {
    let told = 0;
    let bothReplayed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { repo, home } = heldWorld(round);
      const answers = await Promise.all([restore(repo, home, A), restore(repo, home, B)]);
      const handed = answers.map((a) => (a.replay?.prompts ?? []).map((p) => p.text));
      // every prompt exactly once across both, and in the order it was held within each
      expect(handed.flat().sort(), `round ${round}`).toEqual([...PROMPTS].sort());
      for (const h of handed) expect(PROMPTS.slice(0, h.length)).toEqual(h);
      if (handed.every((h) => h.length > 0)) bothReplayed++;
      const loser = answers[handed[0]!.length === 0 ? 0 : 1]!;
      const taken =
        /held prompt [12] was taken by session bbbb2222|2 held prompt\(s\) of session aaaa1111 were already taken by session bbbb2222/;
      if ((loser.show ?? []).some((w) => taken.test(w))) told++;
    }
    // Stopping at the first taken prompt keeps the run whole: one restore gets both.
    expect(bothReplayed).toBe(0);
    // The loser says who took the prompts: at its claim, or when it found them claimed already.
    console.log(`replay race: ${ROUNDS} rounds, the losing restore said who took them in ${told}`);
    expect(told).toBe(ROUNDS);
  }, 120_000);
});
