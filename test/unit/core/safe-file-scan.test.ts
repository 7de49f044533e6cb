import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { OWN_PATHS } from "../../../lib/store/own-paths.ts";
import { SENTINEL_FAMILIES } from "../../../lib/store/sentinels.ts";
import { SESSION_STATE_KINDS } from "../../../lib/store/session-registry.ts";
import { memoryPaths } from "../../../lib/store/memory-paths.ts";

// Every open, read, append or write of a file by name goes through lib/core/safe-file.ts (a
// regular file, no symlink in the tool's trees, non-blocking). A raw call anywhere else fails
// here, unless it is in this list with its reason.
const REPO = path.resolve(import.meta.dirname, "../../..");
const RAW =
  /\b(readFileSync|writeFileSync|appendFileSync|openSync|createReadStream|createWriteStream|copyFileSync|cpSync)\s*\(/g;

const ALLOWED: ReadonlyArray<{ file: string; call: string; why: string }> = [
  { file: "lib/core/safe-file.ts", call: "openSync", why: "the module that owns the rule" },
  {
    file: "lib/edge/code-cache.ts",
    call: "openSync",
    why: "the prompt hook's loader reads its code cache before the bundle runs: the same rule written out (O_NOFOLLOW, O_NONBLOCK, fstat)",
  },
  {
    file: "lib/edge/code-cache.ts",
    call: "writeFileSync",
    why: "the loader's temp file, flag wx (O_EXCL: never through a symlink), renamed into place",
  },
  {
    file: "lib/hooks/fork-parent.ts",
    call: "readFileSync",
    why: "/proc/<pid>/cmdline: procfs, not a tree of the tool's",
  },
  { file: "lib/store/session-liveness.ts", call: "readFileSync", why: "/proc/<pid>/stat: procfs" },
  { file: "cli/main.ts", call: "readFileSync", why: "fd 0: the engine's own stdin" },
  {
    file: "cli/bin-entry.ts",
    call: "readFileSync",
    why: "the package's own package.json beside the bundle",
  },
  {
    file: "cli/installer-entry.ts",
    call: "readFileSync",
    why: "the package's own package.json beside the bundle",
  },
  {
    file: "install.ts",
    call: "readFileSync",
    why: "the checkout's own package.json (a developer's install)",
  },
];

function sources(): string[] {
  const out: string[] = ["install.ts"];
  for (const dir of ["lib", "cli", "hooks"])
    for (const f of readdirSync(path.join(REPO, dir), { recursive: true, encoding: "utf8" }))
      if (f.endsWith(".ts")) out.push(`${dir}/${f.split(path.sep).join("/")}`);
  return out.sort();
}

const withoutComments = (src: string) =>
  src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|\s)\/\/.*$/gm, "$1");

describe("the safe-file rule's one module", () => {
  it("no raw fs open, read, append or write outside lib/core/safe-file.ts but the listed ones", () => {
    const found: string[] = [];
    for (const file of sources()) {
      if (file === "lib/core/deps.ts") continue; // the FsApi type names the calls
      const code = withoutComments(readFileSync(path.join(REPO, file), "utf8"));
      for (const m of code.matchAll(RAW)) {
        const call = m[1] as string;
        if (!ALLOWED.some((a) => a.file === file && a.call === call))
          found.push(`${file}: ${call}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("the path table names every sentinel family, every state kind and every file of the memory paths", () => {
    const names = OWN_PATHS.map((p) => p.path);
    for (const family of SENTINEL_FAMILIES) expect(names).toContain(`${family}-<sid>.txt`);
    for (const kind of SESSION_STATE_KINDS) expect(names).toContain(`state/${kind}-<sid>.json`);
    const paths = memoryPaths("/p");
    for (const [key, value] of Object.entries(paths))
      if (/\.(md|json|log)$/.test(value))
        expect(names, key).toContain(path.relative(paths.memory, value));
  });
});
