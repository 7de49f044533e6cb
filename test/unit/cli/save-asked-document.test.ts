import { describe, expect, it } from "vitest";
import { saveCommand } from "../../../cli/commands/save.ts";
import { runCli } from "../../../cli/run-cli.ts";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { MEM, memWorld, NOW, SID, transcriptLine, type MemWorld } from "../../helpers/save-deps.ts";

function cli(w: MemWorld, argv: string[], stdin = "") {
  let stdout = "";
  const code = runCli(
    argv,
    w.deps,
    { stdout: (t) => (stdout += t), stderr: () => {}, readStdin: () => stdin },
    [saveCommand],
  );
  return { code, json: stdout ? JSON.parse(stdout) : null };
}

const TRANSCRIPT = `/home/u/.claude/projects/-home-u-proj/${SID}.jsonl`;
const KEPT = `${MEM}/asked-document-${SID}.txt`;
const DOC = JSON.stringify({
  task: "one-pipe",
  inProgress: "the user's parser: it's half done",
  decisions: ["don't escape apostrophes"],
});

describe("save: one pipe of the document (--ask-mode keeps it for --mode M --asked)", () => {
  it("--ask-mode keeps the document owner-only; the answer with no document saves it and deletes it", () => {
    const w = memWorld({ [TRANSCRIPT]: transcriptLine(20_000) });
    const ask = cli(w, ["save", "--session", SID, "--json", "--ask-mode", "--stdin-json"], DOC);
    expect(ask.json).toMatchObject({ ok: false, needsMode: true });
    expect(w.fs.statSync(KEPT).mode & 0o777).toBe(0o600);
    const saved = cli(w, ["save", "--session", SID, "--json", "--mode", "restore", "--asked"]);
    expect(saved.code).toBe(0);
    expect(saved.json).toMatchObject({ ok: true, mode: "restore", documentChars: DOC.length });
    expect(w.fs.existsSync(KEPT)).toBe(false);
    const text = w.fs.readFileSync(saved.json.checkpoint, "utf8") as string;
    expect(parseCheckpoint(text).inProgress).toBe("the user's parser: it's half done");
  });

  it("nothing kept, or kept longer than 10 minutes: exit 1, nothing written, asks for the document again", () => {
    const w = memWorld({ [TRANSCRIPT]: transcriptLine(20_000) });
    const before = w.files();
    const none = cli(w, ["save", "--session", SID, "--json", "--mode", "restore", "--asked"]);
    expect(none.code).toBe(1);
    expect(none.json.reason).toMatch(
      /^no document kept for this session .*--stdin-json with the document again$/,
    );
    expect(w.files()).toEqual(before);
    const old = new Date(NOW.getTime() - 11 * 60_000).toISOString();
    w.write(KEPT, `${old}\n${DOC}`);
    const expired = cli(w, ["save", "--session", SID, "--json", "--mode", "restore", "--asked"]);
    expect(expired.code).toBe(1);
    expect(expired.json.reason).toContain("older than 10 minutes");
    expect(w.fs.existsSync(KEPT)).toBe(false);
  });

  it("a document handed in again wins over a kept one, which is dropped; an over-budget document is said", () => {
    const w = memWorld({ [TRANSCRIPT]: transcriptLine(20_000) });
    w.write(KEPT, `${NOW.toISOString()}\n${DOC}`);
    const big = JSON.stringify({ task: "big", inProgress: "x".repeat(3200) });
    const r = cli(
      w,
      ["save", "--session", SID, "--json", "--mode", "restore", "--asked", "--stdin-json"],
      big,
    );
    expect(r.json.ok).toBe(true);
    expect(w.fs.existsSync(KEPT)).toBe(false);
    expect(r.json.warnings).toContain(
      `[checkpoint] the document was ${big.length} characters, over the 3000 budget`,
    );
  });
});
