import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { costLedgerPath } from "./memory-paths.ts";
import { utcDate } from "../core/time-format.ts";
import { appendByRule } from "../core/safe-file.ts";

/** `<uuid> | <date> | checkpoint | sonnet | task | <note> | 0` */
export function ledgerRow(sid: string | null, now: Date, note: string): string {
  return `${sid ?? "unknown"} | ${utcDate(now)} | checkpoint | sonnet | task | ${note.replace(/[|\r\n]/g, " ")} | 0`;
}

/**
 * Append one row to <root>/.workflow_artifacts/<task>/cost-ledger.md (O_APPEND: concurrent rows
 * interleave whole), only where that task folder already exists (quoin's workflow made it).
 * Anywhere else it would be the one path outside the ignored memory folder: null, nothing written.
 */
export function appendLedgerRow(fs: FsApi, root: string, task: string, row: string): string | null {
  const file = costLedgerPath(root, task);
  if (!fs.existsSync(path.dirname(file))) return null;
  // By the safe-file rule: a committed symlink (to ~/.profile) or FIFO here throws, unfollowed.
  appendByRule(fs, file, `${row}\n`);
  return file;
}
