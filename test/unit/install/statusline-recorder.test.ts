import { describe, expect, it } from "vitest";
import { runInstall, type InstallOptions } from "../../../lib/install/installer.ts";
import { memDeps } from "../../helpers/mem-install-deps.ts";
import { BUILT, installOptions, must, USER_SETTINGS } from "../../helpers/install-world.ts";

// The default install registers the status line as an invisible recorder (`--quiet`), wrapping
// the person's own line; uninstall gives settings.json back byte for byte.

const SETTINGS = USER_SETTINGS;
const SL = `node "/home/u/.claude/quoin-checkpoint/statusline.cjs"`;
const opts = (o: Partial<InstallOptions> = {}) => installOptions({ recorder: true, ...o });
const statusLineOf = (vol: ReturnType<typeof memDeps>["vol"]) =>
  JSON.parse(vol.readFileSync(SETTINGS, "utf8") as string).statusLine;

describe("the default install's status-line recorder", () => {
  it.each([
    ["no settings.json", undefined, undefined],
    ["settings without a status line", '{\n  "model": "opus"\n}\n', undefined],
    [
      "the person's own status line (odd spacing kept)",
      '{"statusLine":   {"type":"command","command":"~/bin/my-status \'x\'","padding":2}}\n',
      "~/bin/my-status 'x'",
    ],
  ])("%s: adds the recorder, uninstall restores the bytes", (_what, original, theirs) => {
    const files: Record<string, string> = { ...BUILT };
    if (original !== undefined) files[SETTINGS] = original;
    const { deps, vol } = memDeps(files);
    must(runInstall(deps, opts()));
    expect(statusLineOf(vol).command).toBe(
      theirs === undefined ? `${SL} --quiet` : `${SL} --quiet --wrap '~/bin/my-status '\\''x'\\'''`,
    );
    expect(vol.readFileSync("/home/u/.claude/quoin-checkpoint/statusline.cjs", "utf8")).toBe(
      "// statusline\n",
    );
    expect(must(runInstall(deps, opts())).changed).toBe(false);
    must(runInstall(deps, opts({ uninstall: true })));
    if (original === undefined) expect(vol.existsSync(SETTINGS)).toBe(false);
    else expect(vol.readFileSync(SETTINGS, "utf8")).toBe(original);
  });

  const ORIGINALS = [
    ["no settings.json", undefined],
    ["settings without a status line", '{\n  "model": "opus"\n}\n'],
    [
      "the person's own status line (odd spacing kept)",
      '{"statusLine":   {"type":"command","command":"~/bin/my-status \'x\'","padding":2}}\n',
    ],
  ] as const;
  const world = (original: string | undefined) =>
    memDeps(original === undefined ? { ...BUILT } : { ...BUILT, [SETTINGS]: original });
  const WRAPPED = `${SL} --quiet --wrap '~/bin/my-status '\\''x'\\'''`;

  it.each(ORIGINALS)(
    "%s: a rerun with --no-statusline takes the recorder out, the person's own line back byte for byte",
    (_what, original) => {
      const alone = world(original);
      must(runInstall(alone.deps, opts({ recorder: false })));
      const withoutRecorder = alone.vol.readFileSync(SETTINGS, "utf8");

      const { deps, vol } = world(original);
      must(runInstall(deps, opts()));
      expect(statusLineOf(vol).command).toContain("--quiet");
      const off = must(runInstall(deps, opts({ recorder: false })));
      expect(off.changed).toBe(true);
      expect(vol.readFileSync(SETTINGS, "utf8")).toBe(withoutRecorder);
      const theirs = original?.includes("statusLine");
      expect(off.lines.join("\n")).toContain(
        `took quoin's status line out (--no-statusline): ${theirs ? "your own is back as it was" : "there is none now"}`,
      );
      expect(must(runInstall(deps, opts({ recorder: false }))).changed).toBe(false);
      must(runInstall(deps, opts({ uninstall: true })));
      if (original === undefined) expect(vol.existsSync(SETTINGS)).toBe(false);
      else expect(vol.readFileSync(SETTINGS, "utf8")).toBe(original);
    },
  );

  it.each(ORIGINALS)(
    "%s: after --no-statusline, a rerun without it puts the recorder in again",
    (_what, original) => {
      const { deps, vol } = world(original);
      must(runInstall(deps, opts({ recorder: false })));
      must(runInstall(deps, opts()));
      expect(statusLineOf(vol).command).toBe(
        original?.includes("statusLine") ? WRAPPED : `${SL} --quiet`,
      );
      must(runInstall(deps, opts({ uninstall: true })));
      if (original === undefined) expect(vol.existsSync(SETTINGS)).toBe(false);
      else expect(vol.readFileSync(SETTINGS, "utf8")).toBe(original);
    },
  );

  it("--dry-run --no-statusline says what it would take out and writes nothing", () => {
    const { deps, vol } = world("{}\n");
    must(runInstall(deps, opts()));
    const installed = vol.readFileSync(SETTINGS, "utf8");
    const dry = must(runInstall(deps, opts({ recorder: false, dryRun: true })));
    expect(dry.lines.join("\n")).toContain(
      "would take quoin's status line out (--no-statusline): there would be none",
    );
    expect(vol.readFileSync(SETTINGS, "utf8")).toBe(installed);
  });

  it("a gauge (--statusline) comes out with --no-statusline too", () => {
    const { deps, vol } = world("{}\n");
    must(runInstall(deps, opts({ statusLine: true })));
    expect(statusLineOf(vol).command).toBe(SL);
    must(runInstall(deps, opts({ recorder: false })));
    expect(statusLineOf(vol)).toBeUndefined();
  });

  it("--no-statusline (recorder off) adds none", () => {
    const { deps, vol } = memDeps({ ...BUILT, [SETTINGS]: "{}\n" });
    must(runInstall(deps, opts({ recorder: false })));
    expect(statusLineOf(vol)).toBeUndefined();
  });

  it("a gauge asked for earlier (--statusline) stays a gauge; --statusline turns the recorder into the gauge", () => {
    const { deps, vol } = memDeps({ ...BUILT, [SETTINGS]: "{}\n" });
    must(runInstall(deps, opts({ statusLine: true })));
    expect(statusLineOf(vol).command).toBe(SL);
    expect(must(runInstall(deps, opts())).changed).toBe(false);
    expect(statusLineOf(vol).command).toBe(SL);

    const other = memDeps({ ...BUILT, [SETTINGS]: "{}\n" });
    must(runInstall(other.deps, opts()));
    expect(statusLineOf(other.vol).command).toBe(`${SL} --quiet`);
    must(runInstall(other.deps, opts({ statusLine: true })));
    expect(statusLineOf(other.vol).command).toBe(SL);
  });
});
