import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../lib/store/checkpoint-format.ts";
import { requestText, runClaude, startLoopbackModel, type LoopbackModel } from "./loopback-model.ts";
import { installFromDist, scriptedCommands, tempProject } from "./skill-driver.ts";

// Issue 9 under the real client: /checkpoint hands the model's own state to the engine as one JSON
// document (`echo -E '<json>' | E save --json --stdin-json`, the way in that the skill's
// allowed-tools accept without a prompt), and a fresh session's /checkpoint --restore gets those
// fields back.

/** The tool results the model was sent, newest last. */
function toolResults(model: LoopbackModel): string[] {
  const out: string[] = [];
  for (const body of model.messageBodies()) {
    const last = body.messages?.at(-1);
    if (Array.isArray(last?.content)) for (const b of last.content as Array<{ type?: string; content?: unknown }>) if (b.type === "tool_result") out.push(requestText({ messages: [{ role: "user", content: [b] }] }));
  }
  return out;
}

// $HOME, an apostrophe, double quotes and & in values: what a model writes about code.
const DOC = {
  task: "csv-export",
  intent: "Add CSV export to the report page; it's for the $HOME \"finance\" team & ops",
  done: ["T-1 exporter module in lib/csv-export.ts"],
  inProgress: "T-2 wiring the download button in lib/report.ts",
  nextUp: [{ item: "T-3 document the export", prerequisitesMet: false }],
  blockers: ["staging is down until Monday"],
  decisions: ["stream rows instead of building one string"],
  openQuestions: ["does the export include archived rows?"],
};
const shellSingleQuoted = (s: string) => s.replace(/'/g, `'\\''`);

describe("e2e: /checkpoint passes the model's state; a fresh session's --restore receives it", { timeout: 120_000 }, () => {
  let home = "";
  let project = "";
  let model: LoopbackModel | undefined;
  beforeAll(() => {
    ({ home, project } = tempProject("quoin-e2e-digest-"));
    installFromDist({ home, project }, "user");
  });
  afterAll(async () => model?.close());

  it("the skill's echo -E pipe reaches save --stdin-json with no permission prompt, and every field lands in the checkpoint", async () => {
    model = await startLoopbackModel(
      scriptedCommands((engine, sid) => [
        `${engine} pidfile acquire checkpoint --session ${sid}`,
        `echo -E '${shellSingleQuoted(JSON.stringify(DOC))}' | ${engine} save --json --stdin-json --session ${sid}`,
      ]),
    );
    const run = await runClaude({ home, cwd: project, baseUrl: model.url, args: ["/checkpoint", "--output-format=json"] });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { permission_denials: unknown[] }).permission_denials).toEqual([]);
    const answer = JSON.parse(toolResults(model).at(-1) ?? "{}") as { ok: boolean; checkpoint: string };
    expect(answer.ok).toBe(true);
    expect(path.basename(answer.checkpoint)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{4}-csv-export\.md$/);
    const p = parseCheckpoint(fs.readFileSync(answer.checkpoint, "utf8"));
    expect(p).toMatchObject({ task: "csv-export", intent: DOC.intent, inProgress: DOC.inProgress, done: DOC.done, blockers: DOC.blockers, nextUp: DOC.nextUp });
    expect(p.decisions).toContain(DOC.decisions[0]);
    expect(p.openQuestions).toContain(DOC.openQuestions[0]);
    await model.close();
    model = undefined;
  });

  it("a fresh session's /checkpoint --restore shows those fields", async () => {
    model = await startLoopbackModel(scriptedCommands((engine, sid) => [`${engine} pidfile acquire checkpoint --session ${sid}`, `${engine} restore --json --session ${sid}`]));
    const run = await runClaude({ home, cwd: project, baseUrl: model.url, args: ["/checkpoint --restore"] });
    expect(run.code).toBe(0);
    const j = JSON.parse(toolResults(model).at(-1) ?? "{}") as Record<string, any>;
    expect(j["action"]).toBe("restore");
    expect(j["task"]).toBe("csv-export");
    expect(j["intent"]).toBe(DOC.intent);
    expect(j["session"]).toMatchObject({ done: DOC.done, inProgress: DOC.inProgress, nextUp: DOC.nextUp, blockers: DOC.blockers, decisions: DOC.decisions });
    expect(j["openQuestions"]).toEqual(DOC.openQuestions);
    expect((j["show"] as string[]).join("\n")).toContain(`In progress: ${DOC.inProgress}`);
    expect((j["next"] as string[]).join("\n")).toMatch(/ask the user what to do next/i);
    await model.close();
    model = undefined;
  });
});
