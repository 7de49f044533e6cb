import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANY_ASCII_BUNDLE, ENGINE_BUNDLE } from "../../lib/install/install-layout.ts";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import { DIST, runBundle } from "../helpers/run-bundle.ts";
import { runNode, tempRepo } from "../helpers/save-repo.ts";

// Every bundle must run copied alone into an empty folder, with no node_modules anywhere above
// it, and every hook must fail open: exit 0, nothing on stdout, whatever arrives on stdin.

let alone: string;
const hooks = fs.readdirSync(path.join(DIST, "hooks")).filter((f) => f.endsWith(".cjs"));

beforeAll(() => {
  alone = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-alone-"));
  for (const f of hooks) fs.copyFileSync(path.join(DIST, "hooks", f), path.join(alone, f));
  fs.copyFileSync(path.join(DIST, ENGINE_BUNDLE), path.join(alone, ENGINE_BUNDLE));
  fs.copyFileSync(path.join(DIST, "statusline.cjs"), path.join(alone, "statusline.cjs"));
});
afterAll(() => fs.rmSync(alone, { recursive: true, force: true }));

function hasNodeModulesAbove(dir: string): boolean {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, "node_modules"))) return true;
    if (path.dirname(d) === d) return false;
  }
}

describe("bundles copied alone", () => {
  it("builds the four hooks and the engine", () => {
    expect(hooks.sort()).toEqual([
      "precompact.cjs",
      "sessionend.cjs",
      "sessionstart.cjs",
      "userpromptsubmit.cjs",
    ]);
    expect(hasNodeModulesAbove(alone)).toBe(false);
  });

  it("the hooks, the status line and the engine are CommonJS (node starts them faster than an ES module; npm run bench)", () => {
    for (const f of [
      ...hooks.map((h) => path.join(DIST, "hooks", h)),
      path.join(DIST, "statusline.cjs"),
      path.join(DIST, ENGINE_BUNDLE),
    ]) {
      const text = fs.readFileSync(f, "utf8");
      expect(text, f).not.toMatch(/\bimport\s*[{*]|\bimport\.meta\b|\bexport\s*[{*]/);
      expect(text, f).toContain("require(");
    }
  });

  it("the engine prints its help from an empty folder", () => {
    const r = runBundle(path.join(alone, ENGINE_BUNDLE), ["--help"], {
      cwd: alone,
      env: { HOME: alone },
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("usage: quoin-checkpoint <command>");
    expect(
      fs.readFileSync(path.join(alone, ENGINE_BUNDLE), "utf8").startsWith("#!/usr/bin/env node\n"),
    ).toBe(true);
  });

  // any-ascii's tables live in their own file beside the engine (lib/edge/lazy-any-ascii.ts).
  const ENGINE_BUDGET_BYTES = 300_000;
  const intentSaved = (engine: string): string | undefined => {
    const repo = tempRepo();
    const r = runNode(
      engine,
      [
        "save",
        "--json",
        "--session",
        "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
        "--mode",
        "restore",
        "--intent",
        "Straße café",
      ],
      { cwd: repo.root, env: repo.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const { checkpoint } = JSON.parse(r.stdout) as { checkpoint: string };
    return parseCheckpoint(fs.readFileSync(checkpoint, "utf8")).intent;
  };

  it("the engine alone still saves non-ASCII free text, as `?`", () => {
    expect(fs.existsSync(path.join(alone, ANY_ASCII_BUNDLE))).toBe(false);
    expect(intentSaved(path.join(alone, ENGINE_BUNDLE))).toBe("Stra?e caf?");
  });

  it("with any-ascii.cjs beside it the engine transliterates; the engine itself holds none of its tables", () => {
    const both = path.join(alone, "with-tables");
    fs.mkdirSync(both);
    for (const f of [ENGINE_BUNDLE, ANY_ASCII_BUNDLE])
      fs.copyFileSync(path.join(DIST, f), path.join(both, f));
    expect(intentSaved(path.join(both, ENGINE_BUNDLE))).toBe("Strasse cafe");
    // none of the tables: no 64-byte run from the middle of any-ascii's bundle is in the engine
    const tables = fs.readFileSync(path.join(DIST, ANY_ASCII_BUNDLE), "utf8");
    const engine = fs.readFileSync(path.join(DIST, ENGINE_BUNDLE), "utf8");
    for (const at of [0.25, 0.5, 0.75]) {
      const i = Math.floor(tables.length * at);
      expect(engine.includes(tables.slice(i, i + 64))).toBe(false);
    }
    // a fixed budget (the engine was 275,776 bytes at the last measure): node parses the whole
    // bundle on every hook and CLI call, and the tables (547 KB) alone would exceed it
    expect(Buffer.byteLength(engine)).toBeLessThan(ENGINE_BUDGET_BYTES);
  });

  const inputs: Array<[string, string | Buffer]> = [
    ["not JSON", "{{{"],
    ["an array", "[1,2,3]"],
    ["wrong types", JSON.stringify({ session_id: 1, hook_event_name: 2, cwd: [] })],
    ["missing fields", "{}"],
    ["empty stdin", ""],
    ["10 MB of noise", Buffer.alloc(10 * 1024 * 1024, 0x7b)],
  ];
  for (const hook of hooks) {
    it.each(inputs)(`${hook} fails open on %s`, (_what, input) => {
      const r = runBundle(path.join(alone, hook), [], { input, cwd: alone, env: { HOME: alone } });
      expect(r).toMatchObject({ status: 0, stdout: "" });
    });
  }
  it.each(inputs)(
    "statusline.cjs exits 0 quietly on %s (an object without figures draws an empty gauge)",
    (what, input) => {
      const r = runBundle(path.join(alone, "statusline.cjs"), [], {
        input,
        cwd: alone,
        env: { HOME: alone },
      });
      const objectInput = what === "wrong types" || what === "missing fields";
      expect(r).toMatchObject({
        status: 0,
        stdout: objectInput ? "ctx -- of 167k\n" : "",
        stderr: "",
      });
      expect(fs.existsSync(path.join(alone, ".claude"))).toBe(false);
    },
  );
});
