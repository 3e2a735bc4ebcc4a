/**
 * @module platform/baileys/media/pool-thread
 * The media pool's thread (piscina entry). It first lowers its own CPU priority: on Linux each thread has its own
 * nice value, and `setpriority(PRIO_PROCESS, 0)` from a thread changes that thread only. At nice 19 the kernel gives
 * the encryption and TLS of big files only the CPU the shard threads and the HTTP front leave unused, so quiet
 * sessions keep their latency while media waits. The niceness to take comes in workerData.
 */
import os from 'node:os'
import { workerData } from 'node:worker_threads'
import runUploadJob from './run-upload.js'

const nice = (workerData as { nice?: number } | undefined)?.nice ?? 19
try {
  // Raising one's own nice value needs no privilege; where the OS refuses, media runs at normal priority.
  os.setPriority(0, Math.max(os.getPriority(0), nice))
} catch {
  /* see above */
}

export default runUploadJob
