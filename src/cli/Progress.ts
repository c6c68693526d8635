// Progress: the one status line a long apply shows on a terminal, "resource N of M: id" (pure).
import { field as f } from '../core/Terminal.js'

/**
 * The status line of resource `index` (1-based) of `total`, its id escaped (Terminal.field), cut
 * to fit `columns` characters less one (a line that wraps cannot be overwritten in place), with
 * `…` where it was cut. No newline: the line is overwritten by the next one.
 */
export const line = (index: number, total: number, id: string, columns: number): string => {
  const text = `resource ${index} of ${total}: ${f(id)}`
  const room = Math.max(columns - 1, 1)
  const chars = [...text]
  return chars.length <= room ? text : chars.slice(0, Math.max(room - 1, 0)).join('') + '…'
}
