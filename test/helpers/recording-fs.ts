import type { FsApi } from "../../lib/core/deps.ts";

/** One file the tool opened, or made or replaced by name (a rename's or a hard link's target). */
export interface Touch {
  op: "read" | "append" | "create" | "write" | "replace";
  file: string;
}

function openOp(fs: FsApi, flags: unknown): Touch["op"] {
  if (typeof flags === "string")
    return flags.startsWith("a") ? "append" : flags.startsWith("r") ? "read" : "write";
  const f = typeof flags === "number" ? flags : 0;
  const c = fs.constants;
  if (f & c.O_APPEND) return "append";
  if (f & c.O_EXCL) return "create";
  return f & (c.O_WRONLY | c.O_RDWR) ? "write" : "read";
}

function isFolder(fs: FsApi, file: string): boolean {
  try {
    return fs.lstatSync(file).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `fs` with every call that opens a file by name, or puts a file at a name, written to `touches`
 * before it runs (an open that then fails with ENOENT still names a path a repository could plant
 * something at). A rename that puts a folder into place (a new memory folder) is no file's.
 */
export function recordingFs(fs: FsApi, touches: Touch[]): FsApi {
  const note = (op: Touch["op"], file: unknown) => touches.push({ op, file: String(file) });
  const wrapped: Partial<Record<keyof FsApi, unknown>> = {
    openSync: ((file, flags, mode) => {
      note(openOp(fs, flags), file);
      return fs.openSync(file, flags, mode);
    }) as FsApi["openSync"],
    readFileSync: ((file: unknown, opts: unknown) => {
      if (typeof file !== "number") note("read", file);
      return (fs.readFileSync as (f: unknown, o: unknown) => unknown)(file, opts);
    }) as FsApi["readFileSync"],
    writeFileSync: ((file: unknown, data: unknown, opts: unknown) => {
      if (typeof file !== "number") note("write", file);
      return (fs.writeFileSync as (f: unknown, d: unknown, o: unknown) => void)(file, data, opts);
    }) as FsApi["writeFileSync"],
    appendFileSync: ((file: unknown, data: unknown, opts: unknown) => {
      if (typeof file !== "number") note("append", file);
      return (fs.appendFileSync as (f: unknown, d: unknown, o: unknown) => void)(file, data, opts);
    }) as FsApi["appendFileSync"],
    renameSync: ((from, to) => {
      fs.renameSync(from, to);
      if (!isFolder(fs, String(to))) note("replace", to);
    }) as FsApi["renameSync"],
    linkSync: ((from, to) => {
      note("create", to);
      fs.linkSync(from, to);
    }) as FsApi["linkSync"],
  };
  return new Proxy(fs, {
    get(target, prop, receiver) {
      if (typeof prop === "string" && prop in wrapped) return wrapped[prop as keyof FsApi];
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
