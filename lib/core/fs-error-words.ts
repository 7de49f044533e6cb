// A file system error in words a person reads, with the code after them for a search. The one
// place these sentences live.
const WORDS: Readonly<Record<string, string>> = {
  EROFS: "the file system is read-only",
  EACCES: "permission denied (this user cannot write there)",
  EPERM: "operation not permitted (this user cannot write there)",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  ENOTDIR: "a file is in the way where a folder should be",
  EEXIST: "something else is already there",
  ENOENT: "a folder on the way is missing",
  EIO: "an input/output error from the disk",
  ENAMETOOLONG: "the path is too long",
};

/** `the file system is read-only (EROFS)`; the error's own message when its code is not known. */
export function fsErrorWords(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const words = e?.code ? WORDS[e.code] : undefined;
  return words ? `${words} (${e.code})` : String(e?.message ?? err);
}

/**
 * What went wrong, for a person: a file system error in words with the path it met
 * (`the file system is read-only (EROFS): /repo/.workflow_artifacts`), any other error's message.
 */
export function failureText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (!e?.code || !WORDS[e.code]) return String(e?.message ?? err);
  return `${fsErrorWords(e)}${e.path ? `: ${e.path}` : ""}`;
}
