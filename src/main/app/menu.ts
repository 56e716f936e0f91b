// The application menu: the usual Edit/View/Window menus, a Go menu for the views, and Help.
import path from 'node:path';
import { app, Menu, shell, type MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  show(hash?: string): void;
  dataDir: string;
  logFile: string;
  dev: boolean;
}

export function installMenu(actions: MenuActions): void {
  const go = (label: string, hash: string, accelerator: string): MenuItemConstructorOptions => ({ label, accelerator, click: () => actions.show(hash) });
  const mac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [{ role: 'appMenu' as const }] : [{ label: '&File', submenu: [{ role: 'close' as const, label: 'Close window' }, { role: 'quit' as const, label: 'Quit Throughline' }] }]),
    { role: 'editMenu' },
    {
      label: '&Go',
      submenu: [
        go('Conversations', '#/conversations', 'CmdOrCtrl+1'),
        go('Compose', '#/compose', 'CmdOrCtrl+2'),
        go('Activity', '#/activity', 'CmdOrCtrl+3'),
        go('Index status', '#/status', 'CmdOrCtrl+4'),
        go('Settings', '#/settings', 'CmdOrCtrl+,'),
      ],
    },
    {
      label: '&View',
      submenu: [
        ...(actions.dev ? [{ role: 'reload' as const }, { role: 'toggleDevTools' as const }, { type: 'separator' as const }] : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'Open the index folder', click: () => void shell.openPath(actions.dataDir) },
        { label: 'Open the log', click: () => void shell.openPath(actions.logFile) },
        { label: 'Show the log folder', click: () => shell.showItemInFolder(path.resolve(actions.logFile)) },
        { type: 'separator' },
        { label: `Throughline ${app.getVersion()}`, enabled: false },
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
