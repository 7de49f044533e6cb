import { readTextByRule } from "../core/file-range.ts";
import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { utcIso } from "../core/time-format.ts";
import { parseCheckpoint } from "../store/checkpoint-parse.ts";
import { redactForSharing } from "./redact.ts";
import type { ShareGit } from "./share-git.ts";
import {
  safeSegment,
  SHARE_REF,
  sharePath,
  splitOriginHeader,
  withOriginHeader,
  type ShareOrigin,
} from "./share-tree.ts";

// One share as a commit on the local shared ref: the checkpoint chosen, redacted, given its origin
// header, and written with plumbing (hash-object, mktree, commit-tree, update-ref old -> new).

export type Refusal = { ok: false; reason: string; expected: string };

/** Who is sharing: git's user.name (what the remote already shows on commits), the host, the branch. */
export function shareOrigin(deps: Deps, git: ShareGit): ShareOrigin {
  const user = git.configValue("user.name") || deps.env["USER"] || deps.env["LOGNAME"] || "";
  const hostRun = deps.env["HOSTNAME"] ? null : deps.run("hostname", [], { timeoutMs: 2000 });
  const host = deps.env["HOSTNAME"] || (hostRun?.status === 0 ? hostRun.stdout.trim() : "");
  return { user, host, branch: git.currentBranch(), sharedAt: utcIso(deps.now()) };
}

export type RecordOutcome =
  | { ok: true; path: string; commit: string; changed: boolean; bytes: number }
  | Refusal;

const UPDATE_TRIES = 3;

/** The redacted checkpoint recorded at <task>/<session>/<name>; a second share of the same text adds no commit. */
export function recordShare(
  deps: Deps,
  git: ShareGit,
  opts: { file: string; root: string; launchCwd: string; origin: ShareOrigin },
): RecordOutcome {
  // An adopted shared checkpoint carries its first origin line; the new share gets its own.
  const raw = splitOriginHeader(readTextByRule(deps.fs, opts.file)).text;
  const parsed = parseCheckpoint(raw);
  const name = path.basename(opts.file);
  const where = {
    root: opts.root,
    home: deps.home,
    launchDirs: [opts.launchCwd],
    rootAliases: realAliases(deps, [opts.root, opts.launchCwd]),
    homeAliases: realAliases(deps, [deps.home]),
  };
  const blobText = withOriginHeader(opts.origin, redactForSharing(raw, where));
  const target = sharePath(parsed.task, parsed.sessionId, name);
  const blob = git.writeBlob(blobText);
  for (let attempt = 0; attempt < UPDATE_TRIES; attempt += 1) {
    const old = git.resolve(SHARE_REF);
    const tree = git.readTree(old);
    // The same checkpoint shared again: its text (origin time aside) is already there.
    if (old && tree.has(target) && sameCheckpoint(git, tree.get(target) as string, blobText))
      return { ok: true, path: target, commit: old, changed: false, bytes: blobText.length };
    tree.set(target, blob);
    const message = `quoin share: ${target}\n\nfrom ${safeSegment(opts.origin.user, "someone")} on branch ${safeSegment(opts.origin.branch, "HEAD")}\n`;
    const commit = git.commitTree(git.writeTree(tree), old ? [old] : [], message);
    if (git.updateRef(SHARE_REF, commit, old))
      return { ok: true, path: target, commit, changed: true, bytes: blobText.length };
  }
  return {
    ok: false,
    reason: `${SHARE_REF} kept moving under this share (another share running?)`,
    expected: "run share again",
  };
}

function sameCheckpoint(git: ShareGit, blobId: string, blobText: string): boolean {
  const body = (t: string) => t.slice(t.indexOf("\n") + 1);
  return body(git.readBlob(blobId)) === body(blobText);
}

/** The real paths of `dirs` where a symlink makes them differ (macOS /var -> /private/var). */
function realAliases(deps: Deps, dirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const d of dirs) {
    try {
      const real = deps.fs.realpathSync(d);
      if (real !== d) out.push(real);
    } catch {
      // a folder that is gone has no other spelling
    }
  }
  return out;
}
