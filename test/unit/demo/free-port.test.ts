/**
 * The launchers' ports: picked outside the kernel's ephemeral range (where every outgoing loopback connection takes
 * its port, and once took one a sandbox was about to bind), and picked again when a child still loses its port.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { once } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import { freePort, onFreePort } from '../../../src/demo/processes.js'

const ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])

describe('freePort', () => {
  it('gives ports below the ephemeral range that 127.0.0.1 can bind, and not the same one each time', async () => {
    const ports = []
    for (let i = 0; i < 20; i++) ports.push(await freePort())
    for (const port of ports) expect(port).toBeLessThan(ephemeralLow)
    expect(new Set(ports).size).toBeGreaterThan(10)
    const srv = createServer().listen(ports[0], '127.0.0.1')
    await once(srv, 'listening')
    srv.close()
  })

  it('never gives a port something listens on: it picks again', async () => {
    const held = await freePort()
    const srv = createServer().listen(held, '127.0.0.1')
    await once(srv, 'listening')
    // the first pick lands on the held port, the second anywhere else
    const at = (port: number) => (port - 10_000 + 0.5) / (ephemeralLow - 10_000)
    const random = vi
      .spyOn(Math, 'random')
      .mockReturnValueOnce(at(held))
      .mockReturnValueOnce(at(held + 1))
    try {
      expect(await freePort()).toBe(held + 1)
      expect(random).toHaveBeenCalledTimes(2)
    } finally {
      random.mockRestore()
      srv.close()
    }
  })
})

describe('onFreePort', () => {
  it('starts again on another port when the child lost its port (EADDRINUSE)', async () => {
    const tried: number[] = []
    const started = await onFreePort(undefined, async port => {
      tried.push(port)
      if (tried.length < 3) throw new Error(`sandbox exited early (1):\nError: listen EADDRINUSE 127.0.0.1:${port}`)
      return port
    })
    expect(tried).toHaveLength(3)
    expect(started).toBe(tried[2])
    expect(new Set(tried).size).toBe(3)
  })

  it('gives up after four tries, and never retries a port the caller chose or another failure', async () => {
    let calls = 0
    const inUse = async () => {
      calls++
      throw new Error('listen EADDRINUSE')
    }
    await expect(onFreePort(undefined, inUse)).rejects.toThrow('EADDRINUSE')
    expect(calls).toBe(4)
    calls = 0
    await expect(onFreePort(7800, inUse)).rejects.toThrow('EADDRINUSE')
    expect(calls).toBe(1)
    calls = 0
    await expect(
      onFreePort(undefined, async () => {
        calls++
        throw new Error('gateway exited early (1): DATA_KEY is not 32 bytes')
      }),
    ).rejects.toThrow('DATA_KEY')
    expect(calls).toBe(1)
  })
})
