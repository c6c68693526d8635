#!/usr/bin/env node
// The demo: plans the example in plans/demo against a temporary root, shows the saved plan,
// applies it, then plans again and shows that nothing is left to change.
import { execFileSync } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const plait = join(here, '..', 'dist', 'bin', 'plait.js')
const work = mkdtempSync(join(tmpdir(), 'plait-demo-'))
const root = join(work, 'root')
const example = join(work, 'example')

// The example as shipped; when not run as root, files are owned by the current user instead of
// root (only root may give files away), which is the one change made to the copy.
cpSync(join(here, '..', 'plans', 'demo'), example, { recursive: true })
if (process.getuid?.() !== 0) {
  const me = userInfo()
  const group = groupName(me.gid) ?? String(me.gid)
  const path = join(example, 'manifest.yaml')
  writeFileSync(path, readFileSync(path, 'utf8').replace('owner: root', `owner: ${me.username}`).replace('group: root', `group: ${group}`))
}

// A machine that is partly configured already: a directory with the wrong mode and a stale file.
mkdirSync(join(root, 'etc', 'hello'), { recursive: true })
chmodSync(join(root, 'etc', 'hello'), 0o700)
writeFileSync(join(root, 'etc', 'hello', 'old.conf'), 'legacy = true\n')

const run = (title, args, okCodes = [0]) => {
  console.log(`\n$ plait ${args.join(' ')}    # ${title}`)
  try {
    process.stdout.write(execFileSync(process.execPath, [plait, ...args], { cwd: example, encoding: 'utf8' }))
  } catch (e) {
    if (!okCodes.includes(e.status)) {
      process.stdout.write(e.stdout ?? '')
      process.stderr.write(e.stderr ?? '')
      console.error(`demo failed: plait exited ${e.status}`)
      process.exit(1)
    }
    process.stdout.write(e.stdout ?? '')
  }
}

console.log(`demo root: ${root}`)
run('plan and save it for review', ['plan', 'manifest.yaml', '--root', root, '--out', join(work, 'plan.json')])
run('show the saved plan', ['show', join(work, 'plan.json')])
run('apply the reviewed plan', ['apply', join(work, 'plan.json'), '--root', root])
run('plan again: nothing left to do', ['plan', 'manifest.yaml', '--root', root, '--detailed-exitcode'])
console.log(`\nThe demo's files are in ${work}.`)

function groupName(gid) {
  try {
    for (const line of readFileSync('/etc/group', 'utf8').split('\n')) {
      const [name, , id] = line.split(':')
      if (Number(id) === gid) return name
    }
  } catch {
    return undefined
  }
  return undefined
}
