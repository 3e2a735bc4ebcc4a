/**
 * Groups end to end, over HTTP only: GET /group, GET /group/{groupId}, GET /group/member through the real gateway
 * process and the real Baileys client against the sandbox. Values are checked against the world the sandbox runs
 * (names, descriptions, pictures on the sandbox media host, creation times, LID-addressed members, address book),
 * and the sandbox's wire counters (GET /stats) show that group pictures are cached and fetched a few at a time.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { reply, sandboxCall, withSession } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { fetchTrusted } from '../../support/system/fetch-trusted.js'
import {
  ALICE,
  BOB,
  BUILDERS,
  CAROL,
  DAVE,
  ELSEWHERE,
  EVE,
  FRANK,
  QUIET,
  manyGroups,
  world as groupsWorld,
} from '../../support/system/groups-world.js'
import { waitFor } from '../../support/wait-for.js'

const PICTURE_CONCURRENCY = 3
const iso = (s: string) => new Date(s).toISOString()

describe('groups through the gateway', () => {
  const paired = pairedGateway(ALICE, {
    world: groupsWorld(),
    env: { PICTURE_CONCURRENCY: String(PICTURE_CONCURRENCY) },
    timeoutMs: 150_000,
  })
  let mediaHost: string
  let caCert: string
  const lid: Record<string, string> = {}
  const stats = async () => {
    const body = (await sandboxCall(paired.sandbox.url, 'GET', '/stats')).body
    return {
      pictureQueries: Number(body.pictureQueries ?? 0),
      pictureQueriesMaxInFlight: Number(body.pictureQueriesMaxInFlight ?? 0),
    }
  }

  beforeAll(async () => {
    ;({ mediaHost, caCert } = (await sandboxCall(paired.sandbox.url, 'GET', '/trust')).body)
    for (const phone of [ALICE, CAROL, EVE, FRANK]) {
      lid[phone] = (await sandboxCall(paired.sandbox.url, 'GET', `/accounts/${phone}/lid`)).body.lid
    }
  })

  it('lists exactly the groups the account is in, every field as the world has it', async () => {
    const r = await reply(paired.gw.api.GET('/group', withSession(paired.session)))
    expect(r.status).toBe(200)
    expect(Object.keys(r.body)).toEqual(['docs'])
    const docs = [...r.body.docs].sort((a: any, b: any) => a.id.localeCompare(b.id))
    expect(docs).toEqual([
      {
        id: BUILDERS.id,
        name: 'Builders',
        description: BUILDERS.description,
        picture: `https://${mediaHost}/pp/g-${BUILDERS.id.split('@')[0]}.jpg`,
        created: iso(BUILDERS.created),
      },
      { id: QUIET.id, name: 'Quiet room', description: '', picture: '', created: iso(QUIET.created) },
    ])
    for (const doc of docs) expect(Object.keys(doc).sort()).toEqual(['created', 'description', 'id', 'name', 'picture'])
    // the listed picture is a real, fetchable image on the platform's media host
    const picture = await fetchTrusted(docs[0].picture, caCert)
    expect(picture.subarray(0, 2).toString('hex')).toBe('ffd8')
  }, 60_000)

  it('reads one group with the same fields as the list', async () => {
    const one = await reply(
      paired.gw.api.GET(
        '/group/{groupId}',
        withSession(paired.session, { params: { path: { groupId: BUILDERS.id } } }),
      ),
    )
    expect(one).toEqual({
      status: 200,
      body: {
        id: BUILDERS.id,
        name: 'Builders',
        description: BUILDERS.description,
        picture: `https://${mediaHost}/pp/g-${BUILDERS.id.split('@')[0]}.jpg`,
        created: iso(BUILDERS.created),
      },
    })
    const quiet = await reply(
      paired.gw.api.GET('/group/{groupId}', withSession(paired.session, { params: { path: { groupId: QUIET.id } } })),
    )
    expect(quiet.body).toEqual({
      id: QUIET.id,
      name: 'Quiet room',
      description: '',
      picture: '',
      created: iso(QUIET.created),
    })
  }, 60_000)

  it('answers an unknown group, and a group the account is not in, with 500 group not found', async () => {
    const unknown = await reply(
      paired.gw.api.GET(
        '/group/{groupId}',
        withSession(paired.session, { params: { path: { groupId: '120363199999999999@g.us' } } }),
      ),
    )
    expect(unknown).toEqual({ status: 500, body: { statusCode: 500, message: 'group not found' } })
    const notMine = await reply(
      paired.gw.api.GET(
        '/group/{groupId}',
        withSession(paired.session, { params: { path: { groupId: ELSEWHERE.id } } }),
      ),
    )
    expect(notMine).toEqual({ status: 500, body: { statusCode: 500, message: 'group not found' } })
    const members = await reply(
      paired.gw.api.GET(
        '/group/member',
        withSession(paired.session, { params: { query: { groupId: '120363199999999999@g.us' } } }),
      ),
    )
    expect(members).toEqual({ status: 500, body: { statusCode: 500, message: 'group not found' } })
    const notMyMembers = await reply(
      paired.gw.api.GET('/group/member', withSession(paired.session, { params: { query: { groupId: ELSEWHERE.id } } })),
    )
    expect(notMyMembers).toEqual({ status: 500, body: { statusCode: 500, message: 'group not found' } })
  }, 60_000)

  it('lists members of a phone-addressed group with address-book names, falling back to the number', async () => {
    // the address book arrives by app-state sync shortly after login: poll until Bob's saved name shows
    const docs = await waitFor(
      "Bob's address-book name",
      async () => {
        const r = await reply(
          paired.gw.api.GET(
            '/group/member',
            withSession(paired.session, { params: { query: { groupId: BUILDERS.id } } }),
          ),
        )
        expect(r.status).toBe(200)
        return r.body.docs.some((m: any) => m.name === 'Bob Builder') ? r.body.docs : undefined
      },
      60_000,
    )
    expect(docs).toEqual([
      { id: `${ALICE}@s.whatsapp.net`, name: ALICE, phone: ALICE },
      { id: `${BOB}@s.whatsapp.net`, name: 'Bob Builder', phone: BOB },
      { id: `${DAVE}@s.whatsapp.net`, name: DAVE, phone: DAVE },
    ])
  }, 90_000)

  it('lists members of a LID-addressed group under their phone JID whenever the number is known, else the LID', async () => {
    const docs = await waitFor(
      "Carol's address-book name",
      async () => {
        const r = await reply(
          paired.gw.api.GET('/group/member', withSession(paired.session, { params: { query: { groupId: QUIET.id } } })),
        )
        expect(r.status).toBe(200)
        return r.body.docs.some((m: any) => m.name === 'Carol Known') ? r.body.docs : undefined
      },
      60_000,
    )
    for (const m of docs) expect(Object.keys(m).sort()).toEqual(['id', 'name', 'phone'])
    expect(docs).toEqual([
      // shown numbers: the platform lists members by LID but gives their number, so the ID is the phone JID
      { id: `${ALICE}@s.whatsapp.net`, name: ALICE, phone: ALICE },
      // hidden number, saved contact: the account's address book links the LID, so its saved number and name show
      { id: `${CAROL}@s.whatsapp.net`, name: 'Carol Known', phone: CAROL },
      // hidden number, unknown: nothing to show but the anonymous ID
      { id: lid[EVE], name: '', phone: '' },
      { id: `${FRANK}@s.whatsapp.net`, name: FRANK, phone: FRANK },
    ])
  }, 90_000)

  it('validates the groupId query exactly as the spec words it', async () => {
    const missing = await paired.gw.call('GET', '/group/member', paired.session)
    expect(missing).toEqual({
      status: 400,
      body: { statusCode: 400, message: 'groupId should not be empty\ngroupId must be a string' },
    })
    const empty = await paired.gw.call('GET', '/group/member?groupId=', paired.session)
    expect(empty).toEqual({ status: 400, body: { statusCode: 400, message: 'groupId should not be empty' } })
    const repeated = await paired.gw.call(
      'GET',
      `/group/member?groupId=${QUIET.id}&groupId=${BUILDERS.id}`,
      paired.session,
    )
    expect(repeated).toEqual({ status: 400, body: { statusCode: 400, message: 'groupId must be a string' } })
    const noHeaders = await paired.gw.call('GET', `/group/member?groupId=${QUIET.id}`)
    expect(noHeaders).toEqual({ status: 400, body: { statusCode: 400, message: 'invalid header' } })
  }, 30_000)

  it('lists 200 more groups with pictures fetched a few at a time, and serves them from cache on the next call', async () => {
    const bulk = manyGroups(200)
    expect((await sandboxCall(paired.sandbox.url, 'POST', '/world', { groups: bulk })).status).toBe(200)
    const before = await stats()

    const first = await reply(paired.gw.api.GET('/group', withSession(paired.session)))
    expect(first.status).toBe(200)
    expect(first.body.docs).toHaveLength(202)
    const byId = new Map<string, any>(first.body.docs.map((g: any) => [g.id, g]))
    for (const g of bulk) {
      expect(byId.get(g.id)).toEqual({
        id: g.id,
        name: g.name,
        description: g.description ?? '',
        created: g.created,
        picture: g.picture ? `https://${mediaHost}/pp/g-${g.id.split('@')[0]}.jpg` : '',
      })
    }
    const afterFirst = await stats()
    // one picture round trip per new group (the two earlier groups are cached), never more than the limit at once
    expect(afterFirst.pictureQueries - before.pictureQueries).toBe(200)
    expect(afterFirst.pictureQueriesMaxInFlight).toBeLessThanOrEqual(PICTURE_CONCURRENCY)
    expect(afterFirst.pictureQueriesMaxInFlight).toBeGreaterThan(1)

    const second = await reply(paired.gw.api.GET('/group', withSession(paired.session)))
    expect(second.status).toBe(200)
    expect(second.body.docs).toEqual(first.body.docs)
    const afterSecond = await stats()
    expect(afterSecond.pictureQueries).toBe(afterFirst.pictureQueries)

    // a single group read uses the same cache
    const one = await reply(
      paired.gw.api.GET(
        '/group/{groupId}',
        withSession(paired.session, { params: { path: { groupId: bulk[3]!.id } } }),
      ),
    )
    expect(one.body.picture).toBe(`https://${mediaHost}/pp/g-${bulk[3]!.id.split('@')[0]}.jpg`)
    expect((await stats()).pictureQueries).toBe(afterFirst.pictureQueries)
  }, 120_000)

  it('shows a group picture set or removed on the platform at once, despite the cache', async () => {
    const quietPicture = `https://${mediaHost}/pp/g-${QUIET.id.split('@')[0]}.jpg`
    const pictureOf = (docs: any[], id: string) => docs.find(g => g.id === id)?.picture
    // listing caches both pictures; changing them on the platform sends a picture notification
    const cached = (await reply(paired.gw.api.GET('/group', withSession(paired.session)))).body.docs
    expect(pictureOf(cached, BUILDERS.id)).toBe(`https://${mediaHost}/pp/g-${BUILDERS.id.split('@')[0]}.jpg`)
    expect(pictureOf(cached, QUIET.id)).toBe('')
    expect(
      (
        await sandboxCall(paired.sandbox.url, 'POST', '/world', {
          groups: [
            { ...BUILDERS, picture: false },
            { ...QUIET, picture: true },
          ],
        })
      ).status,
    ).toBe(200)
    const listed = await waitFor(
      'the new pictures in GET /group',
      async () => {
        const docs = (await reply(paired.gw.api.GET('/group', withSession(paired.session)))).body.docs
        return pictureOf(docs, BUILDERS.id) === '' && pictureOf(docs, QUIET.id) === quietPicture ? docs : undefined
      },
      30_000,
    )
    expect(listed).toHaveLength(cached.length)
    const one = await reply(
      paired.gw.api.GET('/group/{groupId}', withSession(paired.session, { params: { path: { groupId: QUIET.id } } })),
    )
    expect(one.body).toEqual({
      id: QUIET.id,
      name: 'Quiet room',
      description: '',
      picture: quietPicture,
      created: iso(QUIET.created),
    })
  }, 60_000)
})
