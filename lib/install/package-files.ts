// The npm package's own bundles beside the engine in dist/ (package.json `bin` and `files`).
// Neither is copied by an install: the installed hooks, status line and skills need only the engine.

/** `quoin-checkpoint install|uninstall`: the installer, its own bundle so the engine does not grow. */
export const INSTALLER_BUNDLE = "installer.cjs";
/** package.json `bin`: a dispatcher to the installer or the engine. */
export const BIN_BUNDLE = "bin.cjs";
