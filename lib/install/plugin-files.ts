import {
  ANY_ASCII_BUNDLE,
  ENGINE_BUNDLE,
  HOOK_SPECS,
  hookBundleFile,
  hookCommand,
  hookHandler,
  STATUSLINE_BUNDLE,
} from "./install-layout.ts";
import { compareNames } from "../core/dir-listing.ts";

// The Claude Code plugin folder as data: relative path -> content. A plugin installed from git
// gets no build step, so this folder is built here and committed (plugin/ at the repository root).

const PLUGIN_NAME = "quoin-checkpoint";

export interface PluginInputs {
  version: string;
  description: string;
  license: string;
  engine: string;
  /** dist/any-ascii.cjs: the engine loads it beside itself when a save transliterates */
  anyAscii: string;
  /**
   * dist/statusline.cjs: a plugin cannot register a status line; a user points theirs at it
   * (docs/install.md)
   */
  statusLine: string;
  /** bundle name (sessionstart, ...) -> built hook bundle; missing ones are left out */
  hookBundles: Readonly<Record<string, string>>;
  /** skill name -> SKILL.md rendered for the plugin target */
  skills: Readonly<Record<string, string>>;
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

export function pluginFiles(inp: PluginInputs): Record<string, string> {
  const files: Record<string, string> = {};
  files[".claude-plugin/plugin.json"] = json({
    name: PLUGIN_NAME,
    version: inp.version,
    description: inp.description,
    author: { name: "quoin-checkpoint contributors" },
    license: inp.license,
    keywords: ["checkpoint", "session", "context", "hooks"],
  });
  const hooks: Record<string, unknown[]> = {};
  for (const spec of HOOK_SPECS) {
    const bundle = inp.hookBundles[spec.bundle];
    if (bundle === undefined) continue;
    files[hookBundleFile(spec.bundle)] = bundle;
    hooks[spec.event] = [
      {
        ...(spec.matcher ? { matcher: spec.matcher } : {}),
        hooks: [hookHandler(hookCommand("${CLAUDE_PLUGIN_ROOT}", spec.bundle), spec.timeout)],
      },
    ];
  }
  files["hooks/hooks.json"] = json({
    description:
      "quoin-checkpoint: save before compaction and at session end, watch context use, offer restores",
    hooks,
  });
  files[ENGINE_BUNDLE] = inp.engine;
  files[ANY_ASCII_BUNDLE] = inp.anyAscii;
  files[STATUSLINE_BUNDLE] = inp.statusLine;
  for (const [name, text] of Object.entries(inp.skills).sort(([a], [b]) => compareNames(a, b)))
    files[`skills/${name}/SKILL.md`] = text;
  return files;
}

/** .claude-plugin/marketplace.json at the repository root: one plugin, in ./plugin. */
export function marketplaceJson(inp: Pick<PluginInputs, "version" | "description">): string {
  return json({
    name: "quoin-checkpoint",
    description:
      "Session continuity for Claude Code: checkpoints before the context runs out, restores in a fresh session.",
    owner: { name: "quoin-checkpoint contributors" },
    plugins: [
      {
        name: PLUGIN_NAME,
        source: "./plugin",
        description: inp.description,
        version: inp.version,
        author: { name: "quoin-checkpoint contributors" },
      },
    ],
  });
}
