import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../helpers/save-repo.ts";
import { runProc } from "./proc-pool.ts";
import { bundleFile, HOOKS } from "./tables.ts";
import { project, type Project } from "./workload.ts";

// Stalls: a hook whose stdin never closes, or whose transcript sits on a stalled path
// (a FIFO with no writer), ends by itself, exit 0, no answer, within its own deadline: well under
// the timeout the installer registers (and, for SessionEnd, under the 1.5 s Claude Code gives).
// The wall times are printed, not asserted (timing claims belong to the bench); what is asserted
// is that the process ended by itself before the installer's timeout, and said why in the hook log.

const SID = "5a5a5a5a-0000-4000-8000-000000000001";
let p: Project;
beforeAll(() => {
  ensureBuilt();
  p = project();
});
afterAll(() => rmSync(path.dirname(p.repo.home), { recursive: true, force: true }));

const log = () => {
  try {
    return readFileSync(path.join(p.repo.home, ".claude/quoin-checkpoint/logs/hooks.log"), "utf8");
  } catch {
    return "";
  }
};

describe.each(HOOKS)("$event hook on a stalled input", (row) => {
  it(`stdin that never closes: exits 0 with no answer at its own deadline (${row.budgetMs} ms; installer timeout ${row.timeoutS} s)`, async () => {
    const r = await runProc(
      { file: bundleFile(row.bundle), env: p.repo.env, cwd: p.repo.root, holdStdin: true },
      row.timeoutS < 2 ? 20_000 : row.timeoutS * 1000,
    );
    console.log(
      `[stalls] ${row.event}: stdin never closed; ended by itself after ${r.ms.toFixed(0)} ms (deadline ${row.budgetMs} ms, installer timeout ${row.timeoutS} s)`,
    );
    expect(r.hung).toBe(false);
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(log()).toContain(`${row.event}: deadline of ${row.budgetMs} ms passed`);
  });

  it("a transcript that is a FIFO with no writer: answers without waiting on it", async () => {
    const fifo = path.join(p.transcriptDir, `${row.bundle}.fifo`);
    execFileSync("mkfifo", [fifo]);
    const payload = {
      session_id: SID,
      transcript_path: fifo,
      cwd: p.repo.root,
      hook_event_name: row.event,
      ...Object.fromEntries(
        Object.entries(row.extra).map(([k, v]) => [k, v[0] === "PROMPT" ? "hello" : v[0]]),
      ),
    };
    const logBefore = log().length;
    const r = await runProc(
      {
        file: bundleFile(row.bundle),
        input: JSON.stringify(payload),
        env: p.repo.env,
        cwd: p.repo.root,
      },
      row.timeoutS < 2 ? 20_000 : row.timeoutS * 1000,
    );
    rmSync(fifo);
    console.log(
      `[stalls] ${row.event}: transcript a FIFO with no writer; ended after ${r.ms.toFixed(0)} ms`,
    );
    expect(r.hung).toBe(false);
    expect(r.code).toBe(0);
    expect(log().slice(logBefore)).not.toContain(`${row.event}: deadline`);
  });
});
