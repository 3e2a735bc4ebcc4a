/**
 * @module sandbox/sync
 * What the phone pushes to a freshly linked companion on its first login: the initial history-sync notification
 * (inline payload), which also ends Baileys' 20 s AwaitingInitialSync wait, and — when the world says the account
 * syncs contacts — the app-state sync key, so the contact patches served by `w:sync:app:state` can be decrypted.
 */
import { deflateSync } from 'node:zlib'
import { proto } from '@whiskeysockets/baileys'
import type { Account, Companion } from './accounts.js'
import type { SandboxContext } from './context.js'
import { sendFromPhone } from './phone-send.js'
import type { AppStateKeys } from './app-state.js'
import { worldAccount } from './world.js'

export async function sendInitialSync(
  ctx: SandboxContext,
  appState: AppStateKeys,
  account: Account,
  companion: Companion,
): Promise<void> {
  if (companion.initialSyncSent) return
  companion.initialSyncSent = true
  const own = worldAccount(ctx.world(), account.phone)
  const shareContacts = !!own?.syncContacts
  if (shareContacts) {
    const key = appState.keyFor(account.phone)
    await sendFromPhone(
      account,
      account,
      {
        protocolMessage: {
          type: proto.Message.ProtocolMessage.Type.APP_STATE_SYNC_KEY_SHARE,
          appStateSyncKeyShare: {
            keys: [
              {
                keyId: { keyId: key.keyId },
                keyData: {
                  keyData: key.keyData,
                  fingerprint: { rawId: 1, currentIndex: 0, deviceIndexes: [0] },
                  timestamp: Date.now(),
                },
              },
            ],
          },
        },
      },
      { type: 'text' },
    )
  }
  const history = proto.HistorySync.encode({
    syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
    // the chats the phone has: Baileys lists them in `messaging-history.set`
    conversations: (own?.chats ?? []).map(phone => ({ id: `${phone}@s.whatsapp.net` })),
    pushnames: own?.name ? [{ id: account.pnJid, pushname: own.name }] : [],
    progress: 100,
  }).finish()
  await sendFromPhone(
    account,
    account,
    {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
        historySyncNotification: {
          syncType: proto.Message.HistorySyncType.INITIAL_BOOTSTRAP,
          initialHistBootstrapInlinePayload: deflateSync(history),
          chunkOrder: 0,
          progress: 100,
        },
      },
    },
    { type: 'text' },
  )
  ctx.logger.debug({ phone: account.phone, device: companion.device, shareContacts }, 'phone sent initial sync')
}
