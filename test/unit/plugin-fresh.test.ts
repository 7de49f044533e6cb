import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  changedSources,
  PLUGIN_SOURCES_FILE,
  pluginSourcePaths,
  pluginSourcesText,
} from "../../scripts/plugin-sources.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const recorded = () => readFileSync(path.join(ROOT, "plugin", PLUGIN_SOURCES_FILE), "utf8");
const onDisk = (rel: string) =>
  existsSync(path.join(ROOT, rel)) ? readFileSync(path.join(ROOT, rel), "utf8") : null;

// plugin/ is committed: a git install gets no build step. The build records what plugin/ was
// built from (plugin/built-from.txt); here the tree's sources are hashed again, with no build:
// a source changed since the last `npm run build:plugin` fails this file and is named.
describe("the committed plugin folder, without a build", () => {
  it("was built from the sources in the tree (else run: npm run build:plugin, and commit plugin/)", () => {
    expect(changedSources(recorded(), pluginSourcesText(ROOT))).toEqual([]);
  });

  it("the check names a changed source, a missing one and a new one; a comment or a type changes nothing", () => {
    const paths = pluginSourcePaths(ROOT);
    const edited = (rel: string, edit: (text: string) => string) =>
      pluginSourcesText(
        ROOT,
        (r) => {
          const text = onDisk(r);
          return r === rel && text !== null ? edit(text) : text;
        },
        paths,
      );
    const base = pluginSourcesText(ROOT, onDisk, paths);
    const knobs = "lib/core/knobs.ts";
    expect(
      changedSources(
        base,
        edited(knobs, (t) => t.replace("7000", "7001")),
      ),
    ).toEqual([`${knobs} (changed)`]);
    expect(
      changedSources(
        base,
        edited(knobs, (t) => `// a new comment\n${t}`),
      ),
    ).toEqual([]);
    expect(
      changedSources(
        base,
        edited(knobs, (t) => `${t}\nexport type Unused = { a: string };\n`),
      ),
    ).toEqual([]);
    expect(
      changedSources(
        base,
        edited("skills/cleanup/SKILL.template.md", (t) => `${t}.`),
      ),
    ).toEqual(["skills/cleanup/SKILL.template.md (changed)"]);
    expect(
      changedSources(
        base,
        pluginSourcesText(ROOT, (r) => (r === "tsconfig.json" ? null : onDisk(r)), paths),
      ),
    ).toEqual(["tsconfig.json (changed)"]);
    const grown = `${base}0123456789abcdef  lib/core/new-file.ts\n`;
    expect(changedSources(grown, base)).toEqual(["lib/core/new-file.ts (gone)"]);
    expect(changedSources(base, grown)).toEqual(["lib/core/new-file.ts (new)"]);
  });
});
