/**
 * @module http/endpoints/group/openapi
 * GET /group, GET /group/member and GET /group/{groupId} in the OpenAPI document, with their response bodies.
 */
import { z } from 'zod'
import type { ZodOpenApiPathsObject } from 'zod-openapi'
import type { Group, GroupMember } from '../../../protocol/spec-types.js'
import { authenticated } from '../../openapi/operations.js'
import { isoTime, listOf, shapeOf } from '../../openapi/response-schemas.js'
import { AUTHENTICATED, ok, responses } from '../../openapi/responses.js'
import { GROUP_ID } from '../../schemas/ids.js'

const groupIdSchema = z.string().regex(GROUP_ID).describe('Group ID `<group_id>@g.us`')

const groupSchema = shapeOf<Group>()(
  z
    .strictObject({
      id: z.string().describe('`<group_id>@g.us`'),
      name: z.string(),
      description: z.string().describe('Empty if none'),
      picture: z.string().describe('Empty if none'),
      created: isoTime().nullable(),
    })
    .meta({ id: 'Group' }),
)

const groupMemberSchema = shapeOf<GroupMember>()(
  z
    .strictObject({
      id: z
        .string()
        .describe(
          '`<number>@s.whatsapp.net` whenever the number is known (given by the group, the LID ' +
            "mapping or the account's address book), else `<anonymous_id>@lid`",
        ),
      name: z.string().describe('From the address book, else the number; empty when the number is hidden'),
      phone: z.string().describe('Digits; empty when the number is hidden behind an `@lid` the account cannot link'),
    })
    .meta({ id: 'GroupMember' }),
)

export const groupPaths: ZodOpenApiPathsObject = {
  '/group': {
    get: authenticated({
      operationId: 'listGroups',
      tags: ['Groups'],
      summary: "List the account's groups",
      responses: responses(ok(listOf(groupSchema, 'GroupList'), 'Every group the account is in'), ...AUTHENTICATED),
    }),
  },
  '/group/member': {
    get: authenticated({
      operationId: 'listGroupMembers',
      tags: ['Groups'],
      summary: "List a group's members",
      requestParams: { query: z.object({ groupId: groupIdSchema }) },
      responses: responses(ok(listOf(groupMemberSchema, 'GroupMemberList'), 'The members'), ...AUTHENTICATED),
    }),
  },
  '/group/{groupId}': {
    get: authenticated({
      operationId: 'getGroup',
      tags: ['Groups'],
      summary: 'Read one group',
      requestParams: { path: z.object({ groupId: groupIdSchema }) },
      responses: responses(ok(groupSchema, 'The group'), ...AUTHENTICATED),
    }),
  },
}
