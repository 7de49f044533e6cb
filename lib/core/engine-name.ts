/**
 * The engine bundle's file name, the one spelling of it. It lives in core/ so that every layer may
 * import it: the hooks (node-deps.ts, the prompt hook), a message's fallback command
 * (shell-quote.ts), the skills' engine commands (skill-render.ts) and the installer
 * (install-layout.ts re-exports it). A string constant: esbuild inlines it, so a hook bundle pays
 * nothing for the import (install-layout itself would pull the installer's imports into each hook).
 */
export const ENGINE_BUNDLE = "quoin-checkpoint.cjs";
