// Preloaded with `--import` into the gateway by test/ops/lean-threads.test.ts: every thread (the main one and each
// shard's, which run the same preloads) appends the URL of each module it loads to MODULE_TRACE_DIR/<threadId>.
import { appendFileSync } from 'node:fs'
import { registerHooks } from 'node:module'
import path from 'node:path'
import { threadId } from 'node:worker_threads'

const file = path.join(process.env.MODULE_TRACE_DIR, String(threadId))
registerHooks({
  load(url, context, nextLoad) {
    appendFileSync(file, `${url}\n`)
    return nextLoad(url, context)
  },
})
