/**
 * Spec content → Baileys content (src/platform/baileys/mapping/message-content.ts), from a send's media as
 * media/send-media.ts hands it over: no file is read, nothing is downloaded.
 */
import { describe, expect, it } from 'vitest'
import type { SendMedia } from '../../../../../src/media/send-media.js'
import { messageContent, statusContent } from '../../../../../src/platform/baileys/mapping/message-content.js'

const dispose = async () => undefined
const none: SendMedia = { dispose }
const fileMedia = (kind: 'image' | 'video' | 'audio' | 'document', jpegThumbnail?: string): SendMedia => ({
  file: { kind, file: { path: `/tmp/media/${kind}`, bytes: 10, contentType: undefined, dispose } },
  ...(jpegThumbnail ? { jpegThumbnail } : {}),
  dispose,
})

describe('message content', () => {
  it('text disables link previews', () => {
    expect(messageContent({ type: 'text', text: 'hi https://x.example' }, none)).toEqual({
      text: 'hi https://x.example',
      linkPreview: null,
    })
  })

  it("image and video: the downloaded file, the gateway's preview, the caption; a video's duration in seconds", () => {
    expect(
      messageContent(
        { type: 'image', image: { url: 'https://x.example/a.jpg', mimetype: 'image/jpeg' }, text: 'cap' },
        fileMedia('image', 'VEhVTUI='),
      ),
    ).toEqual({ image: { url: '/tmp/media/image' }, mimetype: 'image/jpeg', jpegThumbnail: 'VEhVTUI=', caption: 'cap' })
    expect(
      messageContent(
        { type: 'video', video: { url: 'https://x.example/v.mp4', mimetype: 'video/mp4', duration: 7 } },
        fileMedia('video', 'VEhVTUI='),
      ),
    ).toEqual({ video: { url: '/tmp/media/video' }, mimetype: 'video/mp4', jpegThumbnail: 'VEhVTUI=', seconds: 7 })
  })

  it('audio is never a voice note; a document keeps its name and gets no fileLength from the spec size', () => {
    expect(
      messageContent(
        { type: 'audio', audio: { url: 'https://x.example/a.ogg', mimetype: 'audio/ogg', duration: 3 } },
        fileMedia('audio'),
      ),
    ).toEqual({ audio: { url: '/tmp/media/audio' }, mimetype: 'audio/ogg', ptt: false, seconds: 3 })
    const document = messageContent(
      {
        type: 'document',
        document: { url: 'https://x.example/r.pdf', name: 'r.pdf', size: 999999, mimetype: 'application/pdf' },
        text: 'see',
      },
      fileMedia('document'),
    )
    expect(document).toEqual({
      document: { url: '/tmp/media/document' },
      mimetype: 'application/pdf',
      fileName: 'r.pdf',
      caption: 'see',
    })
  })

  it('location and contact', () => {
    expect(
      messageContent({ type: 'location', location: { latitude: -23.5, longitude: -46.6, name: 'SP' } }, none),
    ).toEqual({ location: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: 'SP' } })
    expect(messageContent({ type: 'contact', contact: { name: 'Ana', phone: '5511999990000' } }, none)).toEqual({
      contacts: {
        displayName: 'Ana',
        contacts: [
          {
            displayName: 'Ana',
            vcard:
              'BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nTEL;type=CELL;type=VOICE;waid=5511999990000:+5511999990000\nEND:VCARD',
          },
        ],
      },
    })
  })

  it('a media content without its file is a bug, not a message without media', () => {
    expect(() =>
      messageContent({ type: 'document', document: { url: 'u', name: 'n', size: 1, mimetype: 'm' } }, none),
    ).toThrow('media content without its file')
  })
})

describe('status content', () => {
  it('a status image is its recompressed JPEG, with the preview and the caption', () => {
    const compressed = Buffer.from('jpeg bytes')
    expect(
      statusContent(
        { type: 'image', image: { url: 'https://x.example/big.jpg', mimetype: 'image/png' }, text: 'hey' },
        { compressed, jpegThumbnail: 'VEhVTUI=', dispose },
      ),
    ).toEqual({ image: compressed, mimetype: 'image/jpeg', jpegThumbnail: 'VEhVTUI=', caption: 'hey' })
  })

  it('text and video statuses are built as messages', () => {
    expect(statusContent({ type: 'text', text: 'x' }, none)).toEqual({ text: 'x', linkPreview: null })
    expect(
      statusContent(
        { type: 'video', video: { url: 'https://x.example/v.mp4', mimetype: 'video/mp4', duration: 2 } },
        fileMedia('video', 'VEhVTUI='),
      ),
    ).toMatchObject({ video: { url: '/tmp/media/video' }, seconds: 2 })
  })
})
