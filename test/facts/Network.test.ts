import { describe, expect, it } from 'vitest'
import * as Network from '../../src/facts/Network.js'

const lo: Network.Interface = { index: 1, name: 'lo', mtu: 65536, hardwareAddr: '', flags: 0x49, addrs: ['127.0.0.1/8', '::1/128'] }
const eth0: Network.Interface = { index: 2, name: 'eth0', mtu: 1500, hardwareAddr: '52:54:00:12:34:56', flags: 0x1043, addrs: ['10.0.0.5/24', '169.254.1.1/16', 'fd00::5/64', 'fe80::5054:ff:fe12:3456/64'] }
const wg0: Network.Interface = { index: 3, name: 'wg0', mtu: 1420, hardwareAddr: '', flags: 0x91, addrs: ['192.168.9.1/24'] }

describe('flags and hardware addresses', () => {
  it('names flags as gopsutil does, in its order', () => {
    expect(Network.flags(0x1043)).toEqual(['up', 'broadcast', 'multicast'])
    expect(Network.flags(0x49)).toEqual(['up', 'loopback'])
    expect(Network.flags(0x91)).toEqual(['up', 'pointtopoint'])
    expect(Network.flags(0)).toEqual([])
  })

  it('prints no hardware address for an all-zero one, as Go does', () => {
    expect(Network.hardwareAddr('00:00:00:00:00:00\n')).toBe('')
    expect(Network.hardwareAddr('52:54:00:AB:34:56\n')).toBe('52:54:00:ab:34:56')
    expect(Network.hardwareAddr('')).toBe('')
  })
})

describe('interfaces', () => {
  it('gives gopsutil\'s shape, ordered by index', () => {
    expect(Network.interfaces([eth0, lo])).toEqual([
      { index: 1, mtu: 65536, name: 'lo', hardwareAddr: '', flags: ['up', 'loopback'], addrs: [{ addr: '127.0.0.1/8' }, { addr: '::1/128' }] },
      { index: 2, mtu: 1500, name: 'eth0', hardwareAddr: '52:54:00:12:34:56', flags: ['up', 'broadcast', 'multicast'], addrs: [{ addr: '10.0.0.5/24' }, { addr: '169.254.1.1/16' }, { addr: 'fd00::5/64' }, { addr: 'fe80::5054:ff:fe12:3456/64' }] },
    ])
  })
})

describe('addresses', () => {
  it('lists usable addresses, marks the default route\'s and leaves out loopback and link-local ones', () => {
    expect(Network.addresses([wg0, eth0, lo], 'eth0', 'eth0')).toEqual({
      addresses: [
        { interface: 'eth0', address: '10.0.0.5', ipv4: true, default: true },
        { interface: 'eth0', address: 'fd00::5', ipv4: false, default: true },
        { interface: 'wg0', address: '192.168.9.1', ipv4: true, default: false },
      ],
      default_ipv4: '10.0.0.5',
      default_ipv6: 'fd00::5',
    })
    expect(Network.addresses([lo], '', '')).toEqual({ addresses: [], default_ipv4: '', default_ipv6: '' })
  })

  it('excludes what Go calls loopback, link-local, multicast and unspecified', () => {
    const ex = (s: string): boolean => Network.addresses([{ ...lo, name: 'x', addrs: [`${s}/8`] }], '', '').addresses.length === 0
    expect(['127.1.2.3', '169.254.0.1', '224.0.0.1', '239.1.1.1', '0.0.0.0', '::', '::1', 'fe80::1', 'ff02::1', 'garbage'].every(ex)).toBe(true)
    expect(['10.1.1.1', '8.8.8.8', '2001:db8::1', 'fd00::1', '240.0.0.1'].some(ex)).toBe(false)
  })
})
