// fixtures: temporary Holo roots with small plugins of the tests' own (POSIX shell scripts), for
// the runtime, command and e2e tests. A plugin is written as the body of a `case "$1"` on its
// operation; `info` answers API version 3 unless the body has an `info)` branch of its own.
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'

/** A plugin: the branches of its `case "$1" in ... esac` (info included, or the default one). */
export const plugin = (branches: string): string => `#!/bin/sh
case "$1" in
${branches.includes('info)') ? '' : 'info) echo MIN_API_VERSION=3; echo MAX_API_VERSION=3 ;;\n'}${branches}
esac
`

/**
 * A plugin that provisions files: each resource file NAME is the entity `greeting:NAME`, applied
 * by copying it to $HOLO_ROOT_DIR/etc/greet/NAME, with "not changed" and "requires --force to
 * overwrite" / "... restore" as Holo's files plugin says them, and a diff of the copy last
 * applied (in $HOLO_STATE_DIR) against the target.
 */
export const greet = plugin(`scan)
  for f in "$HOLO_RESOURCE_DIR"/*; do
    [ -f "$f" ] || continue
    n=$(basename "$f")
    echo "ENTITY: greeting:$n"
    echo "SOURCE: $f"
    echo "target: $HOLO_ROOT_DIR/etc/greet/$n"
  done ;;
apply|force-apply)
  n=\${2#greeting:}
  t="$HOLO_ROOT_DIR/etc/greet/$n"; s="$HOLO_STATE_DIR/$n"
  if [ -f "$t" ] && cmp -s "$t" "$HOLO_RESOURCE_DIR/$n"; then echo "not changed" >&3; exit 0; fi
  if [ "$1" = apply ] && [ -f "$s" ] && [ ! -e "$t" ]; then echo "requires --force to restore" >&3; exit 0; fi
  if [ "$1" = apply ] && [ -f "$s" ] && ! cmp -s "$s" "$t"; then echo "requires --force to overwrite" >&3; exit 0; fi
  mkdir -p "$(dirname "$t")"; cp "$HOLO_RESOURCE_DIR/$n" "$t"; cp "$t" "$s"; echo "wrote $t" ;;
diff)
  n=\${2#greeting:}
  printf '%s\\0%s\\0' "$HOLO_STATE_DIR/$n" "$HOLO_ROOT_DIR/etc/greet/$n" >&3 ;;`)

export interface RootSpec {
  /** Plugin ID → its script (installed at usr/lib/holo/holo-ID and named in etc/holorc). */
  readonly plugins?: Readonly<Record<string, string>>
  /** Extra files below the root: relative path → content (a script when it starts with #!). */
  readonly files?: Readonly<Record<string, string>>
  /** The holorc text (default: `plugin ID` per plugin, in order). */
  readonly holorc?: string
}

/** Makes a root below a fresh temporary directory: { dir, root } (root = dir/root). */
export const makeRoot = async (spec: RootSpec): Promise<{ readonly dir: string; readonly root: string }> => {
  const dir = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-holo-'))
  const root = nodePath.join(dir, 'root')
  const write = async (rel: string, content: string): Promise<void> => {
    const p = nodePath.join(root, rel)
    await fs.mkdir(nodePath.dirname(p), { recursive: true })
    await fs.writeFile(p, content, { mode: content.startsWith('#!') ? 0o755 : 0o644 })
  }
  await fs.mkdir(nodePath.join(root, 'run'), { recursive: true })
  for (const [id, script] of Object.entries(spec.plugins ?? {})) {
    await write(`usr/lib/holo/holo-${id}`, script)
    await fs.mkdir(nodePath.join(root, 'usr/share/holo', id), { recursive: true })
  }
  await write('etc/holorc', spec.holorc ?? Object.keys(spec.plugins ?? {}).map((id) => `plugin ${id}\n`).join(''))
  for (const [rel, content] of Object.entries(spec.files ?? {})) await write(rel, content)
  return { dir, root }
}
