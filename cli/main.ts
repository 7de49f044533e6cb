import { readFileSync } from "node:fs";
import { nodeDeps } from "../lib/edge/node-deps.ts";
import type { Command } from "./command.ts";
import { runCli } from "./run-cli.ts";
import { statusCommand } from "./commands/status.ts";
import { statuslineCommand } from "./commands/statusline.ts";
import { saveCommand } from "./commands/save.ts";
import { deferCommand } from "./commands/defer.ts";
import { cleanupCommand } from "./commands/cleanup.ts";
import { restoreCommand } from "./commands/restore.ts";
import { listCommand } from "./commands/list.ts";
import { showCommand } from "./commands/show.ts";
import { successorCommand } from "./commands/successor.ts";
import { dispatchCommand } from "./commands/dispatch.ts";
import { pidfileCommand } from "./commands/pidfile.ts";
import { doctorCommand } from "./commands/doctor.ts";
import { snapshotCommand } from "./commands/snapshot.ts";
import { shareCommand } from "./commands/share.ts";
import { fetchCommand } from "./commands/fetch.ts";
import { writeStderr, writeStdout } from "../lib/edge/std-write.ts";
import { logRefusals } from "../lib/hooks/hook-log.ts";

/** Every engine subcommand, in the order `--help` lists them. */
const COMMANDS: readonly Command[] = [
  saveCommand,
  restoreCommand,
  deferCommand,
  cleanupCommand,
  statusCommand,
  statuslineCommand,
  successorCommand,
  listCommand,
  showCommand,
  dispatchCommand,
  pidfileCommand,
  doctorCommand,
  snapshotCommand,
  shareCommand,
  fetchCommand,
];

const deps = nodeDeps();
const code = runCli(
  process.argv.slice(2),
  deps,
  {
    stdout: writeStdout,
    stderr: writeStderr,
    readStdin: () => {
      try {
        return readFileSync(0, "utf8");
      } catch {
        return "";
      }
    },
  },
  COMMANDS,
);
// A file the safe-file rule refused (a symlink or FIFO in the tool's trees): once in the hook
// log, once on stderr.
for (const line of logRefusals(deps)) writeStderr(`[checkpoint] ${line}\n`);
process.exitCode = code;
