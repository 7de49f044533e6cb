import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import * as path from "node:path";
import type { InstallScope } from "../../lib/install/install-layout.ts";
import { runInstall } from "../../lib/install/installer.ts";
import { nodeDeps } from "../../lib/edge/node-deps.ts";
import { tempDir } from "../helpers/temp-dirs.ts";
import {
  lastUserText,
  requestText,
  type MessagesBody,
  type Responder,
  type ScriptedReply,
} from "./loopback-model.ts";

// Helpers for e2e tests that drive an installed quoin skill with a scripted model: find what a
// model would read in the skill text, and answer with a fixed list of Bash commands.

/** The client's transcript of a session under `home` (`.claude/projects/<mangled cwd>/<sid>.jsonl`), if written. */
export function transcriptOf(home: string, sid: string): string | undefined {
  const projects = path.join(home, ".claude", "projects");
  if (!existsSync(projects)) return undefined;
  const found = readdirSync(projects, { recursive: true, encoding: "utf8" }).find(
    (f) => path.basename(f) === `${sid}.jsonl`,
  );
  return found ? path.join(projects, found) : undefined;
}

/** Marks a request that carries a rendered quoin skill (the preamble's pidfile section). */
export const SKILL_MARKER = "## 0c. Pidfile lifecycle";

/** The engine command and session id, as a model would copy them from the rendered skill text. */
export function engineFrom(text: string): { engine: string; session: string } {
  const engine = /`E` below stands for `(node '[^']+'|node "[^"]+")`/.exec(text)?.[1];
  const session = /--session ([0-9a-f-]{36})/.exec(text)?.[1];
  if (!engine || !session) throw new Error("the skill text did not reach the model");
  return { engine, session };
}

/** How many tool calls the conversation holds so far (the script's position). */
export function toolCallsSoFar(body: MessagesBody): number {
  return (body.messages ?? []).filter(
    (m) => m.role === "assistant" && JSON.stringify(m.content).includes('"tool_use"'),
  ).length;
}

/**
 * A responder that runs `commands(engine, session)` one Bash call at a time, then answers
 * `RELAY <last tool result>`. Requests without a quoin skill get "ok".
 */
export function scriptedCommands(
  commands: (engine: string, session: string) => string[],
): Responder {
  return (body): ScriptedReply => {
    const all = requestText(body);
    if (!all.includes(SKILL_MARKER)) return { kind: "text", text: "ok" };
    const { engine, session } = engineFrom(all);
    const next = commands(engine, session)[toolCallsSoFar(body)];
    if (next) return { kind: "tool_use", name: "Bash", input: { command: next } };
    return { kind: "text", text: `RELAY ${lastUserText(body).slice(0, 2000)}` };
  };
}

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** A fresh home and an empty git repository beside it, under one temp folder. */
export function tempProject(prefix: string): { home: string; project: string } {
  const base = tempDir(prefix);
  const home = path.join(base, "home");
  const project = path.join(base, "proj");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  spawnSync("git", ["init", "-q", project]);
  return { home, project };
}

/** The settings installer run for real on that home and project, from this checkout's dist/. */
export function installFromDist(env: { home: string; project: string }, scope: InstallScope): void {
  const outcome = runInstall(nodeDeps({ home: env.home, cwd: env.project, env: {} }), {
    scope,
    uninstall: false,
    dryRun: false,
    statusLine: false,
    distDir: path.join(ROOT, "dist"),
  });
  if (!outcome.ok) throw new Error(outcome.reason);
}

/**
 * A responder for "the installed skill runs": acquire the checkpoint pidfile, then answer `done`
 * once the engine's reply is back. `seen` gets the engine command the model read.
 */
export function acquireThenAnswer(done: string, seen: (engine: string) => void): Responder {
  return (body): ScriptedReply => {
    const all = requestText(body);
    if (!all.includes(SKILL_MARKER)) return { kind: "text", text: "ok" };
    const found = engineFrom(all);
    seen(found.engine);
    if (lastUserText(body).includes(") active: ")) return { kind: "text", text: done };
    return {
      kind: "tool_use",
      name: "Bash",
      input: { command: `${found.engine} pidfile acquire checkpoint --session ${found.session}` },
    };
  };
}
