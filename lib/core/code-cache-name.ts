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
  // NOTE: joined by hand: the first path.join of a process costs about 0.3 ms (npm run bench).
  const under = (dir: string | undefined, rest: string): string | null =>
    dir && path.isAbsolute(dir) ? `${dir.endsWith(path.sep) ? dir : dir + path.sep}${rest}` : null;
  const xdg = env["XDG_CACHE_HOME"];
  if (xdg) return under(xdg, "quoin-checkpoint");
  return under(env["HOME"], `.cache${path.sep}quoin-checkpoint`);
}

/**
 * What every cache file of one hook file starts with, whatever node made it. NOTE: string cuts,
 * not path.basename/dirname: this runs before every prompt, and the name is all that is needed.
 */
export function codeCachePrefix(hookFile: string): string {
  const cut = Math.max(hookFile.lastIndexOf("/"), hookFile.lastIndexOf("\\"));
  const base = hookFile.slice(cut + 1);
  const dot = base.lastIndexOf(".");
  return `${dot > 0 ? base.slice(0, dot) : base}-${fnv1a(cut > 0 ? hookFile.slice(0, cut) : "/")}-`;
}

/**
 * One file per install folder, hook, node (two nodes in turn would each refuse the other's) and
 * build. NOTE: `build` is the bundle's content hash, made by the build: V8 checks a cache against
 * its source by length only, so an upgrade of the same length must not find the old one.
 */
export function codeCacheFile(
  dir: string,
  hookFile: string,
  node: string,
  arch: string,
  build: string,
): string {
  return `${dir}${path.sep}${codeCachePrefix(hookFile)}${node}-${arch}-${build}.v8cache`;
}
