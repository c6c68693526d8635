// Undo: how the journal puts a path back as it was before a step (data; see interpreters/files/undo.ts).

/** How to put a path back as it was before a step. */
export type Undo =
  | { readonly _tag: 'Remove'; readonly paths: ReadonlyArray<string> } // paths the step creates, innermost last
  | { readonly _tag: 'Restore'; readonly path: string; readonly backup: string } // copy of what the step replaced or removed
  | { readonly _tag: 'Attrs'; readonly path: string; readonly uid: number; readonly gid: number; readonly mode: number }
  | { readonly _tag: 'Irreversible'; readonly reason: string } // nothing can bring it back (a removed fifo, socket or device)
