import * as path from "node:path";

// Where the prompt hook keeps V8's code cache (lib/edge/code-cache.ts), and what uninstall takes
// away: `${XDG_CACHE_HOME:-$HOME/.cache}/quoin-checkpoint/<hook>-<folder hash>-<node>-<arch>-<build>.v8cache`.

/** 32-bit FNV-1a of a string, hex: the install's folder in the cache file's name. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** `${XDG_CACHE_HOME:-$HOME/.cache}/quoin-checkpoint`, or null without either (absolute only). */
export function codeCacheDir(env: Readonly<Record<string, string | undefined>>): string | null {
  // NOTE: joined by hand, and the names below cut by hand: this runs at the prompt hook's start,
  // before anything else of the bundle, and path's normalising functions are kept off that path.
  const under = (dir: string | undefined, rest: string): string | null =>
    dir && path.isAbsolute(dir) ? `${dir.endsWith(path.sep) ? dir : dir + path.sep}${rest}` : null;
  const xdg = env["XDG_CACHE_HOME"];
  if (xdg) return under(xdg, "quoin-checkpoint");
  return under(env["HOME"], `.cache${path.sep}quoin-checkpoint`);
}

/** What every cache file of one hook file starts with, whatever node or build made it. */
export function codeCachePrefix(hookFile: string): string {
  const cut = Math.max(hookFile.lastIndexOf("/"), hookFile.lastIndexOf("\\"));
  const base = hookFile.slice(cut + 1);
  const dot = base.lastIndexOf(".");
  return `${dot > 0 ? base.slice(0, dot) : base}-${fnv1a(cut > 0 ? hookFile.slice(0, cut) : "/")}-`;
}

/**
 * The cache files of one hook file on one node (two nodes in turn would each refuse the other's);
 * the file is `<stem><build>.v8cache`. NOTE: `build` is the bundle's content hash, made by the
 * build: V8 checks a cache against its source by length only, so an upgrade of the same length
 * must not find the old one.
 */
export function codeCacheStem(dir: string, hookFile: string, node: string, arch: string): string {
  return `${dir}${path.sep}${codeCachePrefix(hookFile)}${node}-${arch}-`;
}
