import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll } from "vitest";

// Temp folders for integration and e2e tests, removed when the file's tests are done (they hold
// only what the test wrote). Set QUOIN_KEEP_TEST_DIRS=1 to keep them for a look.

const created: string[] = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

afterAll(() => {
  if (process.env["QUOIN_KEEP_TEST_DIRS"]) return;
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});
