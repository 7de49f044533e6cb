import { ShareGit } from "../../lib/share/share-git.ts";
import { pickRemote, pushShares } from "../../lib/share/share-push.ts";
import { chooseCheckpoint } from "../../lib/share/share-choose.ts";
import { recordShare, shareOrigin } from "../../lib/share/share-record.ts";
import { SHARE_REF } from "../../lib/share/share-tree.ts";
import { answer, EXIT, refuse } from "../answer.ts";
import { printLine, UsageError, type CliContext } from "../cli-context.ts";
import { defineCommand } from "../command.ts";

/** A refusal through the one writer (cli/answer.ts): one object under --json, else one stderr line; exit 1. */
export function refuseShare(
  ctx: CliContext,
  command: string,
  r: { reason: string; expected: string },
  extra: object = {},
): number {
  return refuse(ctx, r, {
    extra,
    text: `[checkpoint] ${command}: ${r.reason} (expected: ${r.expected})`,
  });
}

export const shareCommand = defineCommand({
  name: "share",
  summary:
    "record a checkpoint (default: this session's newest) on refs/quoin/checkpoints, redacted, and push it",
  args: "[N|file]",
  options: {
    remote: { type: "string", hint: "NAME" },
    "no-push": { type: "boolean" },
  },
  run(ctx, values, positionals) {
    if (positionals.length > 1)
      throw new UsageError(
        "share: expected at most one checkpoint: a number from list or a file name",
      );
    const git = new ShareGit(ctx.deps, ctx.root);
    if (!git.isRepository())
      return refuseShare(ctx, "share", {
        reason: `${ctx.root} is not a git repository (or git is missing): nothing shared`,
        expected: "a project inside a git repository",
      });
    const remote = values["no-push"] ? null : pickRemote(git, values.remote);
    if (remote && !remote.ok) return refuseShare(ctx, "share", remote);
    const session = ctx.session();
    const chosen = chooseCheckpoint(
      ctx.deps,
      ctx.paths,
      positionals[0],
      session.ok ? session.id : null,
    );
    if (!chosen.ok) return refuseShare(ctx, "share", chosen);
    const recorded = recordShare(ctx.deps, git, {
      file: chosen.file,
      root: ctx.root,
      launchCwd: ctx.cwd,
      origin: shareOrigin(ctx.deps, git),
    });
    if (!recorded.ok) return refuseShare(ctx, "share", recorded);
    const base = {
      checkpoint: chosen.file,
      path: recorded.path,
      ref: SHARE_REF,
      commit: recorded.commit,
    };
    if (!remote) {
      if (ctx.json) return answer(ctx, { ...base, pushed: false });
      else printLine(ctx, `[checkpoint] shared ${recorded.path} on ${SHARE_REF} (not pushed)`);
      return EXIT.done;
    }
    const pushed = pushShares(git, remote.remote, {
      nowMs: ctx.deps.now().getTime(),
      windowDays: ctx.knobs.QUOIN_CLEANUP_CKPT_WINDOW,
    });
    if (!pushed.ok) return refuseShare(ctx, "share", pushed, { ...base, pushed: false });
    if (ctx.json)
      return answer(ctx, {
        ...base,
        commit: pushed.commit,
        pushed: true,
        remote: pushed.remote,
        merges: pushed.merges,
      });
    else
      printLine(
        ctx,
        `[checkpoint] shared ${recorded.path}, pushed ${SHARE_REF} to ${pushed.remote}${pushed.merges ? ` (merged with ${pushed.merges} newer share(s) there)` : ""}`,
      );
    return EXIT.done;
  },
});
