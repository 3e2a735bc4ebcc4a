import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { expectError } from '../../../../support/expect-error.js'
import { GROUP, MEMBER, keys, makeApp } from '../../../../support/fakes/fake-system.js'

const GROUP_ID = '120363000000000001@g.us'

describe('GET /group', () => {
  it('lists groups with exactly the Group fields', async () => {
    const { app, auth, system } = makeApp()
    system.onRun = () => ({ docs: [{ ...GROUP, participants: ['x'], owner: 'y' }], extra: 1 })
    const res = await request(app).get('/group').set(auth)
    expect(res.status).toBe(200)
    expect(keys(res.body)).toEqual(['docs'])
    expect(keys(res.body.docs[0])).toEqual(['created', 'description', 'id', 'name', 'picture'])
    expect(res.body.docs[0]).toEqual(GROUP)
    expect(system.last()).toStrictEqual({ type: 'listGroups' })
  })
})

describe('GET /group/:groupId', () => {
  it('reads one group by ID, URL-encoded or not', async () => {
    const { app, auth, system } = makeApp()
    const res = await request(app)
      .get(`/group/${encodeURIComponent(GROUP_ID)}`)
      .set(auth)
    expect(res.status).toBe(200)
    expect(res.body).toStrictEqual(GROUP)
    expect(system.last()).toStrictEqual({ type: 'getGroup', groupId: GROUP_ID })
    expect((await request(app).get(`/group/${GROUP_ID}`).set(auth)).status).toBe(200)
  })

  it('refuses an ID that is not a group ID', async () => {
    const { app, auth, system } = makeApp()
    for (const id of ['abc', '1@newsletter', '1@g.usx', '%40g.us']) {
      expectError(await request(app).get(`/group/${id}`).set(auth), 400, 'groupId must be a group ID ending in @g.us')
    }
    expect(system.commands).toHaveLength(0)
  })

  it('answers 400 for a path that cannot be percent-decoded', async () => {
    const { app, auth } = makeApp()
    expectError(await request(app).get('/group/%E0%A4%A').set(auth), 400, 'path is not valid URL encoding')
  })
})

describe('GET /group/member', () => {
  it('is not captured by /group/:groupId', async () => {
    const { app, auth, system } = makeApp()
    const res = await request(app).get('/group/member').query({ groupId: GROUP_ID }).set(auth)
    expect(res.status).toBe(200)
    expect(res.body).toStrictEqual({ docs: [MEMBER] })
    expect(system.last()).toStrictEqual({ type: 'listGroupMembers', groupId: GROUP_ID })
  })

  it('answers members with exactly id, name, phone', async () => {
    const { app, auth, system } = makeApp()
    system.onRun = () => ({ docs: [{ ...MEMBER, admin: 'superadmin', lid: 'x@lid' }] })
    const res = await request(app).get('/group/member').query({ groupId: GROUP_ID }).set(auth)
    expect(keys(res.body.docs[0])).toEqual(['id', 'name', 'phone'])
  })

  it('answers the spec message for a missing groupId, exactly', async () => {
    const { app, auth } = makeApp()
    expectError(
      await request(app).get('/group/member').set(auth),
      400,
      'groupId should not be empty\ngroupId must be a string',
    )
  })

  it('refuses a repeated, empty or non-group groupId', async () => {
    const { app, auth, system } = makeApp()
    expectError(
      await request(app).get(`/group/member?groupId=${GROUP_ID}&groupId=b`).set(auth),
      400,
      'groupId must be a string',
    )
    expectError(
      await request(app).get('/group/member?groupId[a]=1').set(auth),
      400,
      'groupId should not be empty\ngroupId must be a string',
    )
    expectError(await request(app).get('/group/member?groupId=').set(auth), 400, 'groupId should not be empty')
    expectError(
      await request(app).get('/group/member?groupId=123').set(auth),
      400,
      'groupId must be a group ID ending in @g.us',
    )
    expect(system.commands).toHaveLength(0)
  })
})
