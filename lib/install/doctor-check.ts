import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import type { InstallLayout } from "./install-layout.ts";
import {
  engineInstaller,
  installerCommand,
  scopeArgs,
  UNKNOWN_INSTALLER,
} from "./install-invocation.ts";
import { projectRootOf, recordedInvocation } from "./installs-present.ts";

// One row of doctor's table, and what every group of rows needs: the fix that reinstalls, in the
// words of the installer that made the install, and a timed run of a hook or of node.

export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** worth a look, not a failure (exit code unchanged) */
  warn?: boolean;
  detail: string;
  fix?: string;
}

/**
 * The fix that reinstalls `layout` (null: a first install), as the installer that made it runs
 * (its install state), else as the one beside this engine; never a form of another install.
 */
export function setupFix(deps: Deps, layout: InstallLayout | null): string {
  const inv = (layout && recordedInvocation(deps, layout)) ?? engineInstaller(deps);
  if (!inv) return UNKNOWN_INSTALLER;
  const args = layout ? scopeArgs(layout.scope, projectRootOf(layout)) : [];
  return `run ${installerCommand(inv, "install", args)}`;
}

export function timed(
  deps: Deps,
  cmd: string,
  args: string[],
  input: string,
): { ms: number; status: number | null } {
  const start = deps.now().getTime();
  const res = deps.run(cmd, args, { input, cwd: path.parse(deps.cwd).root, timeoutMs: 10_000 });
  return { ms: deps.now().getTime() - start, status: res.status };
}
