/**
 * @module demo/tour
 * The guided tour `npm run demo` prints once the sandbox and the gateway are up: one copy-pasteable command per
 * endpoint. The commands use two shell variables the reader sets from `POST /session` (`ID`, `SID`); the demo test
 * runs these very lines, so the tour cannot rot.
 */
import {
  DEFAULT_GATEWAY_URL,
  DEFAULT_SANDBOX_URL,
  DEMO_CHANNEL,
  DEMO_GROUP,
  DEMO_PEER,
  DEMO_PHONE,
} from './defaults.js'

export interface TourPlaces {
  gatewayUrl: string
  sandboxUrl: string
  dataDir: string
  /** Where each process logs. */
  logs: { sandbox: string; gateway: string }
  /** The picture the demo serves on loopback (picture.ts), sent in step 4. */
  pictureUrl: string
  /** How long an unscanned QR lives before the session is deleted (SESSION_QR_LIFETIME_MS). */
  qrLifetimeMs: number
}

/** `180000` → `3 minutes`, `90000` → `90 seconds`. */
function duration(ms: number): string {
  const s = Math.round(ms / 1000)
  return s % 60 === 0 ? `${s / 60} minute${s === 60 ? '' : 's'}` : `${s} seconds`
}

const AUTH = '-H "id: $ID" -H "session-id: $SID"'
const JSON_TYPE = "-H 'content-type: application/json'"

/** `npm run demo:scan`, with the URLs only when they are not the defaults. The ids come after `--`: a session id
 * may start with `-`, which would otherwise read as an option. */
function scanCommand({ gatewayUrl, sandboxUrl }: TourPlaces): string {
  const flags = [
    gatewayUrl === DEFAULT_GATEWAY_URL ? '' : ` --gateway ${gatewayUrl}`,
    sandboxUrl === DEFAULT_SANDBOX_URL ? '' : ` --sandbox ${sandboxUrl}`,
  ].join('')
  return `npm run demo:scan --${flags} -- $ID $SID`
}

export function tourText(places: TourPlaces): string {
  const G = places.gatewayUrl
  const S = places.sandboxUrl
  const post = (path: string, body: object) =>
    `curl -s -X POST ${G}${path} ${AUTH} ${JSON_TYPE} -d '${JSON.stringify(body)}'`
  const get = (path: string) => `curl -s "${G}${path}" ${AUTH}`
  return `
The gateway is up at ${G}, talking to the platform sandbox at ${S} (DATA_DIR ${places.dataDir}).
Their logs: ${places.logs.gateway} and ${places.logs.sandbox} (npm run demo -- --verbose shows them here too).
Nothing was created. The sandbox's demo world: Alice ${DEMO_PHONE} (she scans your QR), Bob ${DEMO_PEER},
Carol 15550000003, the group "Team" ${DEMO_GROUP} and the channel "News" ${DEMO_CHANNEL}.

1. Create a session, then keep its two values in shell variables:
   curl -s -X POST ${G}/session
   ID=<id>; SID=<sessionId>

2. Look at its QR: ask for a view-only link (its token shows the QR and nothing else; hand it, never the
   session-id, to whoever holds the phone) and open its "url" (${G}/#view=<token>):
   curl -s -X POST ${G}/session/view-link ${AUTH}
   or read it as JSON (qrcode is a base64 PNG; poll every 2 to 3 s):
   ${get('/session')}
   or let it answer when the session changes: send back the ETag it answered with (curl -si shows it) as
   -H 'if-none-match: "<etag>"' with ?wait=25 (README: "GET /session that waits").
   An unscanned QR lives ${duration(places.qrLifetimeMs)} (SESSION_QR_LIFETIME_MS): then the session is deleted and
   its calls answer 404; create a new one.

3. Scan it with Alice's simulated phone (waits for the QR, decodes it and posts it to the sandbox's POST /scan,
   then waits for the pairing; both waits are the waiting GET /session, through the typed client's waitForSession):
   ${scanCommand(places)}

4. Use the session:
   ${post('/message', { phone: DEMO_PEER, type: 'text', text: 'hello Bob' })}
   ${post('/message', { phone: DEMO_PEER, type: 'image', text: 'a picture', image: { url: places.pictureUrl, mimetype: 'image/png' } })}
   ${post('/message', { group: DEMO_GROUP, type: 'location', location: { latitude: 52.52, longitude: 13.405, name: 'Alexanderplatz' } })}
   ${post('/status', { type: 'text', text: 'out of office' })}
   ${post('/typing', { phone: DEMO_PEER, type: 'text' })}
   ${get('/group')}
   ${get(`/group/${DEMO_GROUP}`)}
   ${get(`/group/member?groupId=${DEMO_GROUP}`)}
   ${get('/channel')}
   ${get(`/channel/message?channelId=${DEMO_CHANNEL}`)}
   and what Bob's simulated phone decrypted (the picture was served by the demo at ${places.pictureUrl}):
   curl -s ${S}/accounts/${DEMO_PEER}/inbox

5. Start over (a new QR; scan again as in step 3), or delete the session:
   curl -s -X POST ${G}/session/reset ${AUTH}
   curl -s -X DELETE ${G}/session ${AUTH}

Operations:
   curl -s ${G}/healthz
   curl -s ${G}/readyz
   curl -s ${G}/metrics

Ctrl+C stops the gateway and the sandbox; sessions stay in DATA_DIR and come back on the next start.
`
}
