// groups: the process groups of the children plait runs detached (providers, plugins, commands),
// so that each can be killed whole (`kill(-pid)`) at its timeout, and every one still running when
// plait exits or is interrupted: a detached process does not get the terminal's signals.

/** Process groups of the processes running now. */
const running = new Set<number>()
let exitHook = false

/** Kills a process group (nothing when it has exited already). */
export const killGroup = (pid: number | undefined): void => {
  if (pid === undefined) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // ESRCH: every process of the group has exited already.
  }
}

/**
 * Kills every process group still running. Runs when this process exits; a command that handles
 * SIGINT or SIGTERM should call it too.
 */
export const killRunning = (): void => {
  for (const pid of running) killGroup(pid)
  running.clear()
}

/** Records a started process's group until it ends; the forget function to call then. */
export const track = (pid: number | undefined): (() => void) => {
  if (pid === undefined) return () => undefined
  running.add(pid)
  if (!exitHook) {
    exitHook = true
    process.once('exit', killRunning)
  }
  return () => running.delete(pid)
}
