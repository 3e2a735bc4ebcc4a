/**
 * The world of test/system/groups/groups.test.ts: who is in which group, who hides their number, who is in the linked
 * account's address book, and the 200 extra groups of the picture-cache test.
 */

export const ALICE = '15550000101'
/** In Alice's address book, number shown. */
export const BOB = '15550000102'
/** In Alice's address book, number hidden in the LID group. */
export const CAROL = '15550000103'
/** Not in the address book, number shown. */
export const DAVE = '15550000104'
/** Not in the address book, number hidden. */
export const EVE = '15550000105'
/** Not in the address book, number shown, in the LID group. */
export const FRANK = '15550000106'

export const BOOK = { [BOB]: 'Bob Builder', [CAROL]: 'Carol Known' }

/** Phone-addressed group with description and picture. */
export const BUILDERS = {
  id: '120363100000000001@g.us',
  name: 'Builders',
  description: 'We build things.\nSecond line, ünïcødé ✓',
  created: '2024-03-05T10:20:30Z',
  picture: true,
  participants: [{ phone: ALICE, admin: 'superadmin' }, { phone: BOB, admin: 'admin' }, { phone: DAVE }],
}

/** LID-addressed group (some members hide their number), no description, no picture. */
export const QUIET = {
  id: '120363100000000002@g.us',
  name: 'Quiet room',
  created: '2023-11-30T23:59:59Z',
  participants: [
    { phone: ALICE },
    { phone: CAROL, hidePhone: true },
    { phone: EVE, hidePhone: true },
    { phone: FRANK },
  ],
}

/** A group Alice is not in: never listed, and not readable. */
export const ELSEWHERE = {
  id: '120363100000000003@g.us',
  name: 'Elsewhere',
  created: '2022-01-01T00:00:00Z',
  participants: [{ phone: BOB, admin: 'superadmin' }, { phone: DAVE }],
}

export const world = () => ({
  accounts: [
    {
      phone: ALICE,
      name: 'Alice',
      syncContacts: true,
      contacts: Object.entries(BOOK).map(([phone, name]) => ({ phone, name })),
    },
    { phone: BOB, name: 'Bob' },
    { phone: CAROL, name: 'Carol' },
    { phone: DAVE, name: 'Dave' },
    { phone: EVE, name: 'Eve' },
    { phone: FRANK, name: 'Frank' },
  ],
  groups: [BUILDERS, QUIET, ELSEWHERE],
})

/** 200 more groups of Alice's, every third with a picture, creation times one hour apart. */
export const manyGroups = (count = 200) =>
  Array.from({ length: count }, (_, i) => ({
    id: `1203632000000${String(i).padStart(5, '0')}@g.us`,
    name: `Bulk ${i}`,
    description: i % 2 ? `bulk group ${i}` : undefined,
    created: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
    picture: i % 3 === 0,
    participants: [{ phone: ALICE }, { phone: BOB }],
  }))
