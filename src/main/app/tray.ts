// The tray keeps Throughline (and the agents' socket) running when the window is closed, and says so.
import { Menu, nativeImage, Tray } from 'electron';

export interface TrayActions {
  show(hash?: string): void;
  quit(): void;
  socketLabel(): string;
}

export function createTray(iconPath: string, actions: TrayActions): Tray | null {
  let tray: Tray;
  try {
    const image = nativeImage.createFromPath(iconPath).resize({ width: 18, height: 18 });
    tray = new Tray(image);
  } catch {
    // Some Linux desktops have no tray; the app then quits with its last window instead.
    return null;
  }
  const rebuild = () =>
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Open Throughline', click: () => actions.show() },
        { label: 'Compose…', click: () => actions.show('#/compose') },
        { label: 'Index status', click: () => actions.show('#/status') },
        { type: 'separator' },
        { label: actions.socketLabel(), enabled: false },
        { type: 'separator' },
        { label: 'Quit Throughline', click: () => actions.quit() },
      ]),
    );
  rebuild();
  tray.setToolTip('Throughline — agents can recall your conversations');
  tray.on('click', () => actions.show());
  // The socket can come up after the tray; refresh the label when the menu is about to be used.
  tray.on('mouse-enter', rebuild);
  return tray;
}
