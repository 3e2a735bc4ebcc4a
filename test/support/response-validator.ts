/**
 * Holds every response the end-to-end suite receives to the OpenAPI document: the path and method must be
 * documented (else the answer must be the app-wide 404), the status must be one the operation lists, and a JSON
 * body must match that status's schema (ajv, JSON Schema 2020-12, the dialect of OpenAPI 3.1). The harness installs
 * `validatingMiddleware` on its typed client, so a drifted document fails the test that made the call.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import type { Middleware } from 'openapi-fetch'
import type { oas31 } from 'zod-openapi'
import { openApiDocument } from '../../src/http/openapi/document.js'

export interface RecordedResponse {
  method: string
  path: string
  status: number
  /** The parsed JSON body, or undefined when the response was not JSON. */
  body: unknown
  contentType: string
}

const DOCUMENT_ID = 'openapi.json'
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const

interface Route {
  template: string
  pattern: RegExp
  item: oas31.PathItemObject
}

const templateToRegExp = (template: string) =>
  new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map(part => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  )

export class ResponseValidator {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true })
  readonly #routes: Route[]
  readonly #compiled = new Map<string, ValidateFunction>()

  constructor(readonly document: oas31.OpenAPIObject) {
    this.#ajv.addSchema({ $id: DOCUMENT_ID, components: document.components ?? {} })
    // Literal paths first, so /group/member is never read as /group/{groupId}.
    this.#routes = Object.entries(document.paths ?? {})
      .map(([template, item]) => ({
        template,
        pattern: templateToRegExp(template),
        item: item as oas31.PathItemObject,
      }))
      .sort((a, b) => Number(a.template.includes('{')) - Number(b.template.includes('{')))
  }

  /** What is wrong with a response; empty when it matches the document. */
  check(r: RecordedResponse): string[] {
    const where = `${r.method} ${r.path} → ${r.status}`
    const route = this.#routes.find(candidate => candidate.pattern.test(r.path))
    const method = r.method.toLowerCase() as (typeof METHODS)[number]
    const operation = route?.item[method]
    if (route === undefined || operation === undefined) {
      // Not an API operation: the only valid answer is the app-wide 404 `not found`.
      return r.status === 404
        ? this.#checkBody(where, 'Error', r, { $ref: '#/components/schemas/Error' })
        : [`${where}: ${r.method} ${r.path} is not in the document`]
    }
    const response = operation.responses?.[String(r.status)] as oas31.ResponseObject | undefined
    if (response === undefined)
      return [`${where}: status ${r.status} is not documented for ${r.method} ${route.template}`]
    const json = response.content?.['application/json']
    if (json?.schema === undefined) return []
    return this.#checkBody(where, `${method} ${route.template} ${r.status}`, r, json.schema)
  }

  #checkBody(where: string, key: string, r: RecordedResponse, schema: object): string[] {
    if (!r.contentType.startsWith('application/json'))
      return [`${where}: content-type ${r.contentType || 'none'}, not JSON`]
    const validate = this.#validator(key, schema)
    if (validate(r.body)) return []
    return (validate.errors ?? []).map(
      e => `${where}: body${e.instancePath} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`,
    )
  }

  #validator(key: string, schema: object): ValidateFunction {
    let validate = this.#compiled.get(key)
    if (validate === undefined) {
      // Refs point into the document's components, registered once under DOCUMENT_ID.
      const rebased = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`),
      ) as object
      validate = this.#ajv.compile(rebased)
      this.#compiled.set(key, validate)
    }
    return validate
  }
}

let shared: ResponseValidator | undefined
/** One validator for the whole test process, on the document the gateway serves. */
export const documentValidator = (): ResponseValidator => (shared ??= new ResponseValidator(openApiDocument()))

export class ResponseMismatch extends Error {
  constructor(readonly problems: string[]) {
    super(`response does not match the OpenAPI document:\n${problems.join('\n')}`)
    this.name = 'ResponseMismatch'
  }
}

/** An openapi-fetch middleware that records each response and throws `ResponseMismatch` when it breaks the document. */
export function validatingMiddleware(validator: ResponseValidator, record: RecordedResponse[] = []): Middleware {
  return {
    async onResponse({ request, response }) {
      const contentType = response.headers.get('content-type') ?? ''
      const text = await response.clone().text()
      let body: unknown
      try {
        body = text === '' ? undefined : JSON.parse(text)
      } catch {
        body = undefined
      }
      const recorded = {
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        body,
        contentType,
      }
      record.push(recorded)
      const problems = validator.check(recorded)
      if (problems.length > 0) throw new ResponseMismatch(problems)
      return undefined
    },
  }
}
