/**
 * @module platform/baileys/patches/timeout-helpers
 * Baileys' time-out helpers (`Utils/generics.js`) did work on every call that only a time-out needs.
 *
 * Why: `promiseTimeout` times every frame the socket writes (`sendRawMessage`: the message itself, the ack of each
 * receipt, every query) and every query's wait. Per call it ran `new Error().stack` twice (its own and that of the
 * `delayCancellable` it used), turning the stack into text at once (through the source-map support when it is on)
 * for a Boom built only if the time-out fires, and when the timed work ended in time its `cancel` built a
 * `Cancelled` Boom, stack included, to reject a promise that `promiseTimeout` then ignored. With its Booms that was
 * ~17 % of a shard's CPU per sent message (measured).
 *
 * How (a rewrite of `generics.js` as it loads, `source-hook.ts`):
 * - `promiseTimeout` keeps the same contract with a plain timer: the timed promise settles as before; after `ms`
 *   it rejects with the same `Timed Out` Boom (status 408); the timer is cleared when the promise settles. No
 *   `Cancelled` Boom is made, since no one could observe it. No stack is taken either: Baileys put the caller's
 *   stack in the Boom's `data.stack`, for someone debugging Baileys, and nothing in the gateway reads it, while
 *   taking it (`new Error()`, async frames included) was still 2.5 % of a shard's CPU per text in
 *   bench:send-profile. The Boom's own stack, where the timer fired, is left.
 * - `delayCancellable` (a public Baileys export, whose callers can see the `Cancelled` rejection) is unchanged but
 *   for its stack, kept as an `Error` and made text when `data.stack` is read: the same text, from the same place.
 */
import { baileysFileUrl, type SourcePatch } from './source-hook.js'

const EAGER_STACK = 'const stack = new Error().stack;'
const STACK_DATA = /data: \{\s*stack\s*\}/

/** `promiseTimeout` as Baileys 7.0.0-rc14 ships it. */
const PROMISE_TIMEOUT = `export async function promiseTimeout(ms, promise) {
    if (!ms) {
        return new Promise(promise);
    }
    const stack = new Error().stack;
    // Create a promise that rejects in <ms> milliseconds
    const { delay, cancel } = delayCancellable(ms);
    const p = new Promise((resolve, reject) => {
        delay
            .then(() => reject(new Boom('Timed Out', {
            statusCode: DisconnectReason.timedOut,
            data: {
                stack
            }
        })))
            .catch(err => reject(err));
        promise(resolve, reject);
    }).finally(cancel);
    return p;
}`

const PLAIN_TIMER_PROMISE_TIMEOUT = `export async function promiseTimeout(ms, promise) {
    if (!ms) {
        return new Promise(promise);
    }
    let timer;
    return new Promise((resolve, reject) => {
        timer = setTimeout(() => reject(new Boom('Timed Out', {
            statusCode: DisconnectReason.timedOut
        })), ms);
        promise(resolve, reject);
    }).finally(() => clearTimeout(timer));
}`

/**
 * `generics.js` with the two changes, or undefined when its source is not the expected one (`promiseTimeout` as
 * above, and one other helper, `delayCancellable`, that takes its stack eagerly for one Boom).
 */
export function timeoutHelpersSource(source: string): string | undefined {
  const parts = source.split(PROMISE_TIMEOUT)
  if (parts.length !== 2) return undefined
  const rest = parts.join(PLAIN_TIMER_PROMISE_TIMEOUT)
  if (rest.split(EAGER_STACK).length !== 2 || rest.match(new RegExp(STACK_DATA, 'g'))?.length !== 1) return undefined
  return rest
    .replace(EAGER_STACK, 'const stackError = new Error();')
    .replace(STACK_DATA, 'data: { get stack() { return stackError.stack; } }')
}

export const timeoutHelpersPatch: SourcePatch = {
  name: 'timeout helpers',
  url: baileysFileUrl('lib/Utils/generics.js'),
  rewrite: timeoutHelpersSource,
}
