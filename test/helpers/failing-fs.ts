import type { FsApi } from "../../lib/core/deps.ts";

/** Every write, link, rename and mkdir whose path `fails` names throws `code`, as a full disk or a read-only folder does. */
export function failing<T extends { fs: FsApi }>(
  deps: T,
  code: string,
  fails: (p: string) => boolean,
): T {
  const fs = deps.fs as FsApi & Record<string, unknown>;
  const wrap = (name: string, argsChecked: number) => {
    const real = (fs[name] as (...a: unknown[]) => unknown).bind(fs);
    fs[name] = (...args: unknown[]) => {
      for (const a of args.slice(0, argsChecked))
        if (typeof a === "string" && fails(a)) {
          const err = new Error(`${code}: injected, ${name} '${a}'`) as NodeJS.ErrnoException;
          err.code = code;
          err.path = a;
          throw err;
        }
      return real(...args);
    };
  };
  wrap("writeFileSync", 1);
  wrap("appendFileSync", 1);
  wrap("mkdirSync", 1);
  wrap("linkSync", 2);
  wrap("renameSync", 2);
  return deps;
}
