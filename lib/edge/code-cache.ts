import * as path from "node:path";
import { codeCacheDir, codeCacheStem } from "../core/code-cache-name.ts";

// The prompt hook runs before every prompt, and most of what it costs above a bare `node -e 0` is
// V8 compiling its functions the first time each runs (npm run bench; docs/performance.md).
// Node's own compile cache (module.enableCompileCache, 22.1+) stores only what was compiled before
// the module ran, which is almost nothing of a bundle. So the hook's file holds the bundle as a
// string, compiled here with V8's code cache made AFTER a run (createCachedData then holds every
// function that run compiled), kept outside any repository in the user's cache folder. A missing,
// stale or unreadable cache only costs the compile, once: V8 refuses a cache of another V8 or other
// flags, and the file's name carries the node and the build (V8 checks the source by length only).
// Only the CommonJS bundle runs this.

export interface CachedRun {
  /** the bundle's source: a CommonJS body */
  source: string;
  /** rarely needed code, compiled on first use (lib/edge/lazy-prompt-cold.ts) */
  cold?: string;
  /** the hook file: stack traces, __filename, the cache's key */
  filename: string;
  /** the source's content hash (scripts/build.ts): part of the cache's name */
  build: string;
  env: NodeJS.ProcessEnv;
}

const WRAP_HEAD = "(function (exports, require, module, __filename, __dirname, __quoinCold) {";
const WRAP_TAIL = "\n})";

type Body = (
  exports: unknown,
  require: NodeRequire,
  module: { exports: unknown },
  filename: string,
  dirname: string,
  cold: (() => unknown) | undefined,
) => void;

function compile(
  vm: typeof import("node:vm"),
  source: string,
  filename: string,
  cachedData?: Buffer,
): import("node:vm").Script {
  return new vm.Script(`${WRAP_HEAD}${source}${WRAP_TAIL}`, { filename, cachedData });
}

/**
 * The cache file, by the safe-file rule written out here (the loader runs before the bundle and
 * keeps lib/ off its path): O_NOFOLLOW, O_NONBLOCK (a FIFO there must not hang the prompt), a
 * regular file only.
 */
function readCache(fs: typeof import("node:fs"), file: string | null): Buffer | undefined {
  if (!file) return undefined;
  let fd = -1;
  try {
    const c = fs.constants;
    fd = fs.openSync(file, c.O_RDONLY | (c.O_NOFOLLOW ?? 0) | (c.O_NONBLOCK ?? 0));
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < st.size) {
      const n = fs.readSync(fd, buf, got, st.size - got, got);
      if (n <= 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } catch {
    return undefined;
  } finally {
    if (fd >= 0) fs.closeSync(fd);
  }
}

/** The caches of earlier builds of this hook for this node (`stem`): an upgrade leaves one file. */
function dropOtherBuilds(fs: typeof import("node:fs"), file: string, stem: string): void {
  const dir = path.dirname(file);
  const start = path.basename(stem);
  for (const name of fs.readdirSync(dir))
    if (name !== path.basename(file) && name.startsWith(start) && name.endsWith(".v8cache"))
      fs.rmSync(path.join(dir, name), { force: true });
}

/** Written at exit, so the cache holds what this run compiled; atomic, owner-only. */
function writeCacheAtExit(
  fs: typeof import("node:fs"),
  stem: string,
  file: string,
  script: import("node:vm").Script,
): void {
  process.once("exit", () => {
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      // "wx": a name that exists (a planted symlink) is never written through.
      fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600, flag: "wx" });
      fs.renameSync(tmp, file);
      dropOtherBuilds(fs, file, stem);
    } catch {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // nothing more to do: the next run compiles again
      }
    }
  });
}

/** Run a compiled CommonJS body as the hook file's module; what it exports. */
function runBody(
  script: import("node:vm").Script,
  filename: string,
  cold?: () => unknown,
): unknown {
  const mod = { exports: {} as unknown };
  const body = script.runInThisContext() as Body;
  body(mod.exports, require, mod, filename, path.dirname(filename), cold);
  return mod.exports;
}

/** Compile (with the code cache when it fits) and run the bundle; the cold part on first use. */
export function runCached(run: CachedRun): void {
  const fs = require("node:fs") as typeof import("node:fs");
  const vm = require("node:vm") as typeof import("node:vm");
  const dir = codeCacheDir(run.env);
  const stem = dir ? codeCacheStem(dir, run.filename, process.version, process.arch) : null;
  const file = stem ? `${stem}${run.build}.v8cache` : null;
  const cached = readCache(fs, file);
  let script: import("node:vm").Script;
  try {
    script = compile(vm, run.source, run.filename, cached);
  } catch {
    script = compile(vm, run.source, run.filename); // a cache V8 could not even read
  }
  if (stem && file && (!cached || script.cachedDataRejected))
    writeCacheAtExit(fs, stem, file, script);
  const coldSource = run.cold;
  const cold = coldSource
    ? () => runBody(compile(vm, coldSource, `${run.filename}#cold`), run.filename)
    : undefined;
  runBody(script, run.filename, cold);
}
