/**
 * @module media/sharp
 * sharp, loaded when an image is first made, not when a shard thread starts.
 *
 * Why: sharp loads libvips, a native library that costs the process ~14 MB of RSS (a worker thread importing sharp:
 * 57 → 71 MB; a second thread adds ~1 MB), and semver and detect-libc with it (~60 modules per thread). A shard
 * thread needs it only for image thumbnails, the default thumbnail and status images (for memory per session
 * at small N): a gateway whose tenants send text never pays for it. A sharp that cannot load fails those sends
 * when they come, not the whole thread at start.
 */
type Sharp = typeof import('sharp')['default']

let loading: Promise<Sharp> | undefined

export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then(m => m.default)
  return loading
}
