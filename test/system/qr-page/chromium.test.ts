/**
 * The browser of the browser tests (chromium.ts): npm's Chromium runs on this machine straight from node_modules,
 * and without any browser the QR page tests are skipped loudly, or fail under CI=true.
 */
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../support/readme.js'
import { findChromium, MISSING_BROWSER, missingBrowser } from '../../support/chromium.js'
import { openBrowser } from '../../support/system/qr-page.js'

describe("the browser tests' Chromium", () => {
  it('is the one the npm package ships, unpacked under node_modules, and it renders a page', async () => {
    const found = await findChromium()
    expect(found?.source).toMatch(/^@sparticuz\/chromium \d+\.\d+\.\d+ \(npm\)$/)
    expect(found!.executablePath.startsWith(path.join(repoRoot, 'node_modules', '.cache') + path.sep)).toBe(true)
    const browser = await openBrowser(found!)
    try {
      const page = await browser.context.newPage()
      await page.setContent('<p id="x">rendered</p>')
      expect(await page.locator('#x').textContent()).toBe('rendered')
      expect((await page.screenshot({ type: 'png' })).length).toBeGreaterThan(1000)
    } finally {
      await browser.close()
    }
  }, 120_000)

  it('missing, it is a loud warning and a skip, or with CI=true a failure that says how to get one', () => {
    const warnings: string[] = []
    missingBrowser({}, w => warnings.push(w))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(
      'SKIPPED: the QR page browser tests (test/system/qr-page/qr-page.test.ts) did not run',
    )
    expect(warnings[0]).toContain(MISSING_BROWSER)

    expect(() => missingBrowser({ CI: 'true' }, w => warnings.push(w))).toThrow(
      /CI=true makes the browser tests required/,
    )
    expect(() => missingBrowser({ CI: 'true' }, w => warnings.push(w))).toThrow(
      /apt-get install -y --no-install-recommends chromium/,
    )
    expect(warnings).toHaveLength(1)
  })
})
