import * as path from "node:path";

// Where the prompt hook keeps V8's code cache (lib/edge/code-cache.ts), and what uninstall takes
// away: `${XDG_CACHE_HOME:-$HOME/.cache}/quoin-checkpoint/<hook>-<folder hash>-<node>-<arch>.v8cache`.

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
  const xdg = env["XDG_CACHE_HOME"];
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "quoin-checkpoint");
  const home = env["HOME"];
  return home && path.isAbsolute(home) ? path.join(home, ".cache", "quoin-checkpoint") : null;
}

/** What every cache file of one hook file starts with, whatever node made it. */
export function codeCachePrefix(hookFile: string): string {
  const name = path.basename(hookFile, path.extname(hookFile));
  return `${name}-${fnv1a(path.dirname(hookFile))}-`;
}

/** One file per install folder, hook and node (two nodes in turn would each refuse the other's). */
export function codeCacheFile(dir: string, hookFile: string, node: string, arch: string): string {
  return path.join(dir, `${codeCachePrefix(hookFile)}${node}-${arch}.v8cache`);
}
