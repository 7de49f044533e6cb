import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import { ENGINE, ensureBuilt, runNode, tempRepo } from "../helpers/save-repo.ts";

beforeAll(ensureBuilt);

// A save of a session whose transcript is not where the engine looks (the engine run with another
// HOME than the client's): every section from the transcript says it is unknown, not "(none)";
// the uncommitted files are git status's, marked so; the session link keeps the seed's lines and
// says the transcript was not there; the answer says so in one line.

const SID = "12345678-1234-4234-8234-123456789abc";

describe("a save with --session of a session whose transcript is absent", () => {
  it("says unknown where the transcript would have spoken, once in the answer", () => {
    const repo = tempRepo();
    writeFileSync(path.join(repo.root, "project_review_live.ex"), "x\n");
    const r = runNode(ENGINE, ["save", "--json", "--session", SID, "--mode", "restore"], {
      cwd: repo.root,
      env: repo.env,
    });
    expect(r.code).toBe(0);
    const out = `${r.stdout}\n${r.stderr}`;
    expect(out.split("\n").filter((l) => l.includes("transcript")).length).toBe(1);
    const said = out.split("\n").find((l) => l.includes("no transcript at"))!;
    const missing = /no transcript at (\S+\.jsonl)/.exec(said)![1]!;
    expect(missing).toContain(SID);
    const text = readFileSync(JSON.parse(r.stdout).checkpoint, "utf8");
    const unknown = `(unknown: no transcript at ${missing})`;
    const section = (title: string) =>
      new RegExp(`(?:^|\\n)## ${title}\\n([\\s\\S]*?)(?=\\n## |$(?![\\s\\S]))`).exec(text)?.[1] ??
      "";
    expect(section("Last user intent").trim()).toBe(unknown);
    expect(section("Completed this session").trim()).toBe(unknown);
    expect(section("Uncommitted")).toContain(
      "(git status's files: not known to be this session's)",
    );
    expect(section("Uncommitted")).toContain("- project_review_live.ex (untracked)");
    expect(section("Session link")).toContain(`- Resume: claude --resume ${SID}`);
    expect(section("Session link")).toContain(`- (the transcript was not found at ${missing})`);
    expect(text).not.toMatch(/## (Completed this session|Last user intent)\n\(none\)/);
    // read back: the marks survive the parser
    const p = parseCheckpoint(text);
    expect(p.values.uncommitted?.notKnown).toBe(true);
    expect(p.values.sessionLink?.missing).toBe(missing);
  });
});
