import * as fs from "node:fs";
import * as path from "node:path";
import { DIST } from "../helpers/run-bundle.ts";

// The world the hook e2e tests run the real client in: a scratch HOME, a project below it whose
// .git names a branch, and a user settings.json that runs the chosen built hooks (and, beside
// them, any recorder command a test adds). One place writes the settings, so every test's client
// sees the hooks the same way. The skill e2e tests use the real installer instead
// (skill-driver.ts installFromDist).

const BUNDLE = {
  SessionStart: "sessionstart",
  UserPromptSubmit: "userpromptsubmit",
  PreCompact: "precompact",
  SessionEnd: "sessionend",
} as const;
export type HookEvent = keyof typeof BUNDLE;

/** The matchers the installer writes (lib/install): fork only where a test asks for it. */
export const MATCHERS = {
  sessionStart: "startup|resume|clear|compact",
  sessionStartAndFork: "startup|resume|clear|compact|fork",
  preCompact: "manual|auto",
} as const;

export const hookCommand = (event: HookEvent): string =>
  `node ${JSON.stringify(path.join(DIST, "hooks", `${BUNDLE[event]}.cjs`))}`;

export interface HookWorldOptions {
  /** the branch .git/HEAD names (default main) */
  branch?: string;
  /** each hook to run, with its matcher ("" for none) */
  hooks: Partial<Record<HookEvent, string>>;
  /** commands run beside ours in the same group (a payload recorder) */
  besides?: Partial<Record<HookEvent, string[]>>;
  /** other top-level settings keys (model, env, ...) */
  settings?: Record<string, unknown>;
}

export interface HookWorld {
  home: string;
  project: string;
  settings: string;
  memory: string;
}

export function hookWorld(base: string, opts: HookWorldOptions): HookWorld {
  const home = path.join(base, "home");
  const project = path.join(home, "proj");
  fs.mkdirSync(path.join(project, ".git"), { recursive: true });
  fs.writeFileSync(
    path.join(project, ".git", "HEAD"),
    `ref: refs/heads/${opts.branch ?? "main"}\n`,
  );
  fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
  const hooks: Record<string, unknown[]> = {};
  for (const [event, matcher] of Object.entries(opts.hooks) as Array<[HookEvent, string]>) {
    const commands = [hookCommand(event), ...(opts.besides?.[event] ?? [])];
    hooks[event] = [
      {
        ...(matcher ? { matcher } : {}),
        hooks: commands.map((command) => ({ type: "command", command, timeout: 10 })),
      },
    ];
  }
  const settings = path.join(home, ".claude", "settings.json");
  fs.writeFileSync(settings, JSON.stringify({ ...opts.settings, hooks }, null, 2));
  return { home, project, settings, memory: path.join(project, ".workflow_artifacts", "memory") };
}
