import { defineConfig } from 'vitest/config'

// Two projects on one axis (test/README.md): `unit` mirrors src/ (one module, fakes, no real processes), `system`
// starts real processes, the sandbox or real Baileys. `npx vitest run` runs both; `--project unit` or `--project
// system` one of them. The settings below are shared (`extends: true`).
export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // System files start real servers and worker threads; two cores, so keep files from starving each other.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'system', include: ['test/system/**/*.test.ts'] } },
    ],
  },
})
