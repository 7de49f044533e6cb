import { ShareGit } from "../../lib/share/share-git.ts";
import { fetchShares, pickRemote, pushShares } from "../../lib/share/share-push.ts";
import { listSharedCheckpoints } from "../../lib/share/shared-checkpoints.ts";
import { SHARE_REF } from "../../lib/share/share-tree.ts";
import { answer, EXIT } from "../answer.ts";
import { printLine } from "../cli-context.ts";
import { defineCommand } from "../command.ts";
import { refuseShare } from "./share.ts";

export const fetchCommand = defineCommand({
  name: "fetch",
  summary:
    "bring other clones' shared checkpoints into refs/quoin/remotes/<remote>/checkpoints (and push shares recorded here)",
  options: {
    remote: { type: "string", hint: "NAME" },
  },
  run(ctx, values) {
    const git = new ShareGit(ctx.deps, ctx.root);
    if (!git.isRepository())
      return refuseShare(ctx, "fetch", {
        reason: `${ctx.root} is not a git repository (or git is missing): nothing fetched`,
        expected: "a project inside a git repository",
      });
    const remote = pickRemote(git, values.remote, { recordOnly: false });
    if (!remote.ok) return refuseShare(ctx, "fetch", remote);
    const fetched = fetchShares(git, remote.remote);
    if (!fetched.ok) return refuseShare(ctx, "fetch", fetched);
    // Shares recorded here only (--no-push, a SessionEnd snapshot under QUOIN_SHARE=auto) go out now.
    const local = git.resolve(SHARE_REF);
    const behind =
      local !== null && (fetched.commit === null || !git.isAncestor(local, fetched.commit));
    const pushed = behind
      ? pushShares(git, remote.remote, {
          nowMs: ctx.deps.now().getTime(),
          windowDays: ctx.knobs.QUOIN_CLEANUP_CKPT_WINDOW,
        })
      : null;
    if (pushed?.ok && pushed.merges > 0) fetchShares(git, remote.remote);
    const shared = listSharedCheckpoints(git, {
      fs: ctx.deps.fs,
      checkpoints: ctx.paths.checkpoints,
      warn: ctx.deps.warn,
    });
    const pushNote = pushed ? (pushed.ok ? "pushed" : pushed.reason) : null;
    if (ctx.json)
      return answer(ctx, {
        remote: remote.remote,
        ref: fetched.ref,
        commit: fetched.commit,
        shared: shared.length,
        pushed: pushed?.ok ?? false,
        ...(pushed && !pushed.ok ? { pushReason: pushed.reason } : {}),
      });
    else
      printLine(
        ctx,
        fetched.commit === null
          ? `[checkpoint] ${remote.remote} has no shared checkpoints yet${pushNote ? `; local shares ${pushNote}` : ""}`
          : `[checkpoint] fetched ${fetched.ref}: ${shared.length} shared checkpoint(s) from other clones (list shows them as s1, s2, ...)${pushNote ? `; local shares ${pushNote}` : ""}`,
      );
    return EXIT.done;
  },
});
