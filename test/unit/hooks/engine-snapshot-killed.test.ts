import { describe, expect, it } from "vitest";
import { engineForcedSave } from "../../../lib/edge/engine-snapshot.ts";
import { memoryPaths } from "../../../lib/store/memory-paths.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

const ENGINE = "/opt/q/quoin-checkpoint.cjs";
const paths = memoryPaths("/repo");
const STATE = "/home/u/.claude/quoin-checkpoint/state";
const SID = "4d5611e5-1111-4222-8333-444455556666";

// The prompt hook's forced save runs the engine with a 5 s timeout. On a loaded machine the engine
// was killed between a temp file and its rename (64 sessions at once, 6 runs side by side: a
// checkpoints/.<name>.md.<pid>.<n>.tmp left in 3 of 4 runs). The hook removes what that engine left.
describe("the engine's forced save, killed at its timeout", () => {
  function world(status: number | null) {
    const files = {
      [ENGINE]: "",
      [`${paths.checkpoints}/.2026-12-03T0953-task-10.md.4704.10.tmp`]: "half",
      [`${paths.memory}/.pending-restore-${SID}.txt.4704.11.tmp`]: "half",
      [`${STATE}/.process-${SID}.json.4704.12.tmp`]: "half",
      // another process's write in flight: not the killed engine's
      [`${paths.checkpoints}/.2026-12-03T0953-task-11.md.5000.1.tmp`]: "live",
      [`${paths.checkpoints}/2026-12-03T0953-task-9.md`]: "# whole\n",
    };
    const base = fakeDeps({ files });
    const deps = { ...base, run: () => ({ status, stdout: "", stderr: "", pid: 4704 }) };
    const save = engineForcedSave(
      deps,
      ENGINE,
    )({
      paths,
      sessionId: SID,
      launchCwd: "/repo",
      status: "forced",
      shape: "voluntary",
      writeSentinel: true,
      transcriptPath: null,
    });
    const left = (dir: string) => base.fs.readdirSync(dir) as string[];
    return { save, left };
  }

  it("removes the killed engine's temp files, and only its own; the hook writes the skeleton", () => {
    const { save, left } = world(null);
    expect(save).toBeNull();
    expect(left(paths.checkpoints)).toEqual([
      ".2026-12-03T0953-task-11.md.5000.1.tmp",
      "2026-12-03T0953-task-9.md",
    ]);
    expect(left(paths.memory).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    expect(left(STATE)).toEqual([]);
  });

  it("an engine that ended on its own keeps what is there (its writes clean up after themselves)", () => {
    const { left } = world(1);
    expect(left(paths.checkpoints)).toHaveLength(3);
  });
});
