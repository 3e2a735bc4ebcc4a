/**
 * @module sandbox/device-ledger
 * Per companion device, what the platform saw of its connections: logins, 440 `replaced` kicks, and stanzas that
 * arrived on a connection after a newer login of the same device superseded it. Gateways that move a session
 * between nodes must log the device in on the new node without the old one writing anything more; from the
 * platform's side that reads as "no superseded stanza, at most one kick per move", which is what the cluster tests
 * assert (GET /devices). Each login also records the address it came from, so a test can prove a gateway's
 * connection went through its proxy and not around it. The name the device registered with and the presence it
 * announces (GET /devices) show what the account's owner sees on the phone. The totals also go to GET /stats, next to the other
 * wire-level counters.
 */
import type { SandboxStats } from './stats.js'

/** One companion device's line in GET /devices. */
export interface DeviceRecord {
  /** The device's JID, `PHONE:DEVICE@s.whatsapp.net` (what pair-success named it). */
  device: string
  /** The account's phone number, digits only. */
  account: string
  /** Connections that logged in as this device. */
  logins: number
  /** 440 `replaced` stream errors sent to an older connection of this device because a newer one logged in. */
  replacedKicks: number
  /** Stanzas read from a connection of this device after a newer login superseded it (counted, never acted on). */
  supersededStanzas: number
  /** Logins by the address the connection came from (a client behind a proxy: the proxy's), e.g. `{"127.0.0.2": 3}`. */
  loginsFrom: Record<string, number>
  /** The name the phone's linked-devices list shows for it (what the client registered with); '' when none. */
  name: string
  /** `<presence type=…>` stanzas the device sent, by type, e.g. `{"available": 1}`: `available` shows the account
   * online, and the phone then stops notifying. */
  presence: Record<string, number>
}

export class DeviceLedger {
  readonly #records = new Map<string, DeviceRecord>()

  constructor(private readonly stats: SandboxStats) {}

  /** A connection from `address` got past the handshake as this device. */
  login(phone: string, device: number, address = 'unknown', name?: string): void {
    const record = this.#record(phone, device)
    record.logins++
    if (name !== undefined) record.name = name
    record.loginsFrom[address] = (record.loginsFrom[address] ?? 0) + 1
    this.stats.bump('logins') // GET /stats: logins - loginsEnded = companions connected now
  }

  /** The device's older connection got a 440 because a newer login of the same device came. */
  replacedKick(phone: string, device: number): void {
    this.#record(phone, device).replacedKicks++
    this.stats.bump('replacedKicks')
  }

  /** A stanza arrived on a connection of this device after a newer login had superseded it. */
  supersededStanza(phone: string, device: number): void {
    this.#record(phone, device).supersededStanzas++
    this.stats.bump('supersededStanzas')
  }

  /** The device announced its availability (`available`, `unavailable`). */
  presence(phone: string, device: number, type: string): void {
    const record = this.#record(phone, device)
    record.presence[type] = (record.presence[type] ?? 0) + 1
  }

  /** Every device that ever logged in, in order of first login; copies, so callers cannot change the counts. */
  list(): DeviceRecord[] {
    return [...this.#records.values()].map(record => ({
      ...record,
      loginsFrom: { ...record.loginsFrom },
      presence: { ...record.presence },
    }))
  }

  #record(phone: string, device: number): DeviceRecord {
    const key = `${phone}:${device}@s.whatsapp.net`
    let record = this.#records.get(key)
    if (!record) {
      record = {
        device: key,
        account: phone,
        logins: 0,
        replacedKicks: 0,
        supersededStanzas: 0,
        loginsFrom: {},
        name: '',
        presence: {},
      }
      this.#records.set(key, record)
    }
    return record
  }
}
