// A stand-in for systemctl, for tests only: systemd is installed on these machines but cannot run
// (it is not PID 1), so no real unit can be started. The stand-in is a small POSIX shell script
// that keeps each unit's states in files under a temporary directory and answers the verbs plait
// uses (show, start, stop, restart, enable, disable, daemon-reload) with systemctl's words and exit
// codes; `down()` makes it answer as this machine's real systemctl does when no manager runs.
import * as fs from 'node:fs'
import * as path from 'node:path'

/** A unit of the stand-in: systemd's words for its states, and how it behaves when started. */
export interface FakeUnit {
  readonly active: string
  readonly unitFile: string
  /** `fails`: the start job fails (exit 1); `dies`: it starts, then exits at once (exit 0, inactive). */
  readonly behaviour?: 'ok' | 'fails' | 'dies'
}

export interface FakeSystemctl {
  /** The directory holding `systemctl` (put it first on PATH). */
  readonly bin: string
  /** The script's path. */
  readonly binary: string
  /** A PATH with the stand-in first. */
  readonly path: string
  /** The directory of its state: `units/NAME/{active,unitFile,behaviour}`, `calls`, `down`. */
  readonly state: string
  readonly unit: (name: string, u: FakeUnit) => void
  readonly units: () => Readonly<Record<string, FakeUnit>>
  /** Every run so far, as its arguments. */
  readonly calls: () => ReadonlyArray<string>
  /** Makes it answer as a systemctl without a running manager (or as a working one again). */
  readonly down: (isDown: boolean) => void
}

const script = (state: string): string => `#!/bin/sh
# A stand-in for systemctl (plait's tests): systemd cannot run here. State lives in ${state}.
STATE='${state}'
printf '%s\\n' "$*" >> "$STATE/calls"
if [ -e "$STATE/down" ]; then
  echo "System has not been booted with systemd as init system (PID 1). Can't operate." >&2
  echo "Failed to connect to bus: Host is down" >&2
  exit 1
fi
verb=$1
shift
units=
rest=0
for a in "$@"; do
  if [ $rest = 1 ]; then units="$units $a"; continue; fi
  case "$a" in
    --) rest=1 ;;
    --system|--no-pager|--property=*) ;;
    -*) echo "systemctl: unrecognized option '$a'" >&2; exit 1 ;;
    *) units="$units $a" ;;
  esac
done
u() { printf '%s/units/%s' "$STATE" "$1"; }
case "$verb" in
  show)
    first=1
    for n in $units; do
      [ $first = 1 ] || echo
      first=0
      echo "Id=$n.service"
      if [ -d "$(u "$n")" ]; then
        echo "LoadState=loaded"
        echo "ActiveState=$(cat "$(u "$n")/active")"
        echo "UnitFileState=$(cat "$(u "$n")/unitFile")"
      else
        echo "LoadState=not-found"
        echo "ActiveState=inactive"
        echo "UnitFileState="
      fi
    done
    exit 0 ;;
  daemon-reload)
    exit 0 ;;
  start|restart|stop|enable|disable)
    for n in $units; do
      d=$(u "$n")
      if [ ! -d "$d" ]; then echo "Failed to $verb $n.service: Unit $n.service not found." >&2; exit 5; fi
      case "$verb" in
        start|restart)
          case "$(cat "$d/behaviour" 2>/dev/null)" in
            fails) echo failed > "$d/active"
              echo "Job for $n.service failed because the control process exited with error code." >&2
              echo "See \\"systemctl status $n.service\\" and \\"journalctl -xeu $n.service\\" for details." >&2
              exit 1 ;;
            dies) echo inactive > "$d/active" ;;
            *) echo active > "$d/active" ;;
          esac ;;
        stop) echo inactive > "$d/active" ;;
        enable)
          case "$(cat "$d/unitFile")" in
            masked) echo "Failed to enable unit: Unit file /etc/systemd/system/$n.service is masked." >&2; exit 1 ;;
            disabled) echo enabled > "$d/unitFile"
              echo "Created symlink /etc/systemd/system/multi-user.target.wants/$n.service → /lib/systemd/system/$n.service." >&2 ;;
          esac ;;
        disable)
          if [ "$(cat "$d/unitFile")" = enabled ]; then echo disabled > "$d/unitFile"
            echo "Removed \\"/etc/systemd/system/multi-user.target.wants/$n.service\\"." >&2
          fi ;;
      esac
    done
    exit 0 ;;
  *)
    echo "Unknown command verb '$verb'." >&2
    exit 1 ;;
esac
`

/** Writes the stand-in into `base` (its state too). */
export const fakeSystemctl = (base: string): FakeSystemctl => {
  const bin = path.join(base, 'bin')
  const state = path.join(base, 'state')
  fs.mkdirSync(bin, { recursive: true })
  fs.mkdirSync(path.join(state, 'units'), { recursive: true })
  const binary = path.join(bin, 'systemctl')
  fs.writeFileSync(binary, script(state), { mode: 0o755 })
  fs.writeFileSync(path.join(state, 'calls'), '')
  const read = (f: string): string => fs.readFileSync(f, 'utf8').trim()
  return {
    bin,
    binary,
    state,
    path: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
    unit: (name, u) => {
      const d = path.join(state, 'units', name)
      fs.mkdirSync(d, { recursive: true })
      fs.writeFileSync(path.join(d, 'active'), u.active + '\n')
      fs.writeFileSync(path.join(d, 'unitFile'), u.unitFile + '\n')
      fs.writeFileSync(path.join(d, 'behaviour'), (u.behaviour ?? 'ok') + '\n')
    },
    units: () =>
      Object.fromEntries(
        fs.readdirSync(path.join(state, 'units')).map((n) => {
          const d = path.join(state, 'units', n)
          return [n, { active: read(path.join(d, 'active')), unitFile: read(path.join(d, 'unitFile')), behaviour: (fs.existsSync(path.join(d, 'behaviour')) ? read(path.join(d, 'behaviour')) : 'ok') as FakeUnit['behaviour'] }]
        }),
      ),
    calls: () => read(path.join(state, 'calls')).split('\n').filter((l) => l !== ''),
    down: (isDown) => (isDown ? fs.writeFileSync(path.join(state, 'down'), '') : fs.rmSync(path.join(state, 'down'), { force: true })),
  }
}
