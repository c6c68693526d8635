// http: goss's http and addr probes over node:http, node:https and node:net: one GET (following
// up to 10 redirects unless told not to), its body bounded, the whole exchange under one timeout;
// and whether a TCP connection opens within a timeout.
import * as http from 'node:http'
import * as https from 'node:https'
import * as net from 'node:net'

/** The most bytes of a body kept (the rest is read and dropped). */
export const maxBodyBytes = 1_048_576
const maxRedirects = 10

export interface Response {
  readonly status: number
  /** `Name: value` lines, names as the server sent them. */
  readonly headers: ReadonlyArray<string>
  readonly body: string
}

export interface Options {
  readonly timeoutMs: number
  readonly allowInsecure: boolean
  readonly followRedirects: boolean
}

const once = (url: URL, o: Options, deadline: number): Promise<Response & { readonly location?: string }> =>
  new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http
    const left = Math.max(1, deadline - Date.now())
    const req = lib.get(url, { timeout: left, ...(url.protocol === 'https:' ? { rejectUnauthorized: !o.allowInsecure } : {}) }, (res) => {
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (c: Buffer) => {
        if (size < maxBodyBytes) chunks.push(c.subarray(0, maxBodyBytes - size))
        size += c.length
      })
      res.on('end', () => {
        clearTimeout(timer)
        const headers: string[] = []
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`)
        const location = res.headers.location
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8'), ...(location !== undefined ? { location } : {}) })
      })
      res.on('error', reject)
    })
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${o.timeoutMs}ms`)), left)
    req.on('timeout', () => req.destroy(new Error(`timed out after ${o.timeoutMs}ms`)))
    req.on('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
  })

/** GETs a URL as goss's http rule does; a failure (refused, timed out, bad URL) is its message. */
export const get = async (target: string, o: Options): Promise<Response | string> => {
  const deadline = Date.now() + o.timeoutMs
  let url: URL
  try {
    url = new URL(target)
  } catch {
    return 'not a valid URL'
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `unsupported scheme ${url.protocol}`
    try {
      const r = await once(url, o, deadline)
      const redirect = r.status >= 300 && r.status < 400 && r.location !== undefined
      if (!redirect || !o.followRedirects) return { status: r.status, headers: r.headers, body: r.body }
      if (hop >= maxRedirects) return `more than ${maxRedirects} redirects`
      url = new URL(r.location as string, url)
    } catch (e) {
      return e instanceof Error ? e.message : String(e)
    }
  }
}

/** Whether a TCP connection to host:port opens within the timeout. */
export const reachable = (host: string, port: number, timeoutMs: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect({ host, port })
    const done = (ok: boolean): void => {
      clearTimeout(timer)
      socket.destroy()
      resolve(ok)
    }
    const timer = setTimeout(() => done(false), timeoutMs)
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
