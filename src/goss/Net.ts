// Net: the listening sockets of /proc/net/{tcp,tcp6,udp,udp6} (pure parsing), and the names of
// goss's port and addr rules (`tcp:22`, `tcp6:80`, `udp:53`, `22`; `tcp://host:port`).

// model

export type Proto = 'tcp' | 'tcp6' | 'udp' | 'udp6'

/** A socket listening on a local port: its protocol, address (dotted or colon form) and port. */
export interface Listener {
  readonly proto: Proto
  readonly ip: string
  readonly port: number
}

// parsing

const ipv4 = (hex: string): string => [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.')

/** An IPv6 address of /proc (four little-endian 32-bit words) in its compressed form. */
const ipv6 = (hex: string): string => {
  const bytes: number[] = []
  for (let w = 0; w < 4; w++) for (let b = 3; b >= 0; b--) bytes.push(parseInt(hex.slice(w * 8 + b * 2, w * 8 + b * 2 + 2), 16))
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[i * 2] as number) << 8) | (bytes[i * 2 + 1] as number))
  if (groups.every((g) => g === 0)) return '::'
  // the longest run of zero groups (two or more) becomes `::`
  let best = -1
  let bestLen = 1
  for (let i = 0; i < 8; ) {
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLen) [best, bestLen] = [i, j - i]
    i = j === i ? i + 1 : j
  }
  const hexes = groups.map((g) => g.toString(16))
  return best < 0 ? hexes.join(':') : `${hexes.slice(0, best).join(':')}::${hexes.slice(best + bestLen).join(':')}`
}

/** The listening sockets of one /proc/net table (TCP in state LISTEN, UDP unconnected). */
export const listeners = (proto: Proto, text: string): ReadonlyArray<Listener> =>
  text
    .split('\n')
    .slice(1)
    .flatMap((line) => {
      const f = line.trim().split(/\s+/)
      const local = /^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})$/.exec(f[1] ?? '')
      const state = f[3]
      if (local === null || state !== (proto.startsWith('tcp') ? '0A' : '07')) return []
      const addr = local[1] as string
      return [{ proto, ip: addr.length === 8 ? ipv4(addr) : ipv6(addr), port: parseInt(local[2] as string, 16) }]
    })

/** A port rule's name as protocols and a port: `tcp:22` (IPv4 and IPv6 sockets, as Linux listens on both), `tcp6:22`, `udp:53`, `22` (tcp). */
export const portName = (name: string): { readonly protos: ReadonlyArray<Proto>; readonly port: number } | undefined => {
  const m = /^(?:(tcp|tcp6|udp|udp6):)?(\d{1,5})$/.exec(name)
  if (m === null || Number(m[2]) > 65535) return undefined
  const proto = (m[1] ?? 'tcp') as Proto
  return { protos: proto === 'tcp' ? ['tcp', 'tcp6'] : proto === 'udp' ? ['udp', 'udp6'] : [proto], port: Number(m[2]) }
}

/** An addr rule's name: `tcp://host:port` (`[v6]:port` too). */
export const addrName = (name: string): { readonly proto: 'tcp' | 'udp'; readonly host: string; readonly port: number } | undefined => {
  const m = /^(tcp|udp):\/\/(\[[0-9A-Fa-f:.]+\]|[^:/\s[\]]+):(\d{1,5})$/.exec(name)
  if (m === null || Number(m[3]) > 65535 || Number(m[3]) === 0) return undefined
  return { proto: m[1] as 'tcp' | 'udp', host: (m[2] as string).replace(/^\[|\]$/g, ''), port: Number(m[3]) }
}
