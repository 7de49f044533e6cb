import { engineInvocation, shellWord } from "../lib/core/shell-quote.ts";
import type { CliContext } from "./cli-context.ts";

/**
 * How a command the engine prints for a person to run next starts: the engine, then the session
 * and folder this run used (`node "<engine>" --session ID --cwd DIR`), so the printed command
 * runs as printed from any shell, even where the session was only found as the newest transcript.
 */
export function rerunEngine(ctx: CliContext): string {
  const session = ctx.session();
  const parts = [engineInvocation(ctx.deps)];
  if (session.ok) parts.push(`--session ${session.id}`);
  if (ctx.cwd !== ctx.deps.cwd) parts.push(`--cwd ${shellWord(ctx.cwd)}`);
  return parts.join(" ");
}
