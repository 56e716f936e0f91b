// The Electron main process: one instance; the core (index, watcher) and the agents' socket run
// here; the window is only a view onto them. Closing the window leaves the socket serving from the
// tray; Quit stops everything cleanly.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog, type BrowserWindow, type Tray } from 'electron';
import { createCore, type Core } from './api/core.js';
import { defaultSettingsPath } from './settings.js';
import { defaultDbPath } from './store/db.js';
import { startDaemon, type Daemon } from './daemon/daemon.js';
import { defaultLogPath } from './paths-light.js';
import { registerApiHandler } from './app/ipc.js';
import { installMenu } from './app/menu.js';
import { electronSqliteBinding, resourcePath } from './app/native.js';
import { registerAppScheme, serveRenderer } from './app/protocol.js';
import { createTray } from './app/tray.js';
import { appUrlCheck, createMainWindow, showAt } from './app/window.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const devUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;

registerAppScheme();

let win: BrowserWindow | null = null;
let tray: Tray | null = null;
let core: Core | null = null;
let daemon: Daemon | null = null;
let socketProblem: string | null = null;
let started = false;
let stopped = false;

function show(hash?: string): void {
  // A second launch or a dock click can arrive while the index is still opening.
  if (!started) return;
  if (!win || win.isDestroyed()) {
    win = createMainWindow({ preload: path.join(here, '../preload/index.cjs'), devUrl, icon: resourcePath('icon.png') });
    win.on('closed', () => (win = null));
    if (hash) win.webContents.once('did-finish-load', () => win && showAt(win, hash));
    return;
  }
  showAt(win, hash);
}

function fail(title: string, message: string): void {
  dialog.showErrorBox(title, message);
  stopped = true;
  app.exit(1);
}

async function start(): Promise<void> {
  const binding = electronSqliteBinding();
  if ('problem' in binding) return fail('Throughline cannot open its index', binding.problem);
  const dbPath = defaultDbPath();
  try {
    core = createCore({ dbPath, settingsPath: defaultSettingsPath(), nativeBinding: binding.path });
  } catch (err) {
    return fail('Throughline cannot open its index', (err as Error).message);
  }
  registerApiHandler(() => core?.api ?? null, appUrlCheck(devUrl));
  if (!devUrl) serveRenderer(path.join(here, '../renderer'));

  try {
    daemon = await startDaemon({ core, watch: true });
  } catch (err) {
    // Most often a `throughline serve` already owns the socket: agents are served by it, and this
    // window still shows (and indexes into) the same database.
    socketProblem = (err as Error).message;
    void core.watch().catch(() => undefined);
  }

  installMenu({ show, dataDir: path.dirname(dbPath), logFile: defaultLogPath(), dev: Boolean(devUrl) });
  tray = createTray(resourcePath('icon.png'), {
    show,
    quit: () => app.quit(),
    socketLabel: () => (daemon ? `Agents connect at ${daemon.socketPath}` : `Agent socket not running${socketProblem ? ': another Throughline serves it' : ''}`),
  });
  started = true;
  show();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => show());
  app.on('activate', () => show());
  app.on('window-all-closed', () => {
    // With a tray the socket keeps serving agents; without one there is no way back, so quit.
    if (!tray && process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    stopped = true;
    void (async () => {
      // The daemon was given our core, so it leaves closing the database to us.
      await daemon?.close().catch(() => undefined);
      core?.close();
      app.quit();
    })();
  });
  app.whenReady().then(start, (err: Error) => fail('Throughline could not start', err.message));
}
