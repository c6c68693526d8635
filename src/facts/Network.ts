// Network: CCM's network facts: gopsutil's interface list (`network.interfaces`), the usable
// addresses (`network.addresses`) and the default route's addresses (`network.default_ipv4`,
// `network.default_ipv6`), built from what the interpreter read.
import * as E from 'fp-ts/lib/Either.js'
import * as Validators from '../manifest/Validators.js'

// model

/** One interface as the machine describes it. */
export interface Interface {
  readonly index: number
  readonly name: string
  readonly mtu: number
  /** The MAC address, lowercase with colons; "" for none (all zeros, as on loopback). */
  readonly hardwareAddr: string
  /** The kernel's IFF_* flags word (/sys/class/net/NAME/flags). */
  readonly flags: number
  /** Addresses in CIDR form, `10.0.0.5/24`, `fe80::1/64`. */
  readonly addrs: ReadonlyArray<string>
}

// constructors

const flagNames: ReadonlyArray<readonly [number, string]> = [
  [0x1, 'up'],
  [0x2, 'broadcast'],
  [0x8, 'loopback'],
  [0x10, 'pointtopoint'],
  [0x1000, 'multicast'],
]

/** gopsutil's flag names of an IFF_* word, in its order. */
export const flags = (word: number): ReadonlyArray<string> => flagNames.filter(([bit]) => (word & bit) !== 0).map(([, name]) => name)

/** A MAC address as Go prints it: "" when every byte is zero. */
export const hardwareAddr = (text: string): string => {
  const t = text.trim().toLowerCase()
  return /^(00:)*00$/.test(t) || t === '' ? '' : t
}

/** Whether an address is one CCM leaves out of `network.addresses`: loopback, link-local, multicast or unspecified. */
export const isExcluded = (ip: Uint8Array): boolean => {
  if (Validators.isV4(ip)) {
    const [a, b] = [ip[12]!, ip[13]!]
    return a === 127 || (a === 169 && b === 254) || (a >= 224 && a <= 239) || ip.slice(12).every((x) => x === 0)
  }
  const zero = ip.every((x) => x === 0)
  const loopback = ip.slice(0, 15).every((x) => x === 0) && ip[15] === 1
  const linkLocal = ip[0] === 0xfe && (ip[1]! & 0xc0) === 0x80
  const multicast = ip[0] === 0xff
  return zero || loopback || linkLocal || multicast
}

/** The interfaces in gopsutil's JSON shape, ordered by index. */
export const interfaces = (list: ReadonlyArray<Interface>): ReadonlyArray<Readonly<Record<string, unknown>>> =>
  [...list]
    .sort((a, b) => a.index - b.index)
    .map((i) => ({ index: i.index, mtu: i.mtu, name: i.name, hardwareAddr: i.hardwareAddr, flags: flags(i.flags), addrs: i.addrs.map((addr) => ({ addr })) }))

/** An address in CIDR form without its prefix, as Go's ParseCIDR then String gives it. */
const addressOf = (cidr: string): string => cidr.split('/')[0]!

/**
 * CCM's `network.addresses`, `default_ipv4` and `default_ipv6`: every usable address with its
 * interface, family and whether its interface carries the default route of its family.
 */
export const addresses = (
  list: ReadonlyArray<Interface>,
  default4: string,
  default6: string,
): { readonly addresses: ReadonlyArray<Readonly<Record<string, unknown>>>; readonly default_ipv4: string; readonly default_ipv6: string } => {
  const out: Readonly<Record<string, unknown>>[] = []
  let v4 = ''
  let v6 = ''
  for (const i of [...list].sort((a, b) => a.index - b.index)) {
    for (const cidr of i.addrs) {
      const address = addressOf(cidr)
      const ip = Validators.parseIP(address)
      if (E.isLeft(ip) || isExcluded(ip.right)) continue
      if (Validators.isV4(ip.right)) {
        out.push({ interface: i.name, address, ipv4: true, default: i.name === default4 })
        if (i.name === default4) v4 = address
      } else {
        out.push({ interface: i.name, address, ipv4: false, default: i.name === default6 })
        if (i.name === default6) v6 = address
      }
    }
  }
  return { addresses: out, default_ipv4: v4, default_ipv6: v6 }
}
