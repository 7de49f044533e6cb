import type { Deps } from "../core/deps.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { readKnobs } from "../core/knobs.ts";
import { renderStatusLine } from "../context/statusline.ts";
import { readStdin } from "./stdin.ts";
import { writeStdout } from "./std-write.ts";

/** A status line's stdin is a few KB; anything past this is not Claude Code's. */
const STATUSLINE_STDIN_CAP = 1024 * 1024;
const STATUSLINE_DEADLINE_MS = 4000;

/** `--wrap CMD` (or `--wrap=CMD`) from argv, the user's own status-line command. */
function wrapArg(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i] as string;
    if (a === "--wrap") return argv[i + 1];
    if (a.startsWith("--wrap=")) return a.slice("--wrap=".length);
  }
  return undefined;
}

/** `--quiet` before any `--wrap CMD`: record the window, print no gauge. */
function quietArg(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === "--quiet") return true;
    if (a === "--wrap" || a.startsWith("--wrap=")) return false;
  }
  return false;
}

/**
 * dist/statusline.cjs: one draw, exit 0 whatever happens. Knobs are parsed once, quietly: a
 * status line has nowhere to show a warning (the hooks and `doctor` report a bad knob).
 */
export async function runStatusLine(deps: Deps, argv: readonly string[]): Promise<void> {
  const deadline = setTimeout(() => process.exit(0), STATUSLINE_DEADLINE_MS);
  deadline.unref();
  try {
    const raw = (await readStdin(STATUSLINE_STDIN_CAP)) ?? "";
    const line = renderStatusLine(
      deps,
      raw,
      readKnobs(deps.env, () => {}),
      claudeConfigDir(deps.env, deps.home),
      wrapArg(argv),
      quietArg(argv),
    );
    if (line) writeStdout(`${line}\n`);
  } catch {
    // a status line never fails loudly
  }
  clearTimeout(deadline);
  process.exitCode = 0;
}
