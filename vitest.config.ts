import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // End-to-end files start real servers and worker threads; two cores, so keep files from starving each other.
    maxWorkers: 2,
  },
})
