import { describe, expect, it } from "vitest";
import { dispatchCommand } from "../../../cli/commands/dispatch.ts";
import { releasePidfile } from "../../../lib/store/pidfile-release.ts";
import { pidfileCommand } from "../../../cli/commands/pidfile.ts";
import { runCli } from "../../../cli/run-cli.ts";
import { memDeps } from "../../helpers/mem-install-deps.ts";

const SID = "3670272e-fd63-4588-a644-97824dbda25f";

function cli(argv: string[], deps = memDeps({ "/home/u/proj/.git/HEAD": "x" }).deps) {
  let out = "";
  let err = "";
  const code = runCli(
    argv,
    deps,
    { stdout: (t) => (out += t), stderr: (t) => (err += t), readStdin: () => "" },
    [dispatchCommand, pidfileCommand],
  );
  return { code, out, err };
}

describe("engine: dispatch", () => {
  it("prints the verdict and the reason token on two lines", () => {
    const deps = memDeps({}, { env: { QUOIN_1M_DISPATCH: "off" } }).deps;
    expect(cli(["dispatch", "decide", "--tier", "sonnet"], deps)).toMatchObject({
      code: 0,
      out: "safe-path\nconfig\n",
    });
    expect(cli(["dispatch", "decide", "--tier", "sonnet", "--json"], deps).out).toContain(
      '"decision":"safe-path"',
    );
  });
  it("reads QUOIN_1M_DISPATCH through the knobs registry: ON is on, without a warning", () => {
    const { deps, warnings } = memDeps({}, { env: { QUOIN_1M_DISPATCH: "ON" } });
    expect(cli(["dispatch", "decide", "--tier", "opus", "--verbose"], deps)).toEqual({
      code: 0,
      out: "dispatch\nconfig\nQUOIN_1M_DISPATCH=on\n",
      err: "",
    });
    expect(warnings).toEqual([]);
  });
  it("an invalid QUOIN_1M_DISPATCH is said once and not used: the decision falls through to the probe", () => {
    const { deps, warnings } = memDeps({}, { env: { QUOIN_1M_DISPATCH: "sometimes" } });
    expect(cli(["dispatch", "decide", "--tier", "sonnet"], deps).out).toBe("dispatch\nprobe\n");
    expect(warnings.filter((l) => l.includes("QUOIN_1M_DISPATCH"))).toHaveLength(1);
  });
  it("always exits 0, failing open to dispatch", () => {
    expect(cli(["dispatch", "decide"])).toMatchObject({ code: 0, out: "dispatch\nprobe\n" });
    expect(cli(["dispatch", "decide", "--tier", "gpt"])).toMatchObject({
      code: 0,
      out: "dispatch\nprobe\n",
    });
    expect(cli(["dispatch", "write-cache", "--tier", "sonnet"])).toMatchObject({ code: 0 });
  });
  it("write-cache then decide reads the cache", () => {
    const { deps } = memDeps();
    expect(
      cli(["dispatch", "write-cache", "--tier", "haiku", "--result", "unsafe"], deps).code,
    ).toBe(0);
    expect(cli(["dispatch", "decide", "--tier", "haiku"], deps).out).toBe("safe-path\ncache\n");
  });
});

describe("engine: pidfile", () => {
  it("acquire records the session process; active lists it; release moves it to trash", () => {
    const { deps, vol } = memDeps({ "/home/u/proj/.git/HEAD": "x" });
    const acq = cli(
      ["pidfile", "acquire", "checkpoint", "--session", SID, "--pid", "777", "--json"],
      deps,
    );
    expect(acq.code).toBe(0);
    const file = `/home/u/proj/.workflow_artifacts/memory/sessions/checkpoint-${SID}.pidfile.lock`;
    expect(JSON.parse(vol.readFileSync(file, "utf8") as string)).toMatchObject({
      skill: "checkpoint",
      session: SID,
      pid: 777,
    });
    expect(
      JSON.parse(cli(["pidfile", "active", "--session", SID, "--json"], deps).out).active,
    ).toHaveLength(1);
    expect(
      JSON.parse(cli(["pidfile", "active", "checkpoint", "--session", SID, "--json"], deps).out)
        .active,
    ).toHaveLength(0);
    expect(cli(["pidfile", "release", "checkpoint", "--session", SID], deps).out).toContain(
      "released",
    );
    expect(vol.existsSync(file)).toBe(false);
    expect(
      vol.existsSync(
        `/home/u/proj/.workflow_artifacts/memory/trash/2026-11-29/checkpoint-${SID}.pidfile.lock`,
      ),
    ).toBe(true);
    // a second release (the engine's save already released) says nothing
    expect(cli(["pidfile", "release", "checkpoint", "--session", SID], deps)).toMatchObject({
      code: 0,
      out: "",
    });
    expect(
      JSON.parse(cli(["pidfile", "release", "checkpoint", "--session", SID, "--json"], deps).out),
    ).toMatchObject({ ok: true, released: false });
  });
  it("without a session id it warns in the seed's words and still exits 0", () => {
    const r = cli(["pidfile", "acquire", "checkpoint"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("[quoin-S-2: pidfile helpers unavailable");
  });
});

describe("releasePidfile (the one release helper: the engine command and a save's step 6)", () => {
  const paths = { sessions: "/m/sessions", memory: "/m" };
  it("moves the skill's pidfile to trash and says where", () => {
    const { deps, vol } = memDeps({ [`/m/sessions/checkpoint-${SID}.pidfile.lock`]: "{}" });
    const moved = releasePidfile(deps, paths, "checkpoint", SID);
    expect(moved).toMatch(/^\/m\/trash\//);
    expect(vol.existsSync(`/m/sessions/checkpoint-${SID}.pidfile.lock`)).toBe(false);
    expect(releasePidfile(deps, paths, "checkpoint", SID)).toBeNull();
  });
  it.each([null, "", "unknown", "../x"])("does nothing without a usable session id (%s)", (sid) => {
    const { deps, vol } = memDeps({ "/m/sessions/checkpoint-unknown.pidfile.lock": "{}" });
    expect(releasePidfile(deps, paths, "checkpoint", sid)).toBeNull();
    expect(vol.existsSync("/m/sessions/checkpoint-unknown.pidfile.lock")).toBe(true);
  });
});
