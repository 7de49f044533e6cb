import { readFileSync } from "node:fs";
import * as path from "node:path";

// The package's bin (dist/bin.cjs): a dispatcher, so neither bundle grows. install and uninstall
// load the installer bundle; every other command loads the engine, as the hooks and skills do.
// Both stay external (scripts/build.ts): they are the files beside this one.

const dir = import.meta.dirname;
const [cmd] = process.argv.slice(2);

function version(): string {
  return (
    JSON.parse(readFileSync(path.join(dir, "..", "package.json"), "utf8")) as { version: string }
  ).version;
}

if (cmd === "--version" || cmd === "-v" || cmd === "version") {
  process.stdout.write(`${version()}\n`);
} else if (cmd === "install" || cmd === "uninstall") {
  require("./installer.cjs");
} else {
  if (!cmd || cmd === "--help" || cmd === "-h" || cmd === "help")
    process.stdout.write(
      "quoin-checkpoint install [--scope user|project] [--project DIR] [--statusline | --no-statusline] [--dry-run]\nquoin-checkpoint uninstall [--scope user|project] [--project DIR] [--dry-run]\nquoin-checkpoint --version\n\n",
    );
  // The engine names itself in its messages (node-deps engineScript reads argv[1]).
  process.argv[1] = path.join(dir, "quoin-checkpoint.cjs");
  require("./quoin-checkpoint.cjs");
}
