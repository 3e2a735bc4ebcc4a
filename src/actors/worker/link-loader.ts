/**
 * @module actors/worker/link-loader
 * Loads the `LinkFactory` a worker uses, once and lazily (the Baileys link costs ~1.7 s and ~27 MB per thread).
 * The module may export it as `createBaileysLink`, `createLink` or `default`; tests point at a fake.
 */
import { pathToFileURL } from 'node:url'
import type { LinkFactory } from '../../platform/link.js'

export function linkFactoryLoader(linkModule: string): () => Promise<LinkFactory> {
  let pending: Promise<LinkFactory> | undefined
  return () => (pending ??= load(linkModule))
}

async function load(linkModule: string): Promise<LinkFactory> {
  const url = linkModule.startsWith('file:') ? linkModule : pathToFileURL(linkModule).href
  const mod = (await import(url)) as Record<string, unknown>
  const factory = mod.createBaileysLink ?? mod.createLink ?? mod.default
  if (typeof factory !== 'function') throw new Error(`${linkModule} exports no LinkFactory`)
  return factory as LinkFactory
}
