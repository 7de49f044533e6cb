import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  E2E_CLIENT,
  requestText,
  runClaude,
  startLoopbackModel,
  type LoopbackModel,
} from "./loopback-model.ts";

// On both clients: which typed name reaches a skill called checkpoint. 2.1.332's
// built-in /rewind has the alias /checkpoint: a user-level skill (the settings install) still
// wins by exact name; a plugin's skill does not (in -p the built-in answers "/checkpoint isn't
// available in this environment", interactively it opens Rewind) and is reached by its
// plugin-qualified name. On 2.1.197 the bare name reached the plugin's skill too.

const MARKER = "SKILLBODY-MARKER-23";
const SKILL = `---\nname: checkpoint\ndescription: test skill\n---\n${MARKER}\n`;
let tmp: string;
let model: LoopbackModel;

function world(kind: "settings" | "plugin"): { home: string; project: string; args: string[] } {
  const root = fs.mkdtempSync(path.join(tmp, `${kind}-`));
  const home = path.join(root, "home");
  const project = path.join(home, "proj");
  fs.mkdirSync(path.join(project, ".git"), { recursive: true });
  fs.writeFileSync(path.join(project, ".git", "HEAD"), "ref: refs/heads/main\n");
  fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
  if (kind === "settings") {
    fs.mkdirSync(path.join(home, ".claude", "skills", "checkpoint"), { recursive: true });
    fs.writeFileSync(path.join(home, ".claude", "skills", "checkpoint", "SKILL.md"), SKILL);
    return { home, project, args: [] };
  }
  const plugin = path.join(root, "plugin");
  fs.mkdirSync(path.join(plugin, ".claude-plugin"), { recursive: true });
  fs.writeFileSync(
    path.join(plugin, ".claude-plugin", "plugin.json"),
    JSON.stringify({ name: "quoin-checkpoint", version: "0.1.0" }),
  );
  fs.mkdirSync(path.join(plugin, "skills", "checkpoint"), { recursive: true });
  fs.writeFileSync(path.join(plugin, "skills", "checkpoint", "SKILL.md"), SKILL);
  return { home, project, args: [`--plugin-dir=${plugin}`] };
}

async function reaches(kind: "settings" | "plugin", typed: string): Promise<boolean> {
  const w = world(kind);
  const before = model.messageBodies().length;
  const run = await runClaude({
    home: w.home,
    cwd: w.project,
    baseUrl: model.url,
    args: [typed, "--output-format=json", ...w.args],
  });
  expect(run.code).toBe(0);
  return model
    .messageBodies()
    .slice(before)
    .some((b) => requestText(b).includes(MARKER));
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-e2e-cmd-"));
  model = await startLoopbackModel(() => ({
    kind: "text",
    text: "ok",
    usage: { input_tokens: 100 },
  }));
});
afterAll(async () => {
  await model?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe(`which /checkpoint reaches quoin's skill (client ${E2E_CLIENT})`, () => {
  it("the settings install: /checkpoint, the user-level skill winning by exact name", async () => {
    expect(await reaches("settings", "/checkpoint")).toBe(true);
  }, 60_000);

  it("the plugin: /quoin-checkpoint:checkpoint always; the bare /checkpoint only before 2.1.332's /rewind alias", async () => {
    expect(await reaches("plugin", "/quoin-checkpoint:checkpoint")).toBe(true);
    expect(await reaches("plugin", "/checkpoint")).toBe(E2E_CLIENT === "oldest");
  }, 60_000);
});
