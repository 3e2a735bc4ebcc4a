/**
 * A DNS server on loopback for tests: answers A and AAAA queries for the names it is given, NXDOMAIN for others, and
 * never answers the names marked silent (a nameserver that hangs). Counts the queries it got.
 */
import dgram from 'node:dgram'
import { once } from 'node:events'
import net from 'node:net'

export interface DnsRecords {
  [name: string]: { a?: string[]; aaaa?: string[] } | 'silent'
}

export interface DnsServer {
  address: string
  queries: string[]
  close(): Promise<void>
}

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = []
  let i = offset
  while (msg[i]! !== 0) {
    const len = msg[i]!
    labels.push(msg.subarray(i + 1, i + 1 + len).toString('latin1'))
    i += 1 + len
  }
  return { name: labels.join('.').toLowerCase(), end: i + 1 }
}

const ipv6Bytes = (ip: string): Buffer => {
  const [head = '', tail] = ip.split('::')
  const part = (s?: string) => (s ? s.split(':').map(g => parseInt(g, 16)) : [])
  const groups = [
    ...part(head),
    ...new Array<number>(tail === undefined ? 0 : 8 - part(head).length - part(tail).length).fill(0),
    ...part(tail),
  ]
  const out = Buffer.alloc(16)
  for (const [k, g] of groups.entries()) out.writeUInt16BE(g, k * 2)
  return out
}

export async function startDnsServer(records: DnsRecords): Promise<DnsServer> {
  const socket = dgram.createSocket('udp4')
  const queries: string[] = []
  socket.on('message', (msg, peer) => {
    const { name, end } = readName(msg, 12)
    const type = msg.readUInt16BE(end)
    queries.push(`${name} ${type === 1 ? 'A' : type === 28 ? 'AAAA' : type}`)
    const entry = records[name]
    if (entry === 'silent') return
    const addresses = entry === undefined ? [] : ((type === 1 ? entry.a : type === 28 ? entry.aaaa : undefined) ?? [])
    const header = Buffer.alloc(12)
    msg.copy(header, 0, 0, 2) // the query's id
    header.writeUInt16BE(entry === undefined ? 0x8183 : 0x8180, 2) // a response; NXDOMAIN for unknown names
    header.writeUInt16BE(1, 4)
    header.writeUInt16BE(addresses.length, 6)
    const question = msg.subarray(12, end + 4)
    const answers = addresses.map(ip => {
      const data = net.isIPv4(ip) ? Buffer.from(ip.split('.').map(Number)) : ipv6Bytes(ip)
      const rr = Buffer.alloc(12)
      rr.writeUInt16BE(0xc00c, 0) // the name: a pointer to the question's
      rr.writeUInt16BE(type, 2)
      rr.writeUInt16BE(1, 4) // IN
      rr.writeUInt32BE(60, 6)
      rr.writeUInt16BE(data.length, 10)
      return Buffer.concat([rr, data])
    })
    socket.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address)
  })
  socket.bind(0, '127.0.0.1')
  await once(socket, 'listening')
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    close: () => new Promise<void>(resolve => socket.close(() => resolve())),
  }
}
