/**
 * @module media/settings
 * Media's slice of the settings (docs/operating.md): what a media download may take (bytes per type, time,
 * redirects, private addresses), how its hosts are resolved, how many media sends run at once and at which CPU
 * priority, the largest image decoded, and the ffmpeg that makes video thumbnails. The proxy's policy resolves
 * proxy hosts with the same DNS settings.
 */
import dns from 'node:dns'
import { z } from 'zod'
import { bool, int, optional, pickSettings, type SliceOf } from '../settings/fields.js'

/** What c-ares would refuse to use as a DNS server list. */
function isDnsServerList(servers: string[]): boolean {
  try {
    new dns.Resolver().setServers(servers)
    return true
  } catch {
    return false
  }
}

const MIB = 1024 * 1024

export const MEDIA_SETTINGS = {
  /**
   * Media downloads (POST /message, POST /status): the ceiling over every type's own cap below, as large as the
   * largest of them (documents). Thumbnail URLs have their own cap.
   */
  MEDIA_MAX_BYTES: int(2048 * MIB, 1),
  /**
   * Largest media per type (400 above it), each also bounded by MEDIA_MAX_BYTES. Documents: the platform's own 2 GB
   * (media is streamed to disk, hashed and uploaded from there, so a large one costs disk and time, not memory).
   */
  MEDIA_MAX_BYTES_IMAGE: int(16 * MIB, 1),
  MEDIA_MAX_BYTES_VIDEO: int(64 * MIB, 1),
  MEDIA_MAX_BYTES_AUDIO: int(16 * MIB, 1),
  MEDIA_MAX_BYTES_DOCUMENT: int(2048 * MIB, 1),
  /** Largest thumbnail download (`*.thumbnail`): it only becomes a 72 px preview. Over it, the preview is made
   * from the media itself, as for any thumbnail that fails. Also bounded by MEDIA_MAX_BYTES. */
  MEDIA_MAX_BYTES_THUMBNAIL: int(5 * MIB, 1),
  MEDIA_TIMEOUT_MS: int(60_000, 1),
  MEDIA_MAX_REDIRECTS: int(5, 0),
  /** Allow media URLs that resolve to loopback/private/link-local/metadata addresses (SSRF guard off). Only the
   * sandbox demo, tests and benches set true. */
  MEDIA_ALLOW_PRIVATE_URLS: bool(false),
  /**
   * DNS for media URLs (src/media/media-resolver.ts): c-ares, off the thread pool file I/O shares. Servers as
   * `ip` or `ip:port`, comma-separated (empty: the system's), a time-out per look-up, and look-ups in flight per thread.
   */
  MEDIA_DNS_SERVERS: z
    .string()
    .default('')
    .transform(v =>
      v
        .split(',')
        .map(s => s.trim())
        .filter(Boolean),
    )
    .refine(isDnsServerList, 'expected a comma list of ip or ip:port'),
  MEDIA_DNS_TIMEOUT_MS: int(5_000, 1),
  MEDIA_DNS_MAX_IN_FLIGHT: int(64, 1),
  /**
   * Media sends doing CPU work (thumbnails, recompression, encryption, upload) at once per shard thread and in the
   * whole process; the rest wait their turn (src/media/media-slots.ts). A send takes a slot only once its files are
   * downloaded, and gives it back before waiting for the platform's ack. They bound how much of the cores media can
   * take from the quiet sessions and the HTTP front.
   */
  MEDIA_SENDS_PER_SHARD: int(2, 1),
  MEDIA_SENDS_PER_PROCESS: int(3, 1),
  /**
   * Media sends downloading, or holding downloaded files, at once in the process (each session at most one); the
   * rest wait their turn. Large, because a download that makes no progress costs a socket and a file, not CPU: it
   * bounds the temp disk and sockets media holds, and takes that many slow tenants to keep another waiting.
   */
  MEDIA_DOWNLOADS_PER_PROCESS: int(32, 1),
  /**
   * Largest image, in pixels (width × height), the gateway decodes (sharp's `limitInputPixels`): an image or status
   * image over it is refused with a 400 before decoding, a thumbnail URL over it gives way to the media's own.
   */
  MEDIA_MAX_PIXELS: int(100_000_000, 1),
  /**
   * The CPU priority (nice, 0..19) of the threads that encrypt and upload media (src/platform/baileys/media): 19 lets media
   * use only the CPU the sessions and the HTTP front leave idle. 0 runs it at the gateway's own priority.
   */
  MEDIA_THREAD_NICE: int(19, 0).refine(v => v <= 19, 'expected 0..19'),
  /** The ffmpeg for video thumbnails; unset = `ffmpeg` on PATH; none found = the default thumbnail (./ffmpeg-locate.ts). */
  FFMPEG_PATH: optional(z.string()),
  /** Wall clock one ffmpeg run may take before it is killed (the video then gets the default thumbnail). */
  FFMPEG_TIMEOUT_MS: int(15_000, 1),
  /** Address space of one ffmpeg run (prlimit --as); Debian's ffmpeg maps about 300 MB of libraries before decoding. */
  FFMPEG_MAX_MEMORY_MB: int(1024, 1),
  /** CPU time of one ffmpeg run (prlimit --cpu; the kernel kills it past that). */
  FFMPEG_MAX_CPU_SECONDS: int(10, 1),
}

export type MediaSettings = SliceOf<typeof MEDIA_SETTINGS>

export const mediaSettings = (values: MediaSettings): MediaSettings => pickSettings(values, MEDIA_SETTINGS)
