// streams: plait writes its output straight to descriptors 1 and 2, not through Node's streams. It
// tells a terminal as isatty does, a reader that stops early leaves the command its exit status
// (closed-reader.test.ts has the apply's side), a full non-blocking pipe loses nothing, and output
// reaches a slow reader whole before plait exits.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import * as tty from 'node:tty'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Streams from '../../src/cli/streams.js'
import { binary, cleanup, ensureBuilt, repo, sandbox } from '../e2e/helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

describe('isTerminal', () => {
  it('says what isatty says of a file, /dev/null, a directory, a pseudo-terminal and a closed descriptor', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plait-streams-'))
    const fds: number[] = []
    try {
      fs.writeFileSync(path.join(dir, 'f'), 'x')
      fds.push(fs.openSync(path.join(dir, 'f'), 'r'), fs.openSync('/dev/null', 'w'), fs.openSync(dir, 'r'))
      let ptmx: number | undefined
      try {
        ptmx = fs.openSync('/dev/ptmx', fs.constants.O_RDWR | fs.constants.O_NOCTTY)
        fds.push(ptmx)
      } catch {
        // no pseudo-terminals here: the other cases still stand
      }
      for (const fd of fds) expect(Streams.isTerminal(fd), `fd of ${fs.readlinkSync(`/proc/self/fd/${fd}`)}`).toBe(tty.isatty(fd))
      if (ptmx !== undefined) expect(Streams.isTerminal(ptmx)).toBe(true)
      const closed = fds[0]!
      fs.closeSync(closed)
      fds.shift()
      expect(Streams.isTerminal(closed)).toBe(false)
    } finally {
      for (const fd of fds) fs.closeSync(fd)
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('says what isatty says of a pipe', () => {
    const script = `import { isTerminal } from ${JSON.stringify(path.join(repo, 'dist/cli/streams.js'))}
import { isatty } from 'node:tty'
process.stdout.write(JSON.stringify([0, 1, 2].map((fd) => [isTerminal(fd), isatty(fd)])))`
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] })
    expect(r.status, r.stderr).toBe(0)
    for (const [ours, node] of JSON.parse(r.stdout) as Array<[boolean, boolean]>) expect(ours).toBe(node)
  })
})

describe('the output of a command', () => {
  /** A manifest whose plan prints some 200 KB. */
  const big = (): { manifest: string; root: string } => {
    const s = sandbox()
    fs.mkdirSync(s.at('/srv'))
    const files = Array.from({ length: 2000 }, (_, i) => `        - /srv/f${i}:\n            content: "line of file ${i}\\n"\n            owner: root\n            group: root\n            mode: "0644"\n`).join('')
    return { manifest: s.manifest(`ccm:\n  resources:\n    - file:\n${files}`), root: s.root }
  }

  /** Makes stdout non-blocking before plait starts (as a parent sharing it may leave it): a write the full pipe refuses (EAGAIN) goes through Node's stream. */
  const nonBlocking = `import fcntl, os, sys
fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_NONBLOCK)
os.execv(sys.argv[1], sys.argv[1:])`

  it('keeps its exit status when the reader stops early (plait plan --detailed-exitcode | head), written directly or through the stream', () => {
    const { manifest, root } = big()
    const direct = spawnSync('bash', ['-c', `"$@" | head -c 100 >/dev/null; echo "status \${PIPESTATUS[0]}" >&2`, 'bash', process.execPath, binary, 'plan', manifest, '--root', root, '--detailed-exitcode'], { encoding: 'utf8' })
    expect(direct.stderr).toBe('status 2\n')
    // non-blocking: the pipe fills (EAGAIN), the rest is queued in Node's stream, and the reader goes (EPIPE there)
    const queued = spawnSync('bash', ['-c', `python3 -c "$0" "$@" | head -c 100 >/dev/null; echo "status \${PIPESTATUS[0]}" >&2`, nonBlocking, process.execPath, binary, 'plan', manifest, '--root', root, '--detailed-exitcode'], { encoding: 'utf8' })
    expect(queued.stderr).toBe('status 2\n')
  })

  it('reaches a slow reader whole: nothing is lost to a full pipe or to the early exit', () => {
    const { manifest, root } = big()
    const all = spawnSync(process.execPath, [binary, 'plan', manifest, '--root', root], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    expect(all.status, all.stderr).toBe(0)
    expect(all.stdout.length).toBeGreaterThan(128 * 1024) // more than a pipe holds
    // the reader sleeps before reading, so the pipe fills and plait's writes wait for it
    const slow = spawnSync('bash', ['-c', `"$@" | (sleep 0.5; cat)`, 'bash', process.execPath, binary, 'plan', manifest, '--root', root], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    expect(slow.status, slow.stderr).toBe(0)
    expect(slow.stdout).toBe(all.stdout)
    // the same with stdout made non-blocking: what the full pipe refuses goes through Node's stream, which waits
    const queued = spawnSync('bash', ['-c', `python3 -c "$0" "$@" | (sleep 0.5; cat)`, nonBlocking, process.execPath, binary, 'plan', manifest, '--root', root], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    expect(queued.status, queued.stderr).toBe(0)
    expect(queued.stdout).toBe(all.stdout)
  })
})
