/**
 * A shard thread that only hears aborts: each task waits until it is aborted, and every abort the thread hears on
 * its control channel is reported on `<name>:heard` as `{ shard, id }` (the id of the session whose task it aborts,
 * or '?' for a task this thread never ran). A task's start is reported as `{ shard, started: id }`.
 */
import { BroadcastChannel, workerData } from 'node:worker_threads'
import { TaskAborts } from '../../../src/actors/worker/task-aborts.js'
import { controlChannel, type ControlMessage, type ShardTask } from '../../../src/protocol/thread.js'

const { channelName, shard } = workerData as { channelName: string; shard: number }
const aborts = new TaskAborts()
const sessions = new Map<number, string>()
const heard = new BroadcastChannel(`${channelName}:heard`)
const control = new BroadcastChannel(controlChannel(channelName, shard))
control.onmessage = (event: unknown) => {
  const { taskId } = (event as MessageEvent<ControlMessage>).data
  heard.postMessage({ shard, id: sessions.get(taskId) ?? '?' })
  aborts.abort(taskId)
}

export default async function handle(task: ShardTask): Promise<unknown> {
  const id = task.type === 'shutdown' ? 'shutdown' : task.id
  sessions.set(task.taskId, id)
  const signal = aborts.begin(task.taskId)
  heard.postMessage({ shard, started: id })
  await new Promise(resolve => signal.addEventListener('abort', resolve, { once: true }))
  aborts.end(task.taskId)
  return { ok: true, value: null }
}
