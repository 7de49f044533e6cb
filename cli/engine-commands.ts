import type { Command } from "./command.ts";
import { cleanupCommand } from "./commands/cleanup.ts";
import { deferCommand } from "./commands/defer.ts";
import { dispatchCommand } from "./commands/dispatch.ts";
import { doctorCommand } from "./commands/doctor.ts";
import { fetchCommand } from "./commands/fetch.ts";
import { listCommand } from "./commands/list.ts";
import { pidfileCommand } from "./commands/pidfile.ts";
import { restoreCommand } from "./commands/restore.ts";
import { saveCommand } from "./commands/save.ts";
import { shareCommand } from "./commands/share.ts";
import { showCommand } from "./commands/show.ts";
import { snapshotCommand } from "./commands/snapshot.ts";
import { statusCommand } from "./commands/status.ts";
import { statuslineCommand } from "./commands/statusline.ts";
import { successorCommand } from "./commands/successor.ts";

/**
 * Every engine subcommand, in the order `--help` lists them. Its own module (main.ts runs the
 * engine when imported), so the tests read the same list the engine runs.
 */
export const ENGINE_COMMANDS: readonly Command[] = [
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
