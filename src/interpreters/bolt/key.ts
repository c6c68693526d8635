// key: the host's own key of sensitive values' digests (planfile/Redact.ts): 32 random bytes in a
// file of the state directory, readable by its owner only, made the first time a plan holds a
// sensitive value. It never leaves the host and is never in a plan: a plan's markers can be checked
// only where it was made (or where the key was copied), which is where it is applied.
import * as crypto from 'node:crypto'
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as HostFile from '../posix/hostFile.js'
import * as E from 'fp-ts/lib/Either.js'

// model

/** The key file's name in the state directory. */
export const fileName = 'secret-digest.key'

/** The key's length in bytes. */
export const length = 32

// constructors

/** The key in a file, made (with its directory, mode 0700) when the file is missing. */
export const readOrCreate = async (file: string): Promise<E.Either<string, Uint8Array>> => {
  const read = async (): Promise<E.Either<string, Uint8Array>> => {
    const bytes = HostFile.read(file, 4096)
    return bytes.length === length ? E.right(new Uint8Array(bytes)) : E.left(`the key of sensitive values ${file} is damaged: it holds ${bytes.length} bytes, not ${length}; remove it (plans made with it are then refused)`)
  }
  try {
    return await read()
  } catch (e) {
    if ((e as { code?: string }).code !== 'ENOENT') return E.left(`cannot read the key of sensitive values ${file}: ${(e as Error).message}`)
  }
  try {
    await fs.mkdir(nodePath.dirname(file), { recursive: true, mode: 0o700 })
    await fs.writeFile(file, crypto.randomBytes(length), { mode: 0o600, flag: 'wx' })
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') return E.left(`cannot make the key of sensitive values ${file}: ${(e as Error).message}`)
  }
  try {
    return await read()
  } catch (e) {
    return E.left(`cannot read the key of sensitive values ${file}: ${(e as Error).message}`)
  }
}
