// The character and item limits of the texts this tool writes for a person or the model, in one
// table every caller reads, so a limit is changed in one place and two texts never disagree on it.
// First the limits several texts share, then one group a text, named for where it applies.
// What lives elsewhere: the checkpoint's own budget (6 KB and its floors) stays with the format
// (lib/store/checkpoint-budget.ts); the brief's per-section limits and the picker row's with the
// brief (lib/restore/brief/); a file name's length with the name (lib/store/task-name.ts). Limits
// that are mechanics, not text (how much of a file or transcript a reader reads, how old a file may
// be, timeouts, how deep a walk goes), stay beside the code they bound. No imports: the prompt
// hook's plain path reads it.

export const TEXT_LIMITS = {
  /** a line the person sees (a hook's systemMessage): the model's text says the rest */
  personLine: 200,
  /** a hook's additionalContext for the model (hook-io's capText cuts beyond it) */
  hookContext: 2000,
  /** what PreCompact prints to steer the summary (Claude Code takes up to 10,000) */
  steering: 2000,
  /** the re-entry note's digest part, within the hookContext budget */
  reentryDigest: 1200,
  /** the model's last words: how many replies, each cut to, and all of them together */
  lastWords: 5,
  lastWordChars: 300,
  lastWordsChars: 1200,
  /** the last words a checkpoint and the restore brief keep: a reply laying out a plan keeps its tail */
  savedWordChars: 800,
  savedWordsChars: 1600,

  /** PreCompact's steering (lib/hooks/compact-steer.ts): every item a quote, all within `steering` */
  steer: {
    /** the checkpoint's path: an absolute path in a deep project still fits whole */
    checkpoint: 400,
    /** one path in a list: a long one is cut rather than crowding out the rest */
    path: 300,
    /** the changed files: the files the summary most needs named verbatim get the most room */
    changedFiles: 560,
    /** the files read: less room than the changed ones */
    readFiles: 240,
    /** the newest requests beside the first, each cut to a long sentence */
    requests: 4,
    requestChars: 200,
    /** the todo list as it stands: a todo is a short line */
    todos: 10,
    todoChars: 100,
    /** the newest failures that still stand: the command and its error each */
    failures: 3,
    failureChars: 120,
  },

  /** the re-entry note after a compaction (lib/notes/reentry-note.ts), within `reentryDigest` */
  reentry: {
    /** the newest changed files named */
    changedFiles: 8,
    /** the todos named on one line */
    todos: 8,
    /** a request it repeats: shorter than the steering's, the note shares its room with more */
    requestChars: 160,
    /** the earlier requests beside the newest, when the summary could not be read */
    earlierRequests: 2,
    /** the requests the summary dropped: the newest few, the rest counted */
    droppedRequests: 3,
    /** a todo on that one line */
    todoChars: 80,
  },

  /** what the transcript digest keeps of each item it reads (lib/context/transcript-digest-*.ts) */
  digest: {
    /** the newest typed requests kept beside the first */
    requests: 5,
    /** a typed request: long enough to hold the ask, short enough for five of them */
    requestChars: 200,
    /** the files to read first: the brief around them must stay within its 8 KB */
    readFirst: 30,
    /** a work item's description: its first paragraph or so */
    workTextChars: 400,
    /** a work item's title */
    workTitleChars: 160,
    /** the open work items kept */
    openItems: 8,
    /** the newest failures kept */
    failures: 5,
    /** the model's words after a failure, saying what it was */
    explanationChars: 200,
    /** a failed or fixing command */
    commandChars: 160,
    /** the line that says what went wrong */
    errorChars: 160,
    /** the state of the last edit: the session's own hooks it names, then a count */
    hooksNamed: 2,
    /** what it quotes of those hooks' words: two notes, each cut short */
    hookNotes: 2,
    hookNoteChars: 160,
  },

  /** the checkpoint's digest lines (lib/store/checkpoint-digest.ts): one line an item */
  checkpointDigest: {
    todoChars: 160,
    commandChars: 120,
    errorChars: 160,
  },

  /** the checkpoint's work items, fixes and read-first sections (lib/store/checkpoint-lessons.ts) */
  lessons: {
    /** a tracker's id (beads, an issue number): ids are short, a longer one is not an id */
    idChars: 60,
    titleChars: 100,
    /** the current item's description */
    headChars: 400,
    /** how the current item was found (the in-progress todo, the tracker's claim) */
    howChars: 140,
    /** the line saying the last edits were not verified: two file paths, the checks to run, and
     * the session's own hooks (two named) or what they told the model (two quotes of 160) */
    stateChars: 640,
    /** a fix's command and the command that fixed it: enough to recognise it */
    commandChars: 60,
    errorChars: 80,
    explanationChars: 200,
    /** a path to read first */
    pathChars: 200,
    /** a time that is not ISO, written as it came */
    timeChars: 40,
  },

  /** the progress a checkpoint keeps: what the model said it finished (lib/context/transcript-handover.ts) */
  progress: {
    /** reports of finished work, each cut to, and all of them together */
    reports: 5,
    reportChars: 200,
    totalChars: 800,
    /** a tracker's close keeps its reason (what the item did): the scope of finished work */
    closes: 4,
    closeChars: 480,
    /** the reports kept beside closes, which say more */
    reportsWithCloses: 3,
  },

  /** the first bytes of a damaged checkpoint shown to the person (lib/restore/checkpoint-damage.ts) */
  damagedShownBytes: 2048,
} as const;
