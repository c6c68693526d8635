// streams: the process's stdout and stderr as a person's terminal sees them.
//
// Everything written here passes Terminal.text, so that no control character from a manifest, a
// machine, a provider or a command reaches the terminal raw, whichever renderer forgot a field.
// JSON goes through Terminal.json first, which keeps it exactly the same value. Colour (see
// Colour) is added after Terminal.text, to a stream that gets it, and only by Colour's painters.
//
// The text is written straight to file descriptors 1 and 2 (writeSync), as Node's own streams
// write to pipes, files and terminals on Linux (synchronously), without making those streams: for
// a pipe Node's would load its network and stream modules first, some 6 ms of a 35 ms start. Where
// a descriptor cannot take a write at once (EAGAIN: a non-blocking pipe that is full), that write
// and every later one to it go through Node's stream, which queues them.
//
// A descriptor that cannot be written any more never stops the command: what was to go to it from
// then on is dropped, and the command goes on to its end. An apply cut short by its output would
// leave its run half done, and one stopped while printing its plan would have changed nothing.
// A reader that stopped early (EPIPE: `plait apply m.yaml | head`) chose to: the command exits with
// its own status (a plan with --detailed-exitcode still says 2 when there are changes). Any other
// failure (ENOSPC: stdout redirected to a full disk; EIO) lost output nobody chose to lose: main
// says so on the other stream and exits 1 (lostOutput).
import { fstatSync, writeSync } from 'node:fs'
import * as Colour from './Colour.js'
import * as Terminal from '../core/Terminal.js'
import { EXIT_ERROR } from './exit.js'

type Fd = 1 | 2

/** Node's stream of a descriptor, once a write has gone through it (then every later one does). */
const streams: { [fd in Fd]?: NodeJS.WriteStream } = {}

/** The descriptors that failed a write: nothing more is written to them. */
const gone: { [fd in Fd]?: true } = {}

/** The first write that failed other than by its reader going away (EPIPE). */
let lost: { readonly fd: Fd; readonly code: string } | undefined

const failed = (fd: Fd, e: unknown): void => {
  gone[fd] = true
  const code = (e as NodeJS.ErrnoException | undefined)?.code ?? 'EIO'
  if (code === 'EPIPE') return
  lost ??= { fd, code }
  // a write queued in Node's stream may fail after main has set the status: it is an error all the same
  process.exitCode = EXIT_ERROR
}

/** What output was lost to a failed write other than a reader's going away (the command then exits 1), if any. */
export const lostOutput = (): string | undefined => (lost === undefined ? undefined : `${lost.fd === 1 ? 'standard output' : 'standard error'} failed (${lost.code})`)

const streamOf = (fd: Fd): NodeJS.WriteStream => {
  let s = streams[fd]
  if (s === undefined) {
    s = fd === 1 ? process.stdout : process.stderr
    s.on('error', (e: NodeJS.ErrnoException) => failed(fd, e))
    streams[fd] = s
  }
  return s
}

/** Writes all of `text` to descriptor `fd` (see the head of this module). */
const write = (fd: Fd, text: string): void => {
  if (gone[fd] === true) return
  const s = streams[fd]
  if (s !== undefined) {
    s.write(text)
    return
  }
  const bytes = Buffer.from(text, 'utf8')
  let at = 0
  while (at < bytes.length) {
    try {
      at += writeSync(fd, bytes, at)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') {
        failed(fd, e)
        return
      }
      streamOf(fd).write(bytes.subarray(at))
      return
    }
  }
}

/** The major numbers of terminals' character devices, besides pseudo-terminals' 136-143 (see isTerminal). */
const terminalMajors: ReadonlySet<number> = new Set([3, 4, 5, 166, 188, 204, 229])

/**
 * Whether a descriptor is a terminal, told without Node's tty module (which loads its network
 * modules, some 4 ms): a character device of a terminal's major number, as Linux numbers them
 * (Documentation/admin-guide/devices.txt): old pseudo-terminals 3, virtual consoles and serial
 * lines 4, /dev/tty, the console and /dev/ptmx 5, pseudo-terminals 136-143, USB modems (ttyACM)
 * 166, USB serial lines 188, low-density serial lines (ttyAMA and others) 204, hypervisor
 * consoles (hvc, as `virsh console` shows) 229. /dev/null and other devices are not; a terminal of
 * another driver is taken for none, and gets no colour and no status line.
 */
export const isTerminal = (fd: number): boolean => {
  let st
  try {
    st = fstatSync(fd)
  } catch {
    return false
  }
  if (!st.isCharacterDevice()) return false
  const major = Math.floor(st.rdev / 256) % 4096
  return terminalMajors.has(major) || (major >= 136 && major <= 143)
}

/** Whether stdout and stderr are terminals, each asked once (a status line per resource asks again and again). */
const terminals: { [fd in Fd]?: boolean } = {}
const terminal = (fd: Fd): boolean => (terminals[fd] ??= isTerminal(fd))

/** Whether everything written so far has been handed to the system (nothing queued in a stream). */
export const drained = (): boolean => (streams[1]?.writableLength ?? 0) === 0 && (streams[2]?.writableLength ?? 0) === 0

/** A painter of escaped text (Colour.plan, Colour.report, ...). */
export type Painter = (text: string) => string

let colours: { readonly out: boolean; readonly err: boolean } | undefined

/** Whether stdout and stderr get colour (Colour.enabled of each stream), decided once. */
export const colour = (): { readonly out: boolean; readonly err: boolean } =>
  (colours ??= {
    out: Colour.enabled({ isTTY: terminal(1), env: process.env }),
    err: Colour.enabled({ isTTY: terminal(2), env: process.env }),
  })

/** The status line on stderr, when one is showing. */
let status = false

const clearStatus = (): void => {
  if (!status) return
  status = false
  write(2, '\r\x1b[K')
}

/** Writes text to stdout, control characters shown visibly (newlines and tabs kept), painted when stdout gets colour. */
export const out = (s: string, painter?: Painter): void => {
  clearStatus()
  const safe = Terminal.text(s)
  write(1, painter !== undefined && colour().out ? painter(safe) : safe)
}

/** Writes text to stderr, control characters shown visibly (newlines and tabs kept); diagnostics coloured when stderr gets colour. */
export const err = (s: string): void => {
  clearStatus()
  const safe = Terminal.text(s)
  write(2, colour().err ? Colour.diagnostics(safe) : safe)
}

/** True when a status line can be shown: stderr is a terminal that can erase a line. */
export const canShowStatus = (): boolean => terminal(2) && process.env['TERM'] !== 'dumb'

/**
 * Shows one status line on stderr, over the previous one (undefined: erases it). Only on a
 * terminal (canShowStatus); the text is escaped like everything else, and any other output
 * erases the line first, so it never mixes with a plan, a report or a message.
 */
export const showStatus = (line: string | undefined): void => {
  if (!canShowStatus()) return
  if (line === undefined) return clearStatus()
  write(2, `\r\x1b[K${Terminal.text(line.replace(/\n/g, ' '))}`)
  status = true
}

/** The terminal's width in columns: what the terminal says, else $COLUMNS, else 80. */
export const columns = (): number => {
  const env = Number(process.env['COLUMNS'])
  // only a terminal has columns (asked of Node's stream of it, made here if not yet)
  const cols = terminal(2) ? process.stderr.columns : 0
  return cols > 0 ? cols : Number.isInteger(env) && env > 0 ? env : 80
}

/** A value as indented JSON text, terminal-safe, with a final newline. */
export const json = (value: unknown): string => Terminal.json(JSON.stringify(value, null, 2)) + '\n'
