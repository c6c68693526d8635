// GitDiff: Holo's form of a diff. Holo runs `git diff --no-index -- FROM TO` and then removes the
// `index` lines and names the files as the plugin did: `diff --git ...` becomes `diff --holo FROM
// TO`, `--- a/...` becomes `--- FROM` and `+++ b/...` becomes `+++ TO` (lines naming /dev/null
// stay). FROM and TO are the paths the plugin wrote, as a person names them (ResourcePath). Lines
// are split at "\n" only, as Go's multi-line regular expressions split them.

// combinators

/** Rewrites git's diff of two files into Holo's. */
export const rewrite = (gitOutput: string, from: string, to: string): string => {
  const lines = gitOutput.split('\n')
  // the last piece is what follows the last newline: never a whole line that "index" could remove
  const last = lines.pop()!
  const out = lines.filter((l) => !l.startsWith('index ')).map(header(from, to))
  return [...out, header(from, to)(last)].join('\n')
}

const header =
  (from: string, to: string) =>
  (l: string): string =>
    l.startsWith('diff --git ') ? `diff --holo ${from} ${to}` : l.startsWith('--- a/') ? `--- ${from}` : l.startsWith('+++ b/') ? `+++ ${to}` : l
