import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { CLAUDE_BIN, E2E_CLIENT, E2E_CLIENTS } from "./loopback-model.ts";

// The real client run interactively, for what `claude -p` never does (the status line draws only
// in the interactive client). util-linux `script` gives it a pseudo-terminal: no native module to
// build. The screen is kept as text without escape sequences; keys are written to its stdin.

/** util-linux `script` (on every Linux CI image; BSD's takes other flags) gives the client a terminal. */
export const HAS_SCRIPT = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;

/**
 * What the first interactive start asks before the prompt box, answered in ~/.claude.json as the
 * client stores the answers: the onboarding (theme), the custom API key's approval (by its last
 * 20 characters) and the workspace trust for `project` (hooks from settings wait for it).
 */
export function skipFirstRunDialogs(home: string, project: string, apiKey: string): void {
  const file = path.join(home, ".claude.json");
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    // none yet
  }
  writeFileSync(
    file,
    JSON.stringify({
      ...current,
      hasCompletedOnboarding: true,
      lastOnboardingVersion: E2E_CLIENTS[E2E_CLIENT].version,
      theme: "dark",
      customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
      projects: { [project]: { hasTrustDialogAccepted: true } },
    }),
  );
}

/** Terminal output as plain text: escape sequences (CSI, OSC, two-byte) and CRs removed. */
export function plainText(raw: string): string {
  return raw
    .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, "")
    .replace(/\x1b\[[0-9;?<>=]*[ -/]*[@-~]/g, "")
    .replace(/\x1b[()][0-9A-Za-z]/g, "")
    .replace(/\x1b[@-_]/g, "")
    .replace(/\r/g, "");
}

/** The client draws spaces as cursor moves: compare text with all white space removed. */
const squeeze = (s: string): string => s.replace(/\s+/g, "");

export interface PtyClient {
  /** everything drawn so far, as plain text */
  screen: () => string;
  /** whether the screen showed `text` (white space ignored) */
  showed: (text: string) => boolean;
  /** wait until `done()` holds, at most `ms`; throws naming `what` with the screen's tail */
  waitFor: (what: string, done: () => boolean, ms: number) => Promise<void>;
  /** type `text`, wait for its echo, then press Enter */
  submit: (text: string, ms?: number) => Promise<void>;
  /** kill the client (SIGKILL) and wait for the terminal to close */
  stop: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Start the pinned client interactively in a 120x40 pseudo-terminal, offline against `baseUrl`,
 * with `home` as HOME. Call skipFirstRunDialogs first.
 */
export function startPtyClient(opts: {
  home: string;
  cwd: string;
  baseUrl: string;
  apiKey: string;
  args?: string[];
  env?: Record<string, string>;
}): PtyClient {
  if (!HAS_SCRIPT)
    throw new Error(
      "the interactive e2e tests need util-linux `script` (package util-linux or bsdutils)",
    );
  const env: Record<string, string> = {};
  for (const key of ["PATH", "TZ", "SHELL", "USER", "LOGNAME", "TMPDIR"]) {
    const v = process.env[key];
    if (v !== undefined) env[key] = v;
  }
  Object.assign(env, {
    HOME: opts.home,
    // A terminal as a person's: UTF-8 (the client's box and prompt characters), 256 colours.
    LANG: process.env["LANG"]?.match(/utf-?8/i) ? process.env["LANG"] : "C.UTF-8",
    TERM: "xterm-256color",
    ANTHROPIC_BASE_URL: opts.baseUrl,
    ANTHROPIC_API_KEY: opts.apiKey,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    ...opts.env,
  });
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  // stty: a terminal `script` opens has no size when its own stdin is not a terminal.
  const command = `stty cols 120 rows 40; exec ${[CLAUDE_BIN, ...(opts.args ?? [])].map(quote).join(" ")}`;
  const child: ChildProcess = spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: opts.cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let raw = "";
  let closed = false;
  child.stdout?.on("data", (c: Buffer) => (raw += c.toString("utf8")));
  child.stderr?.on("data", (c: Buffer) => (raw += c.toString("utf8")));
  const exited = new Promise<void>((resolve) => {
    child.on("close", () => {
      closed = true;
      resolve();
    });
    child.on("error", (err) => {
      raw += `\n[could not start script: ${err.message}]`;
      closed = true;
      resolve();
    });
  });
  const screen = () => plainText(raw);
  const showed = (text: string) => squeeze(screen()).includes(squeeze(text));
  const waitFor = async (what: string, done: () => boolean, ms: number) => {
    const until = Date.now() + ms;
    while (!done()) {
      if (closed || Date.now() > until)
        throw new Error(
          `${closed ? "the client exited" : `${ms} ms passed`} before ${what}; screen ends:\n${screen().slice(-1500)}`,
        );
      await sleep(50);
    }
  };
  return {
    screen,
    showed,
    waitFor,
    submit: async (text, ms = 10_000) => {
      const before = squeeze(screen()).length;
      child.stdin?.write(text);
      await waitFor(
        `the prompt box showed ${JSON.stringify(text)}`,
        () => squeeze(screen()).slice(before).includes(squeeze(text)),
        ms,
      );
      child.stdin?.write("\r");
    },
    stop: async () => {
      if (closed) return;
      // `script` runs the client as its only child (`exec`); killing it closes the terminal.
      let kids = "";
      try {
        kids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8");
      } catch {
        // script has ended
      }
      for (const pid of kids.split(/\s+/).filter(Boolean)) {
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {
          // gone already
        }
      }
      const forced = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(forced);
    },
  };
}
