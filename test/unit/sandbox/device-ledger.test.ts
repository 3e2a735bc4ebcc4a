import { describe, expect, it } from 'vitest'
import { DeviceLedger } from '../../../src/sandbox/device-ledger.js'
import { SandboxStats } from '../../../src/sandbox/stats.js'

describe('DeviceLedger', () => {
  it('keeps one line per device, named by its device JID, in order of first login', () => {
    const ledger = new DeviceLedger(new SandboxStats())
    ledger.login('15550000002', 1, '127.0.0.2')
    ledger.login('15550000001', 3, '127.0.0.1')
    ledger.login('15550000002', 1, '127.0.0.3')
    ledger.login('15550000002', 2)
    expect(ledger.list()).toEqual([
      {
        device: '15550000002:1@s.whatsapp.net',
        account: '15550000002',
        logins: 2,
        replacedKicks: 0,
        supersededStanzas: 0,
        loginsFrom: { '127.0.0.2': 1, '127.0.0.3': 1 }, // where each came from: a proxy shows its address
        name: '',
        presence: {},
      },
      {
        device: '15550000001:3@s.whatsapp.net',
        account: '15550000001',
        logins: 1,
        replacedKicks: 0,
        supersededStanzas: 0,
        loginsFrom: { '127.0.0.1': 1 },
        name: '',
        presence: {},
      },
      {
        device: '15550000002:2@s.whatsapp.net',
        account: '15550000002',
        logins: 1,
        replacedKicks: 0,
        supersededStanzas: 0,
        loginsFrom: { unknown: 1 },
        name: '',
        presence: {},
      },
    ])
  })

  it('counts kicks and superseded stanzas against the device they happened to, not its account', () => {
    const ledger = new DeviceLedger(new SandboxStats())
    ledger.login('15550000001', 1)
    ledger.login('15550000001', 2)
    ledger.login('15550000001', 2)
    ledger.replacedKick('15550000001', 2)
    ledger.supersededStanza('15550000001', 2)
    ledger.supersededStanza('15550000001', 2)
    const [first, second] = ledger.list()
    expect(first).toMatchObject({ logins: 1, replacedKicks: 0, supersededStanzas: 0 })
    expect(second).toMatchObject({ logins: 2, replacedKicks: 1, supersededStanzas: 2 })
  })

  it('adds the totals to GET /stats next to the other counters, absent until first bumped', () => {
    const stats = new SandboxStats()
    stats.bump('connections', 2)
    const ledger = new DeviceLedger(stats)
    expect(stats.snapshot()).toEqual({ connections: 2 })
    ledger.login('15550000001', 1)
    ledger.login('15550000002', 1)
    ledger.replacedKick('15550000001', 1)
    ledger.supersededStanza('15550000001', 1)
    ledger.supersededStanza('15550000002', 1)
    expect(stats.snapshot()).toEqual({ connections: 2, logins: 2, replacedKicks: 1, supersededStanzas: 2 })
  })

  it('keeps the name a device registered with and the presence it announced, by type', () => {
    const ledger = new DeviceLedger(new SandboxStats())
    ledger.login('15550000001', 1, '127.0.0.1', 'Front desk')
    ledger.presence('15550000001', 1, 'unavailable')
    ledger.presence('15550000001', 1, 'available')
    ledger.presence('15550000001', 1, 'available')
    ledger.login('15550000001', 1, '127.0.0.1') // a login without a name keeps the one registered
    expect(ledger.list()[0]).toMatchObject({ name: 'Front desk', presence: { available: 2, unavailable: 1 } })
  })

  it('hands out copies: a caller changing a line does not change the count', () => {
    const ledger = new DeviceLedger(new SandboxStats())
    ledger.login('15550000001', 1)
    const [line] = ledger.list()
    if (line) {
      line.logins = 99
      line.presence.available = 5
    }
    expect(ledger.list()[0]).toMatchObject({ logins: 1, presence: {} })
  })
})
