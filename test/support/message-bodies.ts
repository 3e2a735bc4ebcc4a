/**
 * @module test/support/message-bodies
 * The parts of a valid POST /message body (a phone, one object of each media type, a location, a contact), and
 * a POST /message on a fresh app over the fake session system: for the route's and the schema's tests.
 */
import request from 'supertest'
import { makeApp } from './fakes/fake-system.js'

export const PHONE = '5511999999999'
export const IMAGE = { url: 'https://media.test/a.jpg', mimetype: 'image/jpeg' }
export const VIDEO = { url: 'https://media.test/a.mp4', mimetype: 'video/mp4', duration: 12 }
export const AUDIO = { url: 'http://media.test/a.mp3', mimetype: 'audio/mpeg', duration: 3.5 }
export const DOCUMENT = { url: 'https://media.test/a.pdf', name: 'a.pdf', size: 1024, mimetype: 'application/pdf' }
export const LOCATION = { latitude: -23.55, longitude: -46.63 }
export const CONTACT = { name: 'Bob', phone: '+1 (415) 555-0100' }

/** POST /message with `body` on a fresh app; the response and the fake system that got (or did not get) it. */
export async function sendMessage(body: unknown) {
  const t = makeApp()
  const res = await request(t.app)
    .post('/message')
    .set(t.auth)
    .send(body as object)
  return { res, system: t.system }
}
