import { DockerfileParser, type Instruction, type JSONInstruction } from 'dockerfile-ast'
import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { docSection, readmeSection, readRepoFile } from '../../support/readme.js'

const dockerfile = DockerfileParser.parse(readRepoFile('Dockerfile'))
const instructions = dockerfile.getInstructions()

/** Where the operator reads how to run the gateway in production. */
const production = () => docSection('docs/operating.md', 'Run in production')

/** The shell commands of the "Run in production" block (docs/operating.md), comments dropped. */
function productionCommands(): string[] {
  const block = /```sh\n([\s\S]*?)```/.exec(production())
  if (!block) throw new Error('docs/operating.md "Run in production" has no sh block')
  return block[1]!
    .split('\n')
    .map(l => l.replace(/#.*$/, '').trim())
    .filter(Boolean)
}

/** Each instruction of the final stage (the image that runs). */
function runtimeStage(): Instruction[] {
  const lastFrom = instructions.findLastIndex(i => i.getKeyword() === 'FROM')
  return instructions.slice(lastFrom)
}

/** Every command a RUN executes, `a && b` split into a and b. */
const runCommands = (stage: Instruction[]) =>
  stage
    .filter(i => i.getKeyword() === 'RUN')
    .flatMap(i =>
      i
        .getArgumentsContent()!
        .split('&&')
        .map(c => c.replace(/\s+/g, ' ').trim()),
    )

describe('container', () => {
  it('the Dockerfile installs, builds and starts with exactly the commands of docs/operating.md', () => {
    const [install, build, start] = productionCommands()
    expect([install, build, start]).toEqual(['npm install', 'npm run build', 'node dist/main.js'])
    const commands = runCommands(instructions)
    expect(commands).toContain(install)
    expect(commands).toContain(build)
    const cmd = runtimeStage().find(i => i.getKeyword() === 'CMD') as JSONInstruction
    expect(
      cmd
        .getJSONStrings()
        .map(s => s.getJSONValue())
        .join(' '),
    ).toBe(start)
    // `npm start` in the quick start is the same build and start.
    expect(JSON.parse(readRepoFile('package.json')).scripts.start).toBe(`${build} && ${start}`)
    expect(readmeSection('Quick start')).toContain('npm install && npm run demo')
  })

  it('is multi-stage: a node:24-slim runtime with ffmpeg, a non-root user, DATA_DIR on a volume, a /healthz check', () => {
    const froms = dockerfile.getFROMs()
    expect(froms.length).toBeGreaterThanOrEqual(2)
    expect(`${froms.at(-1)!.getImageName()}:${froms.at(-1)!.getImageTag()}`).toBe('node:24-slim')
    const stage = runtimeStage()
    expect(runCommands(stage).some(c => /^apt-get install\b.*\bffmpeg\b/.test(c))).toBe(true)
    // prlimit (util-linux) applies ffmpeg's memory and CPU caps (src/media/ffmpeg.ts)
    expect(
      runCommands(stage).some(c => /^apt-get install\b.*--no-install-recommends\b.*\bffmpeg\b.*\butil-linux\b/.test(c)),
    ).toBe(true)

    const env = Object.fromEntries(
      dockerfile.getENVs().flatMap(e => e.getProperties().map(p => [p.getName(), p.getValue()])),
    )
    expect(env.FFMPEG_PATH).toBe('/usr/bin/ffmpeg')
    const user = stage
      .filter(i => i.getKeyword() === 'USER')
      .at(-1)
      ?.getArgumentsContent()
    expect(user).toBeDefined()
    expect(['root', '0']).not.toContain(user)
    const volume = stage.find(i => i.getKeyword() === 'VOLUME') as JSONInstruction
    expect(volume.getJSONStrings().map(s => s.getJSONValue())).toContain(env.DATA_DIR)

    const health = stage.find(i => i.getKeyword() === 'HEALTHCHECK')!.getArgumentsContent()!
    expect(health).toMatch(/^CMD \["node",/)
    expect(health).toContain('/healthz')
  })

  it("runs with glibc's malloc tunable that docs/operating.md recommends for memory", () => {
    const stage = runtimeStage()
    const env = Object.fromEntries(
      dockerfile
        .getENVs()
        .filter(e => stage.includes(e))
        .flatMap(e => e.getProperties().map(p => [p.getName(), p.getValue()])),
    )
    expect(env.GLIBC_TUNABLES).toBe('glibc.malloc.mmap_threshold=131072')
    expect(production()).toContain(`\`GLIBC_TUNABLES=${env.GLIBC_TUNABLES}\``)
  })

  it('compose runs the image with a persistent named volume at DATA_DIR', () => {
    const compose = parseYaml(readRepoFile('compose.yaml')) as {
      services: Record<
        string,
        { build?: unknown; volumes?: string[]; environment?: Record<string, string>; ports?: string[] }
      >
      volumes?: Record<string, unknown>
    }
    const [service] = Object.values(compose.services)
    expect(service!.build).toBe('.')
    const dataDir = service!.environment!.DATA_DIR!
    const mount = service!.volumes!.map(v => v.split(':')).find(([, target]) => target === dataDir)
    expect(mount).toBeDefined()
    expect(Object.keys(compose.volumes ?? {})).toContain(mount![0])
    expect(service!.ports).toContain('3000:3000')
    expect(readRepoFile('.dockerignore').split('\n')).toContain('node_modules')
  })
})
