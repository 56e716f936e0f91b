// The main window, locked down: context isolation, sandbox, no Node in the page, no navigation away
// from the app, no new windows, no permissions, no remote requests. Links to the web open in the
// system browser.
import path from 'node:path';
import { BrowserWindow, nativeTheme, session, shell } from 'electron';
import { APP_ORIGIN, appUrlCheck, isExternalUrl } from './urls.js';

export { appUrlCheck, isExternalUrl };

export interface WindowOptions {
  preload: string;
  /** The dev server's URL under `npm start`; otherwise the built renderer over app://. */
  devUrl?: string;
  icon?: string;
}

let hardened = false;

/** Session-wide rules, once: deny every permission, and let the page load nothing from the network. */
function hardenSession(devUrl?: string): void {
  if (hardened) return;
  hardened = true;
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, permission, callback) => callback(permission === 'clipboard-sanitized-write'));
  ses.setPermissionCheckHandler((_wc, permission) => permission === 'clipboard-sanitized-write');
  const dev = devUrl ? new URL(devUrl) : null;
  ses.webRequest.onBeforeRequest({ urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'] }, (details, callback) => {
    // Only the dev server (npm start) is ever fetched over the network; a transcript's remote image is not.
    const allowed = dev !== null && new URL(details.url).host === dev.host;
    callback({ cancel: !allowed });
  });
}

export function createMainWindow(options: WindowOptions): BrowserWindow {
  hardenSession(options.devUrl);
  const isApp = appUrlCheck(options.devUrl);
  const win = new BrowserWindow({
    width: 1320,
    height: 860,
    minWidth: 900,
    minHeight: 560,
    show: false,
    title: 'Throughline',
    icon: options.icon,
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#141518' : '#f6f6f4',
    autoHideMenuBar: process.platform !== 'darwin',
    webPreferences: {
      preload: path.resolve(options.preload),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  });
  win.once('ready-to-show', () => win.show());

  const wc = win.webContents;
  wc.setWindowOpenHandler(({ url }) => {
    if (isExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const guard = (event: { preventDefault(): void }, url: string) => {
    if (isApp(url)) return;
    event.preventDefault();
    if (isExternalUrl(url)) void shell.openExternal(url);
  };
  wc.on('will-navigate', guard);
  wc.on('will-redirect', guard);
  wc.on('will-attach-webview', (event) => event.preventDefault());

  if (options.devUrl) void win.loadURL(options.devUrl);
  else void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

/** Shows the window at a route (`#/compose`), or just shows it. */
export function showAt(win: BrowserWindow, hash?: string): void {
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
  if (hash) void win.webContents.executeJavaScript(`location.hash = ${JSON.stringify(hash)}`);
}
