import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { benchNode, formatRow, measure, type BenchContext } from "./bench-lib.ts";
import { benchEveryNode } from "./bench-nodes.ts";
import { execFileSync } from "node:child_process";
import { benchRestore } from "./bench-restore.ts";
import { benchDigest } from "./bench-digest.ts";
import { benchSave } from "./bench-save.ts";
import { benchSessionEnd } from "./bench-sessionend.ts";
import { benchCheckpoints } from "./bench-checkpoints.ts";
import { benchStatusLine } from "./bench-statusline.ts";

const root = path.resolve(import.meta.dirname, "..");
const fixtures = path.resolve(root, "test", "fixtures", "transcripts");
const work = path.join(os.tmpdir(), "quoin-bench");
const runs = Number(process.env["QUOIN_BENCH_RUNS"] ?? 40);
const sizes = (process.env["QUOIN_BENCH_SIZES"] ?? "1MB,100MB,1GB").split(",");

const BYTES: Record<string, number> = { "1MB": 1 << 20, "100MB": 100 << 20, "1GB": 1 << 30 };

/** A transcript of about `bytes`, made by repeating the real fixtures (whole lines, newest usage last). */
function makeTranscript(bytes: number): string {
  const file = path.join(work, `transcript-${bytes}.jsonl`);
  if (existsSync(file) && statSync(file).size >= bytes) return file;
  const parts = readdirSync(fixtures)
    .filter((f) => f.startsWith("spotter-") && f.endsWith(".jsonl"))
    .map((f) => readFileSync(path.join(fixtures, f)));
  const fd = openSync(file, "w");
  let written = 0;
  let i = 0;
  while (written < bytes) {
    const part = parts[i % parts.length]!;
    writeSync(fd, part);
    written += part.length;
    i += 1;
  }
  // End on a session whose last main-chain reply has usage, as a live transcript does.
  writeSync(fd, readFileSync(path.join(fixtures, "spotter-short.jsonl")));
  closeSync(fd);
  return file;
}

mkdirSync(work, { recursive: true });
// Once per node (Node 20 and 24): each child prints its own rows.
if (benchEveryNode(import.meta.filename, work)) process.exit();
const project = path.join(work, "project");
rmSync(project, { recursive: true, force: true });
mkdirSync(path.join(project, ".git"), { recursive: true });

const hook = path.join(root, "dist", "hooks", "userpromptsubmit.cjs");
console.log(
  `quoin-checkpoint bench: ${runs} runs each, alternating with node -e 0 (same stdin), node ${execFileSync(benchNode, ["-v"], { encoding: "utf8" }).trim()}, ${os.cpus().length} cores`,
);
const only = process.env["QUOIN_BENCH_ONLY"]; // e.g. "prompt" or "save,restore,statusline"
const wants = (name: string) => !only || only.split(",").includes(name);

const sizedTranscript = (label: string): string => {
  const bytes = BYTES[label];
  if (!bytes) throw new Error(`unknown size ${label}; expected 1MB, 100MB or 1GB`);
  return makeTranscript(bytes);
};

if (wants("prompt"))
  for (const label of sizes) {
    const transcript = sizedTranscript(label);
    const input = JSON.stringify({
      session_id: "bench-0000-0000-0000-000000000001",
      transcript_path: transcript,
      cwd: project,
      permission_mode: "default",
      hook_event_name: "UserPromptSubmit",
      prompt: "Refactor the parser and run the tests.",
    });
    const t = measure({ args: [hook], input, cwd: project }, runs);
    console.log(formatRow(`userpromptsubmit ${label} transcript`, t));
  }

// Other scenarios (save, restore, precompact, sessionstart) live in scripts/bench-<name>.ts and
// export a function (ctx) => void that prints its rows with formatRow.
const scenarios: Array<[string, (ctx: BenchContext) => void | Promise<void>]> = [
  ["save", benchSave],
  ["restore", benchRestore],
  ["digest", benchDigest],
  ["sessionend", benchSessionEnd],
  ["checkpoints", benchCheckpoints],
  ["statusline", benchStatusLine],
];
for (const [name, scenario] of scenarios)
  if (wants(name))
    await scenario({ root, work, runs, fixtures, sizes, makeTranscript: sizedTranscript });
