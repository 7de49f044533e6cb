import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST } from "../helpers/run-bundle.ts";
import { ENGINE_BUNDLE } from "../../lib/install/install-layout.ts";

// The engine writes its answer with writeSync on fd 1 (lib/edge/std-write.ts), not through
// process.stdout. These cases hold it to what the stream did: a long answer reaches a slow reader
// whole, also through a pipe left non-blocking, and a reader that goes away ends nothing badly.

let tmp: string;
let project: string;
let text: string;
const NAME = "2026-11-28T1100-big.md";

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-output-"));
  project = path.join(tmp, "proj");
  const checkpoints = path.join(project, ".workflow_artifacts", "memory", "checkpoints");
  fs.mkdirSync(path.join(project, ".git"), { recursive: true });
  fs.mkdirSync(checkpoints, { recursive: true });
  // 300 KB: several times a pipe's 64 KB buffer.
  text = `## Active task\nbig\n\n## Branch\nmain\n\n## Notes\n${"0123456789abcdef".repeat(64).concat("\n").repeat(290)}`;
  fs.writeFileSync(path.join(checkpoints, NAME), text);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const engine = () => path.join(DIST, ENGINE_BUNDLE);

function bash(script: string): { status: number | null; stdout: string; stderr: string } {
  const res = spawnSync("bash", ["-c", script], {
    encoding: "utf8",
    env: { PATH: process.env["PATH"], HOME: tmp, TZ: "UTC" },
    maxBuffer: 16 << 20,
    timeout: 20_000,
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

describe("the engine's answer on stdout", () => {
  it("reaches a reader that starts late, whole", () => {
    const r = bash(
      `node ${q(engine())} show ${NAME} --json --cwd ${q(project)} | (sleep 0.3; cat)`,
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, content: text });
  });

  it("reaches it whole through a pipe its parent left non-blocking (EAGAIN is waited out)", () => {
    // A wrapper sets O_NONBLOCK on fd 1 the way node does for a pipe it owns, then runs the engine.
    const wrapper = `const b = process.binding("pipe_wrap"); new b.Pipe(b.constants.SOCKET).open(1); process.argv.splice(1, 0, "engine"); require(${JSON.stringify(engine())});`;
    const r = bash(
      `node -e ${q(wrapper)} show ${NAME} --json --cwd ${q(project)} | (sleep 0.3; cat)`,
    );
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, content: text });
  });

  it("ends with exit 0 and no stack trace when the reader goes away", () => {
    const r = bash(
      `node ${q(engine())} show ${NAME} --cwd ${q(project)} 2>${q(path.join(tmp, "err.txt"))} | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"`,
    );
    expect(r.stdout.trim()).toBe("0");
    expect(fs.readFileSync(path.join(tmp, "err.txt"), "utf8")).toBe("");
  });
});
