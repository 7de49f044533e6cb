import { readFileSync } from "node:fs";
import { nodeDeps } from "../lib/edge/node-deps.ts";
import { ENGINE_COMMANDS } from "./engine-commands.ts";
import { runCli } from "./run-cli.ts";
import { writeStderr, writeStdout } from "../lib/edge/std-write.ts";
import { logRefusals } from "../lib/hooks/hook-log.ts";

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
  ENGINE_COMMANDS,
);
// A file the safe-file rule refused (a symlink or FIFO in the tool's trees): once in the hook
// log, once on stderr.
for (const line of logRefusals(deps)) writeStderr(`[checkpoint] ${line}\n`);
process.exitCode = code;
