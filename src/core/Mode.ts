// Mode: a permission mode as CCM spells it ("0644", "644", "0o755", "0O700"), at most 0777.
import * as E from 'fp-ts/lib/Either.js'

/** Parses a CCM mode string into its numeric value, or says why it is not one. */
export const parse = (text: string): E.Either<string, number> => {
  const body = text.startsWith('0o') || text.startsWith('0O') ? text.slice(2) : text
  if (body.length === 0) return E.left(`invalid mode "${text}": empty`)
  if (!/^[0-7]+$/.test(body)) {
    return E.left(`invalid mode "${text}": not an octal number (digits 0-7, optionally prefixed by 0o)`)
  }
  const value = parseInt(body, 8)
  if (value > 0o777) {
    return E.left(`invalid mode "${text}": exceeds 0777 (setuid, setgid and sticky bits cannot be set through mode)`)
  }
  return E.right(value)
}

/** Formats a numeric mode as four octal digits ("0644"). */
export const format = (mode: number): string => '0' + (mode & 0o777).toString(8).padStart(3, '0')
