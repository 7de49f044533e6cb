import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST } from "../helpers/run-bundle.ts";
import { tempDir } from "../helpers/temp-dirs.ts";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import {
  requestText,
  runClaude,
  startLoopbackModel,
  type LoopbackModel,
  type MessagesBody,
} from "./loopback-model.ts";
import { installFromDist, scriptedCommands, tempProject, toolCallsSoFar } from "./skill-driver.ts";

// Under the real client: /checkpoint hands the model's own state to the engine as one JSON
// document (`echo -E '<json>' | E save --json --stdin-json`, the way in that the skill's
// allowed-tools accept without a prompt), a fresh session's /checkpoint --restore gets those
// fields back, and after a real /compact the SessionStart note names the newest changed file.

/** The tool results the model was sent, newest last. */
function toolResults(model: LoopbackModel): string[] {
  const out: string[] = [];
  for (const body of model.messageBodies()) {
    const last = body.messages?.at(-1);
    if (Array.isArray(last?.content))
      for (const b of last.content as Array<{ type?: string; content?: unknown }>)
        if (b.type === "tool_result")
          out.push(requestText({ messages: [{ role: "user", content: [b] }] }));
  }
  return out;
}

// $HOME, an apostrophe, double quotes and & in values: what a model writes about code.
const DOC = {
  task: "csv-export",
  intent: 'Add CSV export to the report page; it\'s for the $HOME "finance" team & ops',
  done: ["T-1 exporter module in lib/csv-export.ts"],
  inProgress: "T-2 wiring the download button in lib/report.ts",
  nextUp: [{ item: "T-3 document the export", prerequisitesMet: false }],
  blockers: ["staging is down until Monday"],
  decisions: ["stream rows instead of building one string"],
  openQuestions: ["does the export include archived rows?"],
};
const shellSingleQuoted = (s: string) => s.replace(/'/g, `'\\''`);

describe("e2e: /checkpoint passes the model's state; a fresh session's --restore receives it", {
  timeout: 120_000,
}, () => {
  // Both sessions run here, in order, so each \`it\` below only reads what they left: any order of
  // the \`it\`s (or one alone) sees the same runs.
  const saved = {
    denials: [] as unknown[],
    code: -1 as number | null,
    answer: {} as { ok?: boolean; checkpoint?: string },
  };
  const restored = { code: -1 as number | null, json: {} as Record<string, any> };
  beforeAll(async () => {
    const { home, project } = tempProject("quoin-e2e-digest-");
    installFromDist({ home, project }, "user");
    const session = async (steps: (engine: string, sid: string) => string[], args: string[]) => {
      const model = await startLoopbackModel(
        scriptedCommands((engine, sid) => [
          `${engine} pidfile acquire checkpoint --session ${sid}`,
          ...steps(engine, sid),
        ]),
      );
      try {
        const run = await runClaude({ home, cwd: project, baseUrl: model.url, args });
        return { run, last: toolResults(model).at(-1) ?? "{}" };
      } finally {
        await model.close();
      }
    };
    const save = await session(
      (engine, sid) => [
        `echo -E '${shellSingleQuoted(JSON.stringify(DOC))}' | ${engine} save --json --stdin-json --session ${sid}`,
      ],
      ["/checkpoint", "--output-format=json"],
    );
    saved.code = save.run.code;
    saved.denials = (
      JSON.parse(save.run.stdout) as { permission_denials: unknown[] }
    ).permission_denials;
    saved.answer = JSON.parse(save.last) as typeof saved.answer;
    const restore = await session(
      (engine, sid) => [`${engine} restore --json --session ${sid}`],
      ["/checkpoint --restore"],
    );
    restored.code = restore.run.code;
    restored.json = JSON.parse(restore.last) as Record<string, any>;
  }, 120_000);

  it("the skill's echo -E pipe reaches save --stdin-json with no permission prompt, and every field lands in the checkpoint", () => {
    expect(saved.code).toBe(0);
    expect(saved.denials).toEqual([]);
    expect(saved.answer.ok).toBe(true);
    const checkpoint = saved.answer.checkpoint ?? "";
    expect(path.basename(checkpoint)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{4}-csv-export\.md$/);
    const p = parseCheckpoint(fs.readFileSync(checkpoint, "utf8"));
    expect(p).toMatchObject({
      task: "csv-export",
      intent: DOC.intent,
      inProgress: DOC.inProgress,
      done: DOC.done,
      blockers: DOC.blockers,
      nextUp: DOC.nextUp,
    });
    expect(p.decisions).toContain(DOC.decisions[0]);
    expect(p.openQuestions).toContain(DOC.openQuestions[0]);
  });

  it("a fresh session's /checkpoint --restore shows those fields", () => {
    expect(restored.code).toBe(0);
    const j = restored.json;
    expect(j["action"]).toBe("restore");
    // each fact once: the task, the intent, the model's notes and open questions are the brief's lines
    const show = (j["show"] as string[]).join("\n");
    expect(show).toContain("Resuming task: csv-export. Branch: ");
    expect(show).toContain(`. Last intent: ${DOC.intent}.`);
    expect(show).toContain("Checkpoint kind: curated");
    for (const d of DOC.done) expect(show).toContain(`  - ${d}`);
    expect(show).toContain(`In progress: ${DOC.inProgress}`);
    for (const n of DOC.nextUp) expect(show).toContain(`Next up: ${n.item}`);
    for (const b of DOC.blockers) expect(show).toContain(`Blocker (re-check): ${b}`);
    for (const d of DOC.decisions) expect(show).toContain(`Decision: ${d}`);
    for (const q of DOC.openQuestions) expect(show).toContain(`  - ${q}`);
    expect((j["next"] as string[]).join("\n")).toContain("ask the user what to do next");
  });
});

describe("e2e: after a real /compact, SessionStart(compact) names the newest changed file", {
  timeout: 240_000,
}, () => {
  let tmp = "";
  let home = "";
  let project = "";
  let model: LoopbackModel;
  const hook = (name: string) => `node ${JSON.stringify(path.join(DIST, "hooks", `${name}.cjs`))}`;

  beforeAll(async () => {
    tmp = tempDir("quoin-e2e-compact-digest-");
    home = path.join(tmp, "home");
    project = path.join(home, "proj");
    fs.mkdirSync(path.join(project, ".git"), { recursive: true });
    fs.writeFileSync(path.join(project, ".git", "HEAD"), "ref: refs/heads/feat/widget\n");
    fs.mkdirSync(path.join(project, "src"), { recursive: true });
    fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
    const entry = (name: string, matcher?: string) => [
      {
        ...(matcher ? { matcher } : {}),
        hooks: [{ type: "command", command: hook(name), timeout: 10 }],
      },
    ];
    fs.writeFileSync(
      path.join(home, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          SessionStart: entry("sessionstart", "startup|resume|clear|compact"),
          UserPromptSubmit: entry("userpromptsubmit"),
          PreCompact: entry("precompact", "manual|auto"),
        },
      }),
    );
    model = await startLoopbackModel((body: MessagesBody) => {
      // The compaction request asks for a summary in its last user turn (the system prompt always says "summary").
      const all = requestText({ messages: body.messages });
      if (/create a detailed summary|summary of the conversation/i.test(all))
        return { kind: "text", text: "Summary: we built a widget." };
      if (all.includes("build the widget") && toolCallsSoFar(body) === 0) {
        return {
          kind: "tool_use",
          name: "Write",
          input: {
            file_path: path.join(project, "src", "widget.ts"),
            content: "export const widget = 1;\n",
          },
        };
      }
      return { kind: "text", text: "noted" };
    });
  });
  afterAll(async () => model?.close());

  it("the re-entry note carries the newest request and src/widget.ts", async () => {
    const ask = (args: string[]) => runClaude({ home, cwd: project, baseUrl: model.url, args });
    const first = await ask([
      "build the widget",
      "--output-format=json",
      "--permission-mode=acceptEdits",
    ]);
    expect(first.code).toBe(0);
    expect(fs.existsSync(path.join(project, "src", "widget.ts"))).toBe(true);
    const sid = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    expect((await ask(["--resume", sid, "now make it blue"])).code).toBe(0);
    expect((await ask(["--resume", sid, "/compact"])).code).toBe(0);

    const memory = path.join(project, ".workflow_artifacts", "memory");
    const checkpoint = fs
      .readFileSync(path.join(memory, `pending-restore-${sid}.txt`), "utf8")
      .trim();
    expect(path.basename(checkpoint)).toMatch(/^\d{4}-\d{2}-\d{2}-feat-widget-precompact\.md$/);
    const p = parseCheckpoint(fs.readFileSync(checkpoint, "utf8"));
    expect(p.digest.changed.map((f) => f.path)).toEqual(["src/widget.ts"]);

    expect((await ask(["--resume", sid, "what next?"])).code).toBe(0);
    const last = requestText(model.messageBodies().at(-1));
    expect(last).toContain("what next?");
    // The first prompt after the compaction carries what the summary ("we built a widget") dropped.
    expect(last).toContain("Newest changed file: src/widget.ts");
    expect(last).toContain("The summary kept 0 of 1 paths");
    expect(last).toContain("now make it blue");
  });
});
