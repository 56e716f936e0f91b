// The api over Electron IPC: one handler, every call validated and dispatched exactly as the socket
// and the HTTP bridge do. Only the app's own page may call it.
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import type { Api } from '../../shared/api.js';
import { ApiError, dispatch } from '../api/dispatch.js';
import { RPC } from '../../shared/rpc.js';

export type Reply = { ok: true; result: unknown } | { ok: false; error: { code: number; message: string } };

export function registerApiHandler(getApi: () => Api | null, isAppUrl: (url: string) => boolean): () => void {
  ipcMain.handle('api', async (event: IpcMainInvokeEvent, method: unknown, params: unknown): Promise<Reply> => {
    // A frame that navigated somewhere else (it should not be able to) gets nothing.
    const from = event.senderFrame?.url ?? '';
    if (!isAppUrl(from)) return { ok: false, error: { code: RPC.FORBIDDEN, message: 'Not allowed from this page.' } };
    const api = getApi();
    if (!api) return { ok: false, error: { code: RPC.INTERNAL, message: 'The index is not open yet.' } };
    try {
      return { ok: true, result: await dispatch(api, String(method), params) };
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(RPC.INTERNAL, (err as Error).message);
      return { ok: false, error: { code: e.code, message: e.message } };
    }
  });
  return () => ipcMain.removeHandler('api');
}
