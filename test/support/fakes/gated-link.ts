/**
 * The fake link of the actor tests, but its module finishes loading only once the file named by GATED_LINK_FILE
 * exists: a shard restoring sessions stays busy until the test opens the gate.
 */
import { existsSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'

const gate = process.env.GATED_LINK_FILE
if (!gate) throw new Error('GATED_LINK_FILE is not set')
while (!existsSync(gate)) await sleep(50)

export { createLink, default } from './fake-link.js'
