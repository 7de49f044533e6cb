import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookWorld, MATCHERS } from "./hook-world.ts";
import {
  requestText,
  runClaude,
  startLoopbackModel,
  type LoopbackModel,
} from "./loopback-model.ts";

// A real /compact under the real client: PreCompact (manual) saves a checkpoint and the
// pending-restore sentinel, SessionStart (compact) writes the compaction markers and its
// re-entry note reaches the model, and the next prompt expires a defer marker.

let tmp: string;
let home: string;
let project: string;
let model: LoopbackModel;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-e2e-compact-"));
  ({ home, project } = hookWorld(tmp, {
    branch: "feat/compact",
    hooks: {
      SessionStart: MATCHERS.sessionStart,
      UserPromptSubmit: "",
      PreCompact: MATCHERS.preCompact,
    },
  }));
  fs.mkdirSync(path.join(project, ".workflow_artifacts", "memory", "sessions"), {
    recursive: true,
  });
  fs.writeFileSync(
    path.join(project, ".workflow_artifacts", "memory", "sessions", "2026-11-29-compact-test.md"),
    "## Unfinished work\n- T-1 wire it\n",
  );
  model = await startLoopbackModel((body) =>
    requestText(body).includes("summary")
      ? { kind: "text", text: "Summary: we wired T-1." }
      : { kind: "text", text: "noted" },
  );
});
afterAll(async () => {
  await model?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const memory = () => path.join(project, ".workflow_artifacts", "memory");
const ask = (args: string[]) => runClaude({ home, cwd: project, baseUrl: model.url, args });

describe("compaction under the real Claude Code client", () => {
  it("PreCompact saves, SessionStart(compact) marks, and the next prompt sees the re-entry note", async () => {
    const first = await ask(["first step", "--output-format=json"]);
    expect(first.code).toBe(0);
    const sid = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    for (const p of ["second step", "third step", "fourth step"])
      expect((await ask(["--resume", sid, p])).code).toBe(0);
    fs.writeFileSync(path.join(memory(), `checkpoint-defer-${sid}.txt`), "2026-11-29T00:00:00Z\n");

    const compact = await ask(["--resume", sid, "/compact"]);
    expect(compact.code).toBe(0);

    const sentinel = path.join(memory(), `pending-restore-${sid}.txt`);
    expect(fs.existsSync(sentinel)).toBe(true);
    const checkpoint = fs.readFileSync(sentinel, "utf8").trim();
    expect(path.basename(checkpoint)).toMatch(/^\d{4}-\d{2}-\d{2}-compact-test-precompact\.md$/);
    const body = fs.readFileSync(checkpoint, "utf8");
    expect(body).toContain(`## Session ID\n${sid}`);
    expect(body).toContain("## Branch\nfeat/compact");
    expect(fs.readFileSync(path.join(memory(), `compact-happened-${sid}.txt`), "utf8")).toContain(
      `session_id=${sid}`,
    );
    expect(fs.existsSync(path.join(memory(), `postcompact-reset-${sid}.txt`))).toBe(true);

    const after = await ask(["--resume", sid, "what next?"]);
    expect(after.code).toBe(0);
    // Step 0.5: the compaction expired the defer marker (moved to trash, not deleted).
    expect(fs.existsSync(path.join(memory(), `checkpoint-defer-${sid}.txt`))).toBe(false);
    expect(fs.readdirSync(path.join(memory(), "trash")).length).toBeGreaterThan(0);
    const last = requestText(model.messageBodies().at(-1));
    expect(last).toContain("what next?");
    expect(last).toContain(checkpoint);
  }, 180_000);
});
